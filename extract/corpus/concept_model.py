"""Keep or leave out, and which label: each concept decided by a small trained model.

A reader mapping a field looks up *diffusion models*, *ImageNet* and *FID*, not
"neural network", "training data" or "generation"; and *GPT-4* is a Method even
where a sentence evaluates on it. Two linear models, trained on NeurIPS 2023
abstracts annotated by careful readers (``bench/judged/GUIDE.md``, section 5;
``bench/concept_training.py`` writes them), decide from a concept's
:func:`~paperkg.extract.corpus.concept_features.concept_features`:

- a logistic regression, the chance that the concept names a specific thing; a
  concept under ``keep_threshold`` is generic and left out of the graph, and so
  are umbrella terms and bare words (:func:`~paperkg.extract.corpus.specificity.generic_reason`:
  "deep neural network", "detection"), the word-list rules that still pay;
- a softmax over Method, Dataset, Task and Metric; a concept takes another label
  than its mentions' vote when the model gives that label ``relabel_margin``
  more than the voted one.

The weights are a JSON file of about 2 MB (:data:`MODEL_FILE`; 2^16 hashed columns
per output), read with numpy alone. :func:`decide_concepts` is the build's step.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from ...errors import ExtractionError
from ...records import Concept, PaperMentions, Resolution, concept_node_id
from .concept_features import concept_features, hashed
from .specificity import NAMED_SHARE, generic_reason

__all__ = ["MODEL_FILE", "ConceptModel", "decide_concepts", "load_model"]

logger = logging.getLogger(__name__)

MODEL_FILE = Path(__file__).parent / "models" / "concept_model.json"
#: concepts scored at once (bounds the memory of a large corpus's scoring)
_CHUNK = 10_000


@dataclass(frozen=True)
class ConceptModel:
    """The weights of the two models and the thresholds chosen on the selection set."""

    bits: int
    #: one weight per hashed column: the log-odds that a concept is specific
    keep: np.ndarray
    #: the labels, in the order of the rows of ``label``
    labels: tuple[str, ...]
    #: one row of weights per label: the softmax's scores
    label: np.ndarray
    keep_threshold: float = 0.5
    relabel_margin: float = 0.0

    @classmethod
    def from_json(cls, data: dict) -> ConceptModel:
        return cls(
            bits=int(data["bits"]),
            keep=np.asarray(data["keep"], dtype=np.float64),
            labels=tuple(data["labels"]),
            label=np.asarray(data["label"], dtype=np.float64),
            keep_threshold=float(data["keep_threshold"]),
            relabel_margin=float(data["relabel_margin"]),
        )

    def predict(self, rows: list[dict[str, float]]) -> tuple[np.ndarray, np.ndarray]:
        """For each row of features: the chance it is specific, and its label chances
        (a row per concept, a column per label)."""
        keep = np.empty(len(rows))
        label = np.empty((len(rows), len(self.labels)))
        for start in range(0, len(rows), _CHUNK):
            indptr, columns, values = hashed(rows[start : start + _CHUNK], self.bits)
            owner = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
            n = len(indptr) - 1
            logit = np.bincount(owner, weights=values * self.keep[columns], minlength=n)
            keep[start : start + n] = 1.0 / (1.0 + np.exp(-logit))
            scores = np.stack(
                [np.bincount(owner, weights=values * w[columns], minlength=n) for w in self.label],
                axis=1,
            )
            scores = np.exp(scores - scores.max(axis=1, keepdims=True))
            label[start : start + n] = scores / scores.sum(axis=1, keepdims=True)
        return keep, label


@lru_cache(maxsize=4)
def load_model(path: str | Path = MODEL_FILE) -> ConceptModel:
    """The concept model stored at ``path`` (the shipped one by default)."""
    try:
        return ConceptModel.from_json(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ExtractionError(
            f"{path}: not a concept model this paperkg can use ({e}); reinstall paperkg, "
            "or retrain it with bench/concept_training.py"
        ) from e


def _keep_one_per_paper(
    concept_of: list[list[str | None]], generic: dict[str, str], keep: dict[str, float]
) -> None:
    """Take out of ``generic`` the likeliest concept the model or the bare-word rule left
    out of a paper that would keep none: no paper leaves the graph ("we propose
    *syre*", a coined name in lower case, is a bare word to the rule; fields and
    umbrella terms stay out)."""
    for cids in concept_of:
        if all(c is None or c in generic for c in cids):
            left_out = [
                c
                for c in cids
                if c is not None and (generic[c].startswith("concept") or generic[c] == "bare word")
            ]
            if left_out:
                del generic[max(left_out, key=keep.__getitem__)]


def decide_concepts(
    results: list[PaperMentions], resolution: Resolution, model: ConceptModel | None = None
) -> Resolution:
    """``resolution`` with each concept labelled by the model and the generic ones left
    out: their mentions map to ``None``, and ``resolution.generic`` holds them (id ->
    why, the most mentioned first) so a build can say what it left out.

    A paper all of whose concepts the model would leave out keeps the likeliest (3
    papers of NeurIPS 2023's 3,218; the scores of ``bench/annotated.py`` unchanged). A relabelled concept gets the id of its new label (``concept_of``
    follows), unless a concept of that label and key exists already.
    """
    model = model or load_model()
    ids, rows = concept_features(results, resolution)
    keep, label = model.predict(rows)
    generic: dict[str, str] = {}
    for i, cid in enumerate(ids):
        concept = resolution.concepts[cid]
        named = rows.named_share(i) >= NAMED_SHARE
        reason = generic_reason(concept.key, concept.label, named=named, surfaces=concept.aliases)
        if reason is None and keep[i] < model.keep_threshold:
            reason = f"concept model: specific {keep[i]:.2f}"
        if reason is not None:
            generic[cid] = reason
    _keep_one_per_paper(resolution.concept_of, generic, dict(zip(ids, keep, strict=True)))
    renamed: dict[str, str] = {}
    concepts: dict[str, Concept] = {}
    for i, cid in enumerate(ids):
        concept = resolution.concepts[cid]
        if cid in generic:
            continue
        best = int(label[i].argmax())
        new = model.labels[best]
        current = model.labels.index(concept.label) if concept.label in model.labels else None
        gain = label[i, best] - (label[i, current] if current is not None else 0.0)
        new_id = concept_node_id(new, concept.key)
        if (
            new != concept.label
            and gain > model.relabel_margin
            and new_id not in resolution.concepts
        ):
            reasons = dict(concept.merge_reasons)
            for alias in concept.aliases:
                reasons.setdefault(alias, f"label {concept.label} -> {new} (concept model)")
            concept = replace(concept, id=new_id, label=new, merge_reasons=reasons)
            renamed[cid] = new_id
        concepts[concept.id] = concept
    concept_of = [
        [None if c in generic else renamed.get(c, c) for c in cids]
        if any(c in generic or c in renamed for c in cids)
        else cids
        for cids in resolution.concept_of
    ]
    counts = Counter(c for cids in resolution.concept_of for c in cids if c in generic)
    logger.info(
        "concept model: %d generic concepts left out, %d relabelled", len(generic), len(renamed)
    )
    return replace(
        resolution,
        concepts=concepts,
        concept_of=concept_of,
        generic={cid: generic[cid] for cid in sorted(generic, key=lambda c: (-counts[c], c))},
    )
