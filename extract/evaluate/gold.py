"""The one plain form every gold corpus is read into: a text with labelled character spans.

Why a form of its own: the annotated corpora come tokenised (SciERC, SciER,
SciREX) or as CoNLL rows (TDMSci), while paperkg reads plain text. Their tokens
are joined back into readable text (:func:`detokenize`) so the pipeline sees
text as a user would give it and is scored on character offsets; the readers
(:mod:`.readers`), the scorer (:mod:`.scoring`) and the training converter
(:mod:`paperkg.extract.training.convert`) all share :class:`GoldDoc`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = ["GoldDoc", "GoldSpan", "detokenize", "doc_from_tokens"]


@dataclass(frozen=True, order=True)
class GoldSpan:
    """One annotated mention: character offsets into :attr:`GoldDoc.text`."""

    start: int
    end: int
    label: str


@dataclass
class GoldDoc:
    """One annotated unit (an abstract, a paper or a sentence) as plain text."""

    id: str
    text: str
    spans: list[GoldSpan] = field(default_factory=list)


_PTB = {
    "-LRB-": "(",
    "-RRB-": ")",
    "-LSB-": "[",
    "-RSB-": "]",
    "-LCB-": "{",
    "-RCB-": "}",
    "``": '"',
    "''": '"',
}
_NO_SPACE_BEFORE = {",", ".", ";", ":", ")", "]", "}", "%", "?", "!", "'s", "n't", "'re", "'ve"}
_NO_SPACE_AFTER = {"(", "[", "{"}
_WORD = re.compile(r"\w")
_DIGIT = re.compile(r"\d")


def detokenize(tokens: Sequence[str], *, join_digits: bool = False) -> tuple[str, list[int]]:
    """Join tokens into readable text; return the text and each token's start offset.

    PTB escapes (``-LRB-``) become brackets, no space goes before closing
    punctuation or after an opening bracket, and a hyphen between two words is
    glued to both ("state - of - the - art" -> "state-of-the-art").
    ``join_digits`` glues runs of single digits, as SciER splits numbers
    ("2 0 1 2" -> "2012", "4 2 . 2" -> "42.2").

    >>> detokenize(["a", "-LRB-", "CNN", "-RRB-", "on", "CIFAR", "-", "1", "0", "."],
    ...            join_digits=True)
    ('a (CNN) on CIFAR-10.', [0, 2, 3, 6, 8, 11, 16, 17, 18, 19])
    """
    words = [_PTB.get(t, t) for t in tokens]
    starts: list[int] = []
    parts: list[str] = []
    pos = 0
    for i, word in enumerate(words):
        if i > 0 and _space_between(words, i, join_digits):
            parts.append(" ")
            pos += 1
        starts.append(pos)
        parts.append(word)
        pos += len(word)
    return "".join(parts), starts


def _space_between(words: Sequence[str], i: int, join_digits: bool) -> bool:
    prev, word = words[i - 1], words[i]
    nxt = words[i + 1] if i + 1 < len(words) else ""
    if word in _NO_SPACE_BEFORE and not (word == "." and nxt and _DIGIT.match(nxt) and join_digits):
        return False
    if prev in _NO_SPACE_AFTER:
        return False
    if word == "-" and _WORD.search(prev) and _WORD.match(nxt or " "):
        return False
    if prev == "-" and i >= 2 and _WORD.search(words[i - 2]) and _WORD.match(word):
        return False
    if join_digits:
        if len(prev) == 1 and prev.isdigit() and len(word) == 1 and word.isdigit():
            return False
        if word == "." and prev.isdigit() and nxt.isdigit():
            return False
        if prev == "." and word.isdigit() and i >= 2 and words[i - 2].isdigit():
            return False
    return True


def doc_from_tokens(
    doc_id: str,
    tokens: Sequence[str],
    token_spans: Iterable[tuple[int, int, str]],
    *,
    join_digits: bool = False,
) -> GoldDoc:
    """Build a :class:`GoldDoc` from tokens and inclusive token-offset spans.

    >>> doc_from_tokens("d1", ["We", "use", "BERT", "."], [(2, 2, "METHOD")])
    GoldDoc(id='d1', text='We use BERT.', spans=[GoldSpan(start=7, end=11, label='METHOD')])
    """
    text, starts = detokenize(tokens, join_digits=join_digits)
    words = [_PTB.get(t, t) for t in tokens]
    spans = {
        GoldSpan(starts[first], starts[last] + len(words[last]), label)
        for first, last, label in token_spans
    }
    return GoldDoc(doc_id, text, sorted(spans))
