"""One name, one label, everywhere in the abstract: label the repeats the NER missed.

A statistical NER decides each occurrence from its context, so it finds "the
parser" in one sentence and misses it in the next; an abstract names the same
thing several times, and annotators (and readers) label every occurrence. This
component enforces the "one sense per discourse" heuristic: every other
occurrence of a span the pipeline already labelled gets the same label, when
that occurrence is a phrase of its own (not the middle of a longer noun
compound, not overlapping another entity).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from spacy.language import Language
from spacy.tokens import Doc, Span

from .spans import add_entities

#: parts of speech that continue a noun compound around a match ("machine [translation] system")
_COMPOUND_POS = frozenset({"NOUN", "PROPN", "ADJ", "NUM"})


@Language.factory("paperkg_repeats", default_config={"min_chars": 3})
def make_repeat_mentions(nlp: Language, name: str, min_chars: int) -> RepeatMentions:
    return RepeatMentions(min_chars=min_chars)


class RepeatMentions:
    """Labels further occurrences of names already labelled in the same doc.

    ``min_chars``: shorter names ("AI" aside, mostly noise) are not repeated.
    Existing entities are never changed; sets no custom attributes.
    """

    def __init__(self, min_chars: int = 3) -> None:
        self.min_chars = min_chars

    def __call__(self, doc: Doc) -> Doc:
        labels: dict[tuple[str, ...], Counter[str]] = defaultdict(Counter)
        for ent in doc.ents:
            if len(ent.text) >= self.min_chars:
                labels[_match_key(ent)][ent.label_] += 1
        if not labels:
            return doc
        by_first: dict[str, list[tuple[str, ...]]] = defaultdict(list)
        for key in labels:
            by_first[key[0]].append(key)
        for keys in by_first.values():
            keys.sort(key=len, reverse=True)
        taken = {i for e in doc.ents for i in range(e.start, e.end)}
        found: list[Span] = []
        i = 0
        while i < len(doc):
            span = None
            if i not in taken:
                token = doc[i]
                for key in by_first.get(token.text, []) + by_first.get(token.lower_, []):
                    end = i + len(key)
                    if end > len(doc) or any(k in taken for k in range(i, end)):
                        continue
                    candidate = doc[i:end]
                    if _match_key(candidate) == key and _stands_alone(candidate):
                        label = labels[key].most_common(1)[0][0]
                        span = Span(doc, i, end, label=label)
                        break
            if span is not None:
                found.append(span)
                i = span.end
            else:
                i += 1
        add_entities(doc, found)
        return doc


def _match_key(span: Span) -> tuple[str, ...]:
    """Names with capitals inside ("BERT", "ImageNet") match exactly; others ignore case."""
    text = span.text
    keep_case = any(c.isupper() for c in text[1:])
    return tuple(t.text if keep_case else t.lower_ for t in span)


def _stands_alone(span: Span) -> bool:
    """Not a piece of a longer compound: "[translation]" in "machine translation system"."""
    doc = span.doc
    before = doc[span.start - 1] if span.start > 0 else None
    after = doc[span.end] if span.end < len(doc) else None
    if after is not None and (after.pos_ in {"NOUN", "PROPN"} or after.text == "-"):
        return False
    return before is None or (before.pos_ not in _COMPOUND_POS and before.text != "-")
