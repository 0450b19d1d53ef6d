"""The scorer: exact and lenient precision/recall/F1, numbers checked by hand."""

import pytest

from paperkg.extract.evaluate import GoldDoc, GoldSpan, score

TEXT = "We use BERT and a CNN on SQuAD."
#       0123456789012345678901234567890
GOLD = [
    GoldDoc(
        "d1",
        TEXT,
        [GoldSpan(7, 11, "METHOD"), GoldSpan(18, 21, "METHOD"), GoldSpan(25, 30, "DATASET")],
    )
]
PREDICTED = [
    [
        (7, 11, "METHOD"),  # exact hit
        (16, 21, "METHOD"),  # "a CNN": overlaps gold "CNN", a lenient hit only
        (25, 30, "TASK"),  # right span, wrong label: a miss either way
        (0, 2, "METHOD"),  # "We": a false positive
    ]
]


def test_gold_offsets_are_the_words():
    assert [TEXT[s.start : s.end] for s in GOLD[0].spans] == ["BERT", "CNN", "SQuAD"]


def test_exact_scores():
    report = score(GOLD, PREDICTED, labels=["METHOD", "DATASET", "TASK"])
    micro = report.exact["micro"]
    # 1 right out of 4 predicted and 3 gold
    assert micro["precision"] == pytest.approx(1 / 4)
    assert micro["recall"] == pytest.approx(1 / 3)
    assert micro["f1"] == pytest.approx(2 / 7)
    assert micro["support"] == 3
    method = report.exact["METHOD"]
    assert (method["precision"], method["recall"], method["support"]) == (
        pytest.approx(1 / 3),
        pytest.approx(1 / 2),
        2,
    )
    assert report.exact["DATASET"]["f1"] == 0.0
    assert report.exact["TASK"]["support"] == 0


def test_lenient_scores_count_overlaps_once():
    report = score(GOLD, PREDICTED, labels=["METHOD", "DATASET", "TASK"])
    micro = report.lenient["micro"]
    assert micro["precision"] == pytest.approx(2 / 4)
    assert micro["recall"] == pytest.approx(2 / 3)
    assert micro["f1"] == pytest.approx(4 / 7)
    # two predictions overlapping one gold span: only one of them is a hit
    twice = score(GOLD, [[(18, 21, "METHOD"), (16, 21, "METHOD")]], labels=["METHOD"])
    assert twice.lenient["METHOD"]["precision"] == pytest.approx(1 / 2)
    # a span that ends where a gold span starts ("and a" before "CNN") touches it
    # without sharing a character: no hit
    touching = score(GOLD, [[(12, 18, "METHOD")]], labels=["METHOD"])
    assert touching.lenient["METHOD"]["precision"] == 0.0


def test_labels_a_corpus_does_not_annotate_are_not_scored():
    # TDMSci has no METHOD: a predicted METHOD there is neither right nor wrong
    report = score(GOLD, PREDICTED, labels=["DATASET"])
    assert set(report.exact) == {"DATASET", "micro"}
    assert report.exact["micro"]["precision"] == 0.0
    assert report.exact["micro"]["support"] == 1


def test_default_labels_are_those_in_the_gold():
    assert set(score(GOLD, PREDICTED).exact) == {"METHOD", "DATASET", "micro"}


def test_perfect_and_empty_predictions():
    spans = [(s.start, s.end, s.label) for s in GOLD[0].spans]
    assert score(GOLD, [spans]).exact["micro"]["f1"] == 1.0
    assert score(GOLD, [[]]).exact["micro"] == {
        "precision": 0.0,
        "recall": 0.0,
        "f1": 0.0,
        "support": 3,
    }


def test_json_form_has_per_type_micro_and_lenient():
    report = score(GOLD, PREDICTED)
    data = report.to_dict()
    assert set(data["micro"]) == {"precision", "recall", "f1", "support"}
    assert data["lenient"]["micro"]["f1"] == pytest.approx(report.lenient["micro"]["f1"])


def test_prediction_count_must_match():
    with pytest.raises(ValueError, match="1 gold documents but 2 predictions"):
        score(GOLD, [[], []])
