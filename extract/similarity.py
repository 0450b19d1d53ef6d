"""Near-duplicate concept keys: typos merged, numbers and versions kept apart.

Two keys are near-duplicates when they have the same label, the same number of
words, and differ in exactly one word by one edit (a typo such as "receptive
filed" / "receptive field"), with a high overall similarity. Names that differ
in a number or version (CIFAR-10 / CIFAR-100, GPT-3 / GPT-4, BERT-base /
BERT-large, v1 / v2) never match, nor do words that differ by a negating prefix
("supervised" / "unsupervised").

Comparisons run only inside blocks of keys that share a label, a word count and
either their first or their last word, so 20,000 keys cost seconds, not hours.

>>> a, b = ("METHOD", "valid receptive filed"), ("METHOD", "valid receptive field")
>>> [(j[1], t[1], round(s)) for j, t, s in near_duplicate_pairs([a, b], {a: 1, b: 2})]
[('valid receptive filed', 'valid receptive field', 95)]
>>> c, d = ("DATASET", "cifar-10"), ("DATASET", "cifar-100")
>>> near_duplicate_pairs([c, d], {c: 1, d: 1})
[]
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

__all__ = ["near_duplicate_pairs", "same_numbers_and_versions"]

#: overall similarity (rapidfuzz ratio, 0-100) two keys need
MIN_RATIO = 90.0
#: the one differing word must be at least this long in both keys
MIN_WORD_LENGTH = 5

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_VERSION_WORDS = frozenset(
    """
    base large small tiny mini medium huge xl xxl giant nano micro lite plus pro ultra
    v1 v2 v3 v4 v5 i ii iii iv v vi 2d 3d 4d 1d
    """.split()
)
_NEGATING_PREFIXES = (
    "un",
    "non",
    "non-",
    "semi",
    "semi-",
    "self",
    "self-",
    "in",
    "im",
    "ir",
    "dis",
    "de",
    "anti",
    "multi",
    "multi-",
    "sub",
    "super",
    "co",
    "re",
)

Node = tuple[str, str]


def same_numbers_and_versions(a: str, b: str) -> bool:
    """False when ``a`` and ``b`` differ in a number or a version word.

    >>> same_numbers_and_versions("gpt-3", "gpt-4")
    False
    >>> same_numbers_and_versions("bert-base", "bert-large")
    False
    >>> same_numbers_and_versions("resnet-50", "resnet 50")
    True
    """
    if _NUMBER.findall(a) != _NUMBER.findall(b):
        return False
    words_a = set(re.split(r"[\s\-_/]", a)) & _VERSION_WORDS
    words_b = set(re.split(r"[\s\-_/]", b)) & _VERSION_WORDS
    return words_a == words_b


def _typo_pair(a: str, b: str) -> bool:
    """True when words ``a`` and ``b`` differ by one typo, not by meaning."""
    if min(len(a), len(b)) < MIN_WORD_LENGTH or a[0] != b[0]:
        return False
    if OSA.distance(a, b) != 1:
        return False
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    return not any(longer == p + shorter for p in _NEGATING_PREFIXES)


def _match(a: str, b: str) -> float | None:
    """The similarity of keys ``a`` and ``b`` when they are near-duplicates, else None."""
    words_a, words_b = a.split(" "), b.split(" ")
    if len(words_a) != len(words_b):
        return None
    differing = [(x, y) for x, y in zip(words_a, words_b, strict=True) if x != y]
    if len(differing) != 1 or not _typo_pair(*differing[0]):
        return None
    if not same_numbers_and_versions(a, b):
        return None
    score = fuzz.ratio(a, b)
    return score if score >= MIN_RATIO else None


def near_duplicate_pairs(
    nodes: Iterable[Node], counts: Mapping[Node, int]
) -> list[tuple[Node, Node, float]]:
    """Pairs ``(joining, target, score)`` of near-duplicate (label, key) nodes.

    ``target`` is the more frequent of the two (ties: the alphabetically first key),
    so a typo joins the common spelling.
    """
    blocks: dict[tuple, list[Node]] = defaultdict(list)
    for node in nodes:
        label, key = node
        words = key.split(" ")
        blocks[(label, len(words), "first", words[0])].append(node)
        blocks[(label, len(words), "last", words[-1])].append(node)
    pairs: dict[frozenset[Node], tuple[Node, Node, float]] = {}
    for block in blocks.values():
        if len(block) < 2:
            continue
        block.sort(key=lambda n: n[1])
        for i, a in enumerate(block):
            for b in block[i + 1 :]:
                if abs(len(a[1]) - len(b[1])) > 1:
                    continue
                pair = frozenset((a, b))
                if pair in pairs:
                    continue
                score = _match(a[1], b[1])
                if score is None:
                    continue
                target, joining = sorted((a, b), key=lambda n: (-counts.get(n, 0), n[1]))
                pairs[pair] = (joining, target, score)
    return sorted(pairs.values(), key=lambda p: (-p[2], p[0][1], p[1][1]))
