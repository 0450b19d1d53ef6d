"""bench/key_losses.py puts each key concept where the build lost it."""

import sys
from pathlib import Path

import numpy as np

from paperkg.extract.corpus.concept_features import hashed
from paperkg.extract.corpus.concept_model import ConceptModel, decide_concepts
from paperkg.extract.resolve import resolve_concepts
from paperkg.records import CONCEPT_LABELS, Mention, Paper, PaperMentions

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from key_losses import key_losses  # noqa: E402

BITS = 10


def _model_dropping(word):
    """Every concept kept and labelled as voted, but those holding ``word``."""
    keep = np.zeros(1 << BITS)
    keep[hashed([{"bias": 1.0}], BITS)[1][0]] = 5.0
    keep[hashed([{f"w={word}": 1.0}], BITS)[1][1]] = -10.0
    label = np.zeros((len(CONCEPT_LABELS), 1 << BITS))
    for name in CONCEPT_LABELS:
        label[CONCEPT_LABELS.index(name), hashed([{f"v=is {name}": 1.0}], BITS)[1][1]] = 1.0
    return ConceptModel(BITS, keep, CONCEPT_LABELS, label, keep_threshold=0.5)


def _concept(name, label):
    return {"name": name, "label": label, "specific": True, "key": True, "proposed": False,
            "mentions": [["abstract", 0, len(name), name]]}  # fmt: skip


def test_each_key_concept_is_found_or_lost_in_one_named_place():
    text = "We propose SelKD, a kernel method, and evaluate it on WebQA with accuracy."
    tagged = [("SelKD", "METHOD"), ("kernel", "METHOD"), ("WebQA", "METHOD"),
              ("accuracy", "METRIC")]  # fmt: skip
    mentions = [Mention(t, lb, text.index(t), text.index(t) + len(t), text) for t, lb in tagged]
    results = [PaperMentions(Paper(id="p", abstract=text, text=text, source="x"), mentions)]
    annotations = {
        "p": {
            "split": "select",
            "concepts": [
                _concept("SelKD", "Method"),
                _concept("kernel methods", "Method"),
                _concept("WebQA", "Dataset"),
                _concept("accuracy", "Metric"),
                _concept("fidelity", "Metric"),
            ],
        }
    }
    undecided = resolve_concepts(results)
    decided = decide_concepts(results, undecided, _model_dropping("accuracy"))
    rows = key_losses(results, undecided, decided, annotations, "select")
    assert [(kind, name, detail) for kind, _, name, detail in rows] == [
        ("found", "SelKD", ""),
        ("cut otherwise", "kernel methods", "kernel"),
        ("wrong label", "WebQA", "Method"),
        ("left out by the decision", "accuracy", "concept model"),
        ("no mention", "fidelity", ""),
    ]
    assert key_losses(results, undecided, decided, annotations, "test") == []
