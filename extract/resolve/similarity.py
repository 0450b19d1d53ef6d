"""Near-duplicate concept keys: typos merged, numbers and versions kept apart.

Two keys of two words or more are near-duplicates when they have the same label,
the same number of words, and either differ in exactly one word by one edit (a typo such as
"receptive filed" / "receptive field") with a high overall similarity, or differ
only in word forms ("graph convolution network" / "graph convolutional network",
"exponential" / "exponentially", "evolution" / "evolutionary"). Names that differ
in a number or version (CIFAR-10 / CIFAR-100, GPT-3 / GPT-4, BERT-base /
BERT-large, v1 / v2) never match, nor do words that differ by a negating prefix
("supervised" / "unsupervised").

Comparisons run only inside blocks of keys that share a label and the first
letters of their words, so 20,000 keys cost seconds, not hours.

>>> a, b = ("METHOD", "valid receptive filed"), ("METHOD", "valid receptive field")
>>> [(j[1], t[1], why) for j, t, why in near_duplicate_pairs([a, b], {a: 1, b: 2})]
[('valid receptive filed', 'valid receptive field', 'fuzzy match 95')]
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

from .lexicon import VERSION_WORDS, WORD_FORM_EXCEPTIONS

__all__ = ["near_duplicate_pairs", "same_numbers_and_versions"]

#: overall similarity (rapidfuzz ratio, 0-100) two keys need
MIN_RATIO = 90.0
#: the one differing word must be at least this long in both keys
MIN_WORD_LENGTH = 5

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
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
    words_a = set(re.split(r"[\s\-_/]", a)) & VERSION_WORDS
    words_b = set(re.split(r"[\s\-_/]", b)) & VERSION_WORDS
    return words_a == words_b


def _typo_pair(a: str, b: str) -> bool:
    """True when words ``a`` and ``b`` differ by one typo, not by meaning.

    In hyphenated words the part that differs must itself be long enough: "gan-based"
    and "gnn-based" differ in an acronym, not by a typo.

    >>> _typo_pair("recieved", "received"), _typo_pair("gan-based", "gnn-based")
    (True, False)
    """
    parts_a, parts_b = a.split("-"), b.split("-")
    if len(parts_a) > 1 and len(parts_a) == len(parts_b):
        differing = [(x, y) for x, y in zip(parts_a, parts_b, strict=True) if x != y]
        return len(differing) == 1 and _typo_pair(*differing[0])
    if min(len(a), len(b)) < MIN_WORD_LENGTH or a[0] != b[0]:
        return False
    if OSA.distance(a, b) != 1:
        return False
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    if longer.startswith(shorter) and longer[-1] not in "sd":
        return False  # "score" / "scorer", "posterior" / "posteriori": other words
    return not any(longer == p + shorter for p in _NEGATING_PREFIXES)


#: suffixes that make an adjective or adverb of the same word ("convolution" ->
#: "convolutional", "exponential" -> "exponentially", "evolution" -> "evolutionary")
_WORD_FORM_SUFFIXES = ("al", "ly", "ary")
MIN_STEM_LENGTH = 6


def _word_form_pair(a: str, b: str) -> bool:
    """True when one word is the other plus an adjective/adverb suffix.

    >>> _word_form_pair("convolution", "convolutional"), _word_form_pair("descent", "ascent")
    (True, False)
    """
    shorter, longer = sorted((a, b), key=len)
    if len(shorter) < MIN_STEM_LENGTH or shorter in WORD_FORM_EXCEPTIONS:
        return False
    return any(longer == shorter + suffix for suffix in _WORD_FORM_SUFFIXES)


def _match(a: str, b: str) -> str | None:
    """Why keys ``a`` and ``b`` are near-duplicates ("fuzzy match 95"), or None."""
    words_a, words_b = a.split(" "), b.split(" ")
    if len(words_a) != len(words_b):
        return None
    differing = [(x, y) for x, y in zip(words_a, words_b, strict=True) if x != y]
    if not differing or len(differing) > 3:
        return None
    if all(_word_form_pair(x, y) for x, y in differing):
        why = "word-form variant"
    elif len(differing) == 1 and _typo_pair(*differing[0]):
        score = fuzz.ratio(a, b)
        if score < MIN_RATIO:
            return None
        why = f"fuzzy match {score:.0f}"
    else:
        return None
    return why if same_numbers_and_versions(a, b) else None


def near_duplicate_pairs(
    nodes: Iterable[Node], counts: Mapping[Node, int]
) -> list[tuple[Node, Node, str]]:
    """Pairs ``(joining, target, why)`` of near-duplicate (label, key) nodes.

    ``target`` is the more frequent of the two (ties: the alphabetically first key),
    so a typo joins the common spelling. One-word keys are names ("DesERT" is not
    "DESSERT") and are never matched.

    Only keys that could match are compared, so the work grows with the corpus, not
    with its square (at 100,000 papers, comparing every pair of same-initial keys
    took most of a build): a typo changes one word and keeps its first letter, so
    keys are compared within blocks of the same label, numbers and other words; a
    word-form variant adds a suffix to words, so keys are also compared within
    blocks of the same label, numbers and word stems.
    """
    blocks: dict[tuple, list[Node]] = defaultdict(list)
    for node in nodes:
        label, key = node
        words = key.split(" ")
        if len(words) < 2:
            continue
        # a match keeps its numbers ("model-17" is not "model-47"): block by them too
        numbers = tuple(_NUMBER.findall(key))
        for i, word in enumerate(words):  # a typo in word i
            block = ("typo", label, numbers, i, word[:1], *words[:i], *words[i + 1 :])
            blocks[block].append(node)
        for stems in _stem_choices(words):  # word-form variants of some words
            blocks[("form", label, numbers, *stems)].append(node)
    seen: set[tuple[Node, Node]] = set()
    pairs: list[tuple[Node, Node, str]] = []
    for block in blocks.values():
        if len(block) < 2:
            continue
        block.sort(key=lambda n: (len(n[1]), n[1]))
        for i, a in enumerate(block):
            for b in block[i + 1 :]:
                if a == b or (a, b) in seen:
                    continue
                seen.add((a, b))
                why = _match(a[1], b[1])
                if why is None:
                    continue
                target, joining = sorted((a, b), key=lambda n: (-counts.get(n, 0), n[1]))
                pairs.append((joining, target, why))
    return sorted(pairs, key=lambda p: (p[0][1], p[1][1]))


def _stem_choices(words: list[str]) -> list[tuple[str, ...]]:
    """Every way of reading the words with or without an adjective/adverb suffix."""
    for word in words:
        if word.endswith(_WORD_FORM_SUFFIXES):
            break
    else:  # most keys: one reading (a third of the time of the typo step)
        return [tuple(words)]
    choices: list[tuple[str, ...]] = [()]
    for word in words:
        options = [word]
        for suffix in _WORD_FORM_SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= MIN_STEM_LENGTH:
                options.append(word[: -len(suffix)])
        choices = [(*c, o) for c in choices for o in options]
    return choices
