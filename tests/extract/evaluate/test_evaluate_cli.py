"""`paperkg eval --json` end to end on a tiny SciERC-format fixture, with the shipped pipeline."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paperkg.cli import app

GOLD = Path(__file__).resolve().parents[2] / "fixtures" / "gold"
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
    # Read in SciERC's style, the shipped model finds "image classification",
    # "accuracy" and "CIFAR-10" of tiny_1 exactly, but "convolutional neural network
    # (CNN)" as one METHOD where the gold has two ("convolutional neural network" and
    # "CNN"), and one METHOD more, "parsers" in tiny_2, whose gold spans are Generic and
    # OtherScientificTerm (not scored). So, exact: 3 hits of 5 predicted and 5 gold,
    # micro precision = recall = F1 = 3/5, and no METHOD hit.
    # Lenient matching pairs each prediction with one unmatched overlapping gold span
    # of its label: the long METHOD pairs with one of the two it covers, "parsers"
    # overlaps nothing. So, lenient:
    #   micro:  4 hits / 5 predicted = 4/5 precision, 4 / 5 gold = 4/5 recall, F1 = 4/5
    #   METHOD: 1 hit / 2 predicted = 1/2, 1 / 2 gold = 1/2, F1 = 1/2
    #   DATASET, TASK, METRIC: 1 / 1 each, F1 = 1
    assert data["micro"] == {
        "precision": pytest.approx(3 / 5),
        "recall": pytest.approx(3 / 5),
        "f1": pytest.approx(3 / 5),
        "support": 5,
    }
    assert data["METHOD"]["f1"] == 0.0
    lenient = data["lenient"]
    assert lenient["micro"] == {
        "precision": pytest.approx(4 / 5),
        "recall": pytest.approx(4 / 5),
        "f1": pytest.approx(4 / 5),
        "support": 5,
    }
    assert lenient["METHOD"] == {
        "precision": pytest.approx(1 / 2),
        "recall": pytest.approx(1 / 2),
        "f1": pytest.approx(1 / 2),
        "support": 2,
    }
    assert [lenient[label]["f1"] for label in ("DATASET", "TASK", "METRIC")] == [1.0, 1.0, 1.0]
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


def test_texts_are_read_in_the_gold_corpus_style_unless_as_built():
    gold = str(GOLD / "tiny_tdmsci.conll")
    own = json.loads(runner.invoke(app, ["eval", gold, "-f", "tdmsci", "--json"]).output)
    built = runner.invoke(app, ["eval", gold, "-f", "tdmsci", "--json", "--as-built"]).output
    assert own["style"] == "tdmsci"
    assert json.loads(built)["style"] == "annotated"  # the shipped pipeline's own style
