"""Rule-based concept tagging from noun phrases and their head words.

This is the extractor's fallback: it labels noun phrases by their head word
("graph neural *network*" -> METHOD, "image *classification*" -> TASK) and adds them
only where no other component has found an entity. A trained NER goes before it in
the pipeline and wins wherever it has spoken.
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc, Span

from ...names import is_coined_model_token, looks_like_name
from .lexicon import (
    DATASET_HEADS,
    GENERIC_MODIFIERS,
    GENERIC_NOUN_MODIFIERS,
    METHOD_GENERIC_HEADS,
    METHOD_SPECIFIC_HEADS,
    METRIC_HEADS,
    METRIC_MODIFIED_HEADS,
    STANDALONE_METHOD_HEADS,
    STANDALONE_TASK_HEADS,
    TASK_HEADS,
    TASK_WORDS,
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
        (t.pos_ in {"NOUN", "PROPN", "X"} and t.lower_ not in GENERIC_NOUN_MODIFIERS)
        or looks_like_name(t.text)
        for t in content
    )
    if head_word in DATASET_HEADS:
        # "the Penn Treebank corpus", "MS-COCO dataset"; not "real-world datasets"
        named = any(t.pos_ == "PROPN" or looks_like_name(t.text) for t in content)
        return "DATASET" if named else None
    if head_word in METRIC_HEADS:
        return "METRIC"
    if head_word in METRIC_MODIFIED_HEADS:
        return "METRIC" if content else None
    if head_word in TASK_WORDS:
        return "TASK" if has_noun_modifier else None
    if head_word in TASK_HEADS or head.lemma_.lower() in TASK_HEADS:
        return "TASK" if content or head_word in STANDALONE_TASK_HEADS else None
    if head_word in METHOD_SPECIFIC_HEADS or head.lemma_.lower() in METHOD_SPECIFIC_HEADS:
        return "METHOD" if content or head_word in STANDALONE_METHOD_HEADS else None
    if head_word in METHOD_GENERIC_HEADS:
        return "METHOD" if has_noun_modifier else None
    if len(span) == 1 and is_coined_model_token(head.text):
        return "METHOD"  # "LLaMA", "GPT-4": a name the NER did not know
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


#: parts of speech a noun phrase is built from when there is no parser
_PHRASE_POS = frozenset({"ADJ", "NOUN", "PROPN", "X"})
_HEAD_POS = frozenset({"NOUN", "PROPN", "X"})
#: head words in -ing that the tagger often reads as verbs ("we study *pretraining*")
_ING_HEADS = frozenset(
    w for w in METHOD_SPECIFIC_HEADS | TASK_HEADS | STANDALONE_METHOD_HEADS if w.endswith("ing")
)


#: every word :func:`label_for_phrase` can label a phrase by
_ALL_HEADS = (
    DATASET_HEADS
    | METRIC_HEADS
    | METRIC_MODIFIED_HEADS
    | TASK_WORDS
    | TASK_HEADS
    | METHOD_SPECIFIC_HEADS
    | METHOD_GENERIC_HEADS
)


def _nominal(token) -> bool:
    """A word a noun phrase can be built from, or end in."""
    if token.pos_ in _PHRASE_POS:
        return True
    return token.tag_ == "VBG" and token.lower_ in _ING_HEADS


def _head(token) -> bool:
    return token.pos_ in _HEAD_POS or (token.tag_ == "VBG" and token.lower_ in _ING_HEADS)


def _glued(doc: Doc, i: int) -> bool:
    """True when token ``i`` is joined to the next one by a hyphen: "in" in "in-context"."""
    return (
        i + 2 < len(doc)
        and not doc[i].whitespace_
        and doc[i + 1].text == "-"
        and not doc[i + 1].whitespace_
    )


def tagged_noun_phrases(doc: Doc) -> list[Span]:
    """Noun phrases found from part-of-speech tags alone, for pipelines without a parser.

    A phrase is a run of adjectives, nouns and names (hyphenated compounds such as
    "in-context" or "chain-of-thought" count as one word) ending in a noun or name:
    "large language models", "in-context learning". Determiners, verbs, coordination
    and punctuation end a phrase, so "image generation and text classification" gives two.
    """
    phrases, start, i, n = [], None, 0, len(doc)
    while i <= n:
        token = doc[i] if i < n else None
        if token is not None and (_nominal(token) or _glued(doc, i)):
            if start is None:
                start = i
            if _glued(doc, i):
                i += 2  # the word and its hyphen; the next word continues the phrase
                continue
            i += 1
            continue
        if start is not None:
            end = i
            while end > start and not _head(doc[end - 1]):
                end -= 1
            if end > start and not _continues_a_word(doc, start):
                phrases.append(_without_generic_compound(doc[start:end]))
            start = None
        i += 1
    return phrases


def complete_hyphenated_words(doc: Doc) -> None:
    """Widen entities that start or end inside a hyphenated word.

    The tokenizer splits "in-context" into "in", "-", "context", and a NER may then
    find "context learning"; the entity becomes "in-context learning".
    """
    ents, changed = list(doc.ents), False
    taken = {i for e in ents for i in range(e.start, e.end)}
    for k, ent in enumerate(ents):
        start, end = ent.start, ent.end
        while start >= 2 and _glued(doc, start - 2) and taken.isdisjoint((start - 2, start - 1)):
            start -= 2
        while end + 1 < len(doc) and _glued(doc, end - 1) and taken.isdisjoint((end, end + 1)):
            end += 2
        if (start, end) != (ent.start, ent.end):
            taken.update(range(start, end))
            ents[k] = Span(doc, start, end, label=ent.label)
            changed = True
    if changed:
        doc.ents = ents


def _keep_hyphenated_start(phrase: Span, part: Span) -> Span:
    """Undo trimming inside a hyphenated word: "in-context learning", not "context learning"."""
    doc, start = phrase.doc, phrase.start
    while len(phrase) and start - 2 >= part.start and _glued(doc, start - 2):
        start -= 2
    return doc[start : phrase.end]


def _continues_a_word(doc: Doc, i: int) -> bool:
    """True when token ``i`` is the tail of a word split by the tokenizer: "D" in "3D"."""
    return i > 0 and not doc[i - 1].whitespace_ and doc[i - 1].text[-1:].isalnum()


def _without_generic_compound(phrase: Span) -> Span:
    """ "state-of-the-art methods" -> "methods": a leading hyphenated generic word goes."""
    doc, start = phrase.doc, phrase.start
    end = start
    while end + 1 < phrase.end and _glued(doc, end):
        end += 2
    if end > start and doc[start : end + 1].text.lower() in GENERIC_MODIFIERS:
        return doc[end + 1 : phrase.end]
    return phrase


@Language.factory(
    "paperkg_term_rules",
    default_config={"labels": ["METHOD", "DATASET", "TASK", "METRIC"]},
    requires=["token.pos"],
)
def make_term_rules(nlp: Language, name: str, labels: list[str]) -> TermRules:
    return TermRules(labels=labels)


class TermRules:
    """Tags noun phrases as METHOD, DATASET, TASK or METRIC by their head word.

    Uses the parser's ``Doc.noun_chunks`` when the pipeline has a parser and noun
    phrases found from part-of-speech tags otherwise (:func:`tagged_noun_phrases`).
    Adds to ``Doc.ents`` only where no entity exists yet; sets no custom attributes.
    """

    def __init__(self, labels: list[str]):
        # ordered, not a set: a saved pipeline's meta.json reads the same every run
        self.labels = tuple(dict.fromkeys(labels))

    def __call__(self, doc: Doc) -> Doc:
        complete_hyphenated_words(doc)
        if doc.has_annotation("DEP"):
            parts = [p for chunk in doc.noun_chunks for p in _split_coordination(chunk)]
        elif doc.has_annotation("POS"):
            parts = tagged_noun_phrases(doc)
        else:
            return doc  # neither parser nor tagger: nothing to find phrases with
        taken = {i for e in doc.ents for i in range(e.start, e.end)}
        spans = []
        for part in parts:
            if not len(part):
                continue
            last = part[-1]
            if last.i in taken or (
                last.lower_ not in _ALL_HEADS
                and last.lemma_.lower() not in _ALL_HEADS
                and not (len(part) == 1 and is_coined_model_token(last.text))
            ):
                continue  # the NER has spoken here, or no head word could label it
            phrase = _without_generic_compound(_keep_hyphenated_start(trim(part), part))
            if not len(phrase):
                continue
            if any(t.text in {"(", ")"} for t in phrase):
                continue  # "X (Y) methods": the acronym component handles these
            label = label_for_phrase(phrase)
            if label in self.labels:
                spans.append(Span(doc, phrase.start, phrase.end, label=label))
        add_entities(doc, spans)
        return doc
