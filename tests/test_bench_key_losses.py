"""bench/key_losses.py puts each key concept where the build lost it."""

import numpy as np
from key_losses import key_losses

from paperkg.extract.corpus.concept_features import hashed
from paperkg.extract.corpus.concept_model import ConceptModel, decide_concepts
from paperkg.extract.resolve import resolve_concepts
from paperkg.records import CONCEPT_LABELS, Mention, Paper, PaperMentions

BITS = 10


def _column(name):
    return int(hashed([{name: 1.0}], BITS)[1][1])  # [0] is the bias column


def _model_leaving_out(word):
    """A hand-made concept model: every concept kept (a bias of +5) and labelled as
    voted, but those whose name holds ``word`` (-10)."""
    keep = np.zeros(1 << BITS)
    keep[_column("bias")] = 5.0
    keep[_column(f"w={word}")] = -10.0
    label = np.zeros((len(CONCEPT_LABELS), 1 << BITS))
    for name in CONCEPT_LABELS:
        label[CONCEPT_LABELS.index(name), _column(f"v=is {name}")] = 1.0
    return ConceptModel(BITS, keep, CONCEPT_LABELS, label, keep_threshold=0.5)


def _key_concept(name, label):
    return {"name": name, "label": label, "specific": True, "key": True, "proposed": False,
            "mentions": [["abstract", 0, len(name), name]]}  # fmt: skip


def test_each_key_concept_is_found_or_lost_in_one_named_place():
    text = "We propose SelKD, a kernel method, and evaluate it on WebQA by exact match."
    tagged = [("SelKD", "METHOD"), ("kernel", "METHOD"), ("WebQA", "METHOD"),
              ("exact match", "METRIC")]  # fmt: skip
    mentions = [Mention(t, lb, text.index(t), text.index(t) + len(t), text) for t, lb in tagged]
    results = [PaperMentions(Paper(id="p", abstract=text, text=text, source="x"), mentions)]
    annotations = {
        "p": {
            "split": "select",
            "concepts": [
                _key_concept("SelKD", "Method"),
                _key_concept("kernel methods", "Method"),
                _key_concept("WebQA", "Dataset"),
                _key_concept("exact match", "Metric"),
                _key_concept("fidelity", "Metric"),
            ],
        }
    }
    undecided = resolve_concepts(results)
    decided = decide_concepts(results, undecided, _model_leaving_out("exact"))
    rows = key_losses(results, undecided, decided, annotations, "select")
    assert [(kind, name, detail) for kind, _, name, detail in rows] == [
        ("found", "SelKD", ""),
        ("mentioned otherwise", "kernel methods", "kernel"),
        ("wrong label", "WebQA", "Method"),
        ("left out by the decision", "exact match", "concept model"),
        ("no mention", "fidelity", ""),
    ]
    assert key_losses(results, undecided, decided, annotations, "test") == []
