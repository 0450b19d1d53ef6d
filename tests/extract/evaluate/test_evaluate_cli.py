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
    # The shipped model finds the five gold spans of tiny_1 exactly ("convolutional
    # neural network", "CNN", "image classification", "accuracy", "CIFAR-10") and one
    # METHOD more, "parsers" in tiny_2, whose gold spans are Generic and
    # OtherScientificTerm (not scored). Lenient matching pairs each of the six
    # predictions with an unmatched overlapping gold span of its label: the five exact
    # ones pair with themselves, "parsers" overlaps nothing. So, lenient:
    #   micro:  5 hits / 6 predicted = 5/6 precision, 5 / 5 gold = 1 recall,
    #           F1 = 2 * (5/6) * 1 / (5/6 + 1) = (10/6) / (11/6) = 10/11
    #   METHOD: 2 hits / 3 predicted = 2/3, 2 / 2 gold = 1, F1 = (4/3) / (5/3) = 4/5
    #   DATASET, TASK, METRIC: 1 / 1 each, F1 = 1
    lenient = data["lenient"]
    assert lenient["micro"] == {
        "precision": pytest.approx(5 / 6),
        "recall": 1.0,
        "f1": pytest.approx(10 / 11),
        "support": 5,
    }
    assert lenient["METHOD"] == {
        "precision": pytest.approx(2 / 3),
        "recall": 1.0,
        "f1": pytest.approx(4 / 5),
        "support": 2,
    }
    assert [lenient[label]["f1"] for label in ("DATASET", "TASK", "METRIC")] == [1.0, 1.0, 1.0]
    assert data["micro"] == lenient["micro"]  # every hit here is an exact one too
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
