"""Rule-based concept tagging from noun phrases and their head words.

This is the extractor's fallback: it labels noun phrases by their head word
("graph neural *network*" -> METHOD, "image *classification*" -> TASK) and adds them
only where no other component has found an entity. A trained NER goes before it in
the pipeline and wins wherever it has spoken.
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc, Span

from .lexicon import (
    DATASET_HEADS,
    GENERIC_MODIFIERS,
    METHOD_GENERIC_HEADS,
    METHOD_SPECIFIC_HEADS,
    METRIC_HEADS,
    STANDALONE_METHOD_HEADS,
    STANDALONE_TASK_HEADS,
    TASK_HEADS,
    TASK_WORDS,
    looks_like_name,
)
from .spans import add_entities, trim


def label_for_phrase(span: Span) -> str | None:
    """The concept label a trimmed noun phrase deserves, or None if it is generic.

    A generic head ("method", "approach") needs a noun or name beside it; a specific
    head ("distillation", "classification") stands on its own.
    """
    if len(span) == 0:
        return None
    head = span[-1]
    head_word = head.lower_
    content = [t for t in span[:-1] if t.lower_ not in GENERIC_MODIFIERS and not t.is_punct]
    has_noun_modifier = any(
        t.pos_ in {"NOUN", "PROPN", "X"} or looks_like_name(t.text) for t in content
    )
    if head_word in DATASET_HEADS:
        # "the Penn Treebank corpus", "MS-COCO dataset"; not "real-world datasets"
        named = any(t.pos_ == "PROPN" or looks_like_name(t.text) for t in content)
        return "DATASET" if named else None
    if head_word in METRIC_HEADS:
        return "METRIC"
    if head_word in TASK_WORDS:
        return "TASK" if has_noun_modifier else None
    if head_word in TASK_HEADS or head.lemma_.lower() in TASK_HEADS:
        return "TASK" if content or head_word in STANDALONE_TASK_HEADS else None
    if head_word in METHOD_SPECIFIC_HEADS or head.lemma_.lower() in METHOD_SPECIFIC_HEADS:
        return "METHOD" if content or head_word in STANDALONE_METHOD_HEADS else None
    if head_word in METHOD_GENERIC_HEADS:
        return "METHOD" if has_noun_modifier else None
    return None


def _split_coordination(chunk: Span) -> list[Span]:
    """ "image generation and text classification" -> its two conjuncts."""
    parts, start = [], chunk.start
    for token in chunk:
        if token.pos_ == "CCONJ" or token.text in {",", ";"}:
            parts.append(chunk.doc[start : token.i])
            start = token.i + 1
    parts.append(chunk.doc[start : chunk.end])
    return [p for p in parts if len(p)]


@Language.factory(
    "paperkg_term_rules",
    default_config={"labels": ["METHOD", "DATASET", "TASK", "METRIC"]},
    requires=["token.pos", "token.dep"],
)
def make_term_rules(nlp: Language, name: str, labels: list[str]) -> TermRules:
    return TermRules(labels=labels)


class TermRules:
    """Tags noun phrases as METHOD, DATASET, TASK or METRIC by their head word.

    Needs a parser (for ``Doc.noun_chunks``) and does nothing without one. Adds to ``Doc.ents`` only where no
    entity exists yet; sets no custom attributes.
    """

    def __init__(self, labels: list[str]):
        self.labels = frozenset(labels)

    def __call__(self, doc: Doc) -> Doc:
        if not doc.has_annotation("DEP"):
            return doc  # no parser in this pipeline: no noun chunks to label
        spans = []
        for part in (p for chunk in doc.noun_chunks for p in _split_coordination(chunk)):
            phrase = trim(part)
            if any(t.text in {"(", ")"} for t in phrase):
                continue  # "X (Y) methods": the acronym component handles these
            label = label_for_phrase(phrase)
            if label in self.labels:
                spans.append(Span(doc, phrase.start, phrase.end, label=label))
        add_entities(doc, spans)
        return doc
