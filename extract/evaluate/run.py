"""Run an extraction pipeline over gold texts and score what it finds.

Why a module of its own: this is the one place evaluation meets spaCy and the
extractor, so reading and scoring gold corpora stay free of both, and every
score (``paperkg eval``, training's epoch choice, the meta.json of a trained
model) measures the mentions as they reach the graph.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext

from .gold import GoldDoc
from .readers import CORPUS_LABELS
from .scoring import Report, score

__all__ = ["evaluate", "predict_spans", "styled_ner"]


def predict_spans(nlp, texts: Sequence[str], batch_size: int = 64) -> list[list[tuple]]:
    """Run a spaCy pipeline; return each text's mentions as ``(start, end, label)``.

    Mentions are taken as the extractor takes them
    (:func:`paperkg.extract.nlp.mentions.mentions_from_doc`), so the score is the
    score of what reaches the graph.
    """
    from ..nlp.mentions import mentions_from_doc

    out = []
    for doc in nlp.pipe(texts, batch_size=batch_size):
        mentions, _ = mentions_from_doc(doc)
        out.append([(m.start, m.end, m.label) for m in mentions])
    return out


def evaluate(
    nlp,
    gold_docs: Sequence[GoldDoc],
    fmt: str | None = None,
    predict: Callable[[Sequence[str]], list[list[tuple]]] | None = None,
    style: str | None = None,
) -> Report:
    """Run ``nlp`` over the gold texts and score it; ``fmt`` picks the labels scored.

    ``predict`` replaces :func:`predict_spans` (e.g. a baseline); it gets the
    texts and returns their ``(start, end, label)`` spans. ``style`` names the
    annotation style the NER reads the texts in, when its model learnt that style
    (:meth:`~paperkg.extract.nlp.components.transformer_ner.TransformerNER.reading_style`);
    without it the pipeline reads as it does for the graph.
    """
    texts = [d.text for d in gold_docs]
    started = time.perf_counter()
    with _reading(nlp, style):
        predictions = predict(texts) if predict else predict_spans(nlp, texts)
    seconds = time.perf_counter() - started
    report = score(gold_docs, predictions, CORPUS_LABELS.get(fmt) if fmt else None)
    report.seconds = seconds
    return report


def styled_ner(nlp):
    """The pipeline's NER that can read in an annotation style, or ``None``."""
    if nlp is None:
        return None
    return next((pipe for _, pipe in nlp.pipeline if hasattr(pipe, "reading_style")), None)


def _reading(nlp, style: str | None):
    """The NER's :meth:`reading_style` of ``style``, or nothing to change."""
    ner = styled_ner(nlp) if style is not None else None
    return ner.reading_style(style) if ner is not None else nullcontext()
