"""Score predicted spans against gold spans: precision, recall and F1, exact and lenient.

Why apart from running a pipeline (:mod:`.run`): the scorer takes plain
``(start, end, label)`` tuples, so a baseline, a benchmark or a test scores its
spans without spaCy.

Scores
    *exact*: a predicted span counts when its start, end and label equal a gold
    span's. *lenient*: a predicted span counts when it overlaps a not yet matched
    gold span of the same label (one-to-one), so "the CIFAR-10 dataset" against
    gold "CIFAR-10" is a hit.

Examples
--------
>>> from paperkg.extract.evaluate import GoldDoc, GoldSpan
>>> gold = [GoldDoc("d1", "We use BERT on SQuAD.", [GoldSpan(7, 11, "METHOD"),
...                                                   GoldSpan(15, 20, "DATASET")])]
>>> report = score(gold, [[(7, 11, "METHOD"), (12, 20, "DATASET")]])
>>> report.exact["micro"]["f1"], report.lenient["micro"]["f1"]
(0.5, 1.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...records import ENTITY_LABELS
from .gold import GoldDoc

__all__ = ["LABELS", "Report", "Spans", "score"]

LABELS = tuple(ENTITY_LABELS)  # METHOD, DATASET, TASK, METRIC

#: Predicted or gold spans of one document: ``(start, end, label)``.
Spans = Sequence[tuple[int, int, str]]


@dataclass
class Report:
    """Precision/recall/F1 per label and micro-averaged, exact and lenient.

    ``exact`` and ``lenient`` map each label and ``"micro"`` to
    ``{"precision", "recall", "f1", "support"}`` (support = gold mentions).
    """

    exact: dict[str, dict[str, float]]
    lenient: dict[str, dict[str, float]]
    documents: int = 0
    seconds: float = 0.0

    @property
    def docs_per_second(self) -> float:
        return self.documents / self.seconds if self.seconds else 0.0

    def to_dict(self) -> dict:
        """The JSON form printed by ``paperkg eval --json``."""
        out: dict = {label: dict(v) for label, v in self.exact.items()}
        out["lenient"] = {label: dict(v) for label, v in self.lenient.items()}
        out["documents"] = self.documents
        out["docs_per_second"] = round(self.docs_per_second, 2)
        return out


def _prf(tp: int, n_pred: int, n_gold: int) -> dict[str, float]:
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": p, "recall": r, "f1": f, "support": n_gold}


def _lenient_hits(gold: Spans, pred: Spans) -> list[tuple[int, int, str]]:
    """Predicted spans matched one-to-one to overlapping gold spans of the same label."""
    free = sorted(gold)
    hits = []
    for p in sorted(pred):
        for g in free:
            if g[2] == p[2] and g[0] < p[1] and p[0] < g[1]:
                hits.append(p)
                free.remove(g)
                break
    return hits


def score(
    gold_docs: Sequence[GoldDoc],
    predictions: Sequence[Spans],
    labels: Sequence[str] | None = None,
) -> Report:
    """Score predicted ``(start, end, label)`` spans against the gold documents.

    ``labels`` limits scoring to the labels the corpus annotates (a corpus
    without METHOD must not count predicted METHODs as wrong); by default every
    label that occurs in the gold documents.
    """
    if len(gold_docs) != len(predictions):
        raise ValueError(f"{len(gold_docs)} gold documents but {len(predictions)} predictions")
    if labels is None:
        labels = [lab for lab in LABELS if any(s.label == lab for d in gold_docs for s in d.spans)]
    counts = {kind: {lab: [0, 0, 0] for lab in labels} for kind in ("exact", "lenient")}
    for doc, pred in zip(gold_docs, predictions, strict=True):
        gold = {(s.start, s.end, s.label) for s in doc.spans if s.label in labels}
        pred = {tuple(p) for p in pred if p[2] in labels}
        for kind, hits in (("exact", gold & pred), ("lenient", _lenient_hits(list(gold), pred))):
            for lab in labels:
                c = counts[kind][lab]
                c[0] += sum(1 for h in hits if h[2] == lab)
                c[1] += sum(1 for p in pred if p[2] == lab)
                c[2] += sum(1 for g in gold if g[2] == lab)
    tables = {}
    for kind, by_label in counts.items():
        table = {lab: _prf(*c) for lab, c in by_label.items()}
        table["micro"] = _prf(*(sum(c[i] for c in by_label.values()) for i in range(3)))
        tables[kind] = table
    return Report(exact=tables["exact"], lenient=tables["lenient"], documents=len(gold_docs))
