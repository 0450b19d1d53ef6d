"""Small span helpers shared by the rule components."""

from __future__ import annotations

from collections.abc import Iterable

from spacy.tokens import Doc, Span
from spacy.util import filter_spans

from .lexicon import GENERIC_MODIFIERS

_EDGE_POS_TO_TRIM = {"DET", "PRON", "PUNCT", "CCONJ", "ADP", "PART", "SCONJ", "AUX", "ADV"}


def trim(span: Span) -> Span:
    """``span`` without leading determiners, pronouns, generic adjectives or punctuation.

    "a simple yet effective IMVC approach" -> "IMVC approach".
    """
    doc = span.doc
    start, end = span.start, span.end
    # a phrase that crosses a parenthesis keeps the side with its head:
    # "(IMVC) methods" -> "methods", "model (GNN" -> "model"
    for i in range(span.start, span.end):
        if doc[i].text == ")" and not any(doc[k].text == "(" for k in range(start, i)):
            start = i + 1
        elif doc[i].text == "(" and not any(doc[k].text == ")" for k in range(i, end)):
            end = i
            break
    while start < end and (
        doc[start].pos_ in _EDGE_POS_TO_TRIM
        or (doc[start].lower_ in GENERIC_MODIFIERS and not _starts_title_case_name(doc, start, end))
        or doc[start].text in {"-", "(", ")", "[", "]", '"', "'"}
    ):
        start += 1
    while end > start and (
        doc[end - 1].pos_ in {"PUNCT", "CCONJ", "ADP", "DET", "PART"}
        or doc[end - 1].text in {"-", "(", ")", "[", "]", '"', "'"}
    ):
        end -= 1
    return doc[start:end]


def _starts_title_case_name(doc: Doc, start: int, end: int) -> bool:
    """ "Multiple Instance Learning" is a name; "Multiple methods" is not."""
    rest = [t for t in doc[start:end] if not t.is_punct]
    return len(rest) >= 2 and all(t.text[:1].isupper() for t in rest) and doc[start].pos_ != "DET"


def add_entities(doc: Doc, spans: Iterable[Span], *, override: bool = False) -> None:
    """Add ``spans`` to ``doc.ents``.

    Existing entities win over new overlapping spans unless ``override`` is set, in
    which case the new spans replace the entities they overlap.
    """
    new = [s for s in spans if len(s) > 0]
    if not new:
        return
    old = list(doc.ents)
    if override:
        taken = {i for s in new for i in range(s.start, s.end)}
        kept = [e for e in old if not any(i in taken for i in range(e.start, e.end))]
        doc.ents = filter_spans(new + kept)
    else:
        taken = {i for e in old for i in range(e.start, e.end)}
        fresh = [s for s in new if not any(i in taken for i in range(s.start, s.end))]
        doc.ents = old + filter_spans(fresh)
