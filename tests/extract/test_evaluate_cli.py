"""`paperkg eval --json` end to end on a tiny SciERC-format fixture, with the shipped pipeline."""

import json
from pathlib import Path

from typer.testing import CliRunner

from paperkg.cli import app

GOLD = Path(__file__).resolve().parents[1] / "fixtures" / "gold"
runner = CliRunner()


def test_eval_json_prints_per_type_micro_and_lenient():
    result = runner.invoke(app, ["eval", str(GOLD / "tiny_scierc.json"), "-f", "scierc", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    supports = {label: data[label]["support"] for label in ("METHOD", "DATASET", "TASK", "METRIC")}
    assert supports == {"METHOD": 2, "DATASET": 1, "TASK": 1, "METRIC": 1}
    assert data["micro"]["support"] == 5
    assert (
        set(data["micro"])
        == set(data["lenient"]["micro"])
        == {
            "precision",
            "recall",
            "f1",
            "support",
        }
    )
    # the shipped model finds most of "convolutional neural network (CNN) ... CIFAR-10"
    assert data["micro"]["f1"] >= 0.5
    assert data["lenient"]["micro"]["f1"] >= data["micro"]["f1"]
    assert data["documents"] == 2


def test_eval_prints_tables_without_json():
    result = runner.invoke(app, ["eval", str(GOLD / "tiny_tdmsci.conll"), "-f", "tdmsci"])
    assert result.exit_code == 0, result.output
    assert "exact span match" in result.output and "lenient" in result.output
    assert "METHOD" not in result.output  # TDMSci has no METHOD: it is not scored


def test_heldout_is_for_tdmsci_only():
    result = runner.invoke(
        app, ["eval", str(GOLD / "tiny_scierc.json"), "-f", "scierc", "--heldout"]
    )
    assert result.exit_code != 0
    assert "--heldout applies to --format tdmsci only" in result.output
