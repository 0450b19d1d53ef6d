"""Name variants: one name written with a generic last word, in another word order
or in British spelling.

Each function maps a canonical key to a *variant key*; keys of one label that
share a variant key name one thing:

* :func:`without_generic_tail` -- "hashtag recommendation problem" and "hashtag
  recommendation", "Fragment-and-Compose paradigm" and "Fragment-and-Compose";
* :func:`of_phrase_reordered` -- "prediction of intelligibility" and
  "intelligibility prediction";
* :func:`american_spelling` -- "normalisation" and "normalization", "modelling"
  and "modeling";
* :func:`agent_forms` -- "parsing algorithm" and "parser", "classification stage"
  and "classifier" (what does a process, and the process with a generic head).

>>> without_generic_tail("information extraction technique", "METHOD")
('information extraction', 'technique')
>>> of_phrase_reordered("predictions of intelligibility")
'intelligibility prediction'
>>> american_spelling("batch normalisation")
'batch normalization'
>>> agent_forms("error correction mechanism")
['error corrector']
"""

from __future__ import annotations

import re

from .keys import singular
from .lexicon import NOT_AGENTS, NOT_OF_HEADS, PROCESS_HEADS, VARIANT_TAILS
from .memo import name_memo

__all__ = [
    "agent_forms",
    "american_spelling",
    "generic_head_kind",
    "modeling_form",
    "of_phrase_reordered",
    "without_generic_tail",
]


def without_generic_tail(key: str, label: str) -> tuple[str, str] | None:
    """``(stem, tail)`` when ``key`` ends with a generic word of its label, else None.

    Whether the stem is still a name is the caller's question: "information
    extraction" is, "language" (of "language model") is not.

    >>> without_generic_tail("language model", "METHOD")
    ('language', 'model')
    >>> without_generic_tail("dau measure", "METRIC")
    ('dau', 'measure')
    """
    stem, _, last = key.rpartition(" ")
    if not stem or singular(last) not in VARIANT_TAILS.get(label, ()):
        return None
    return stem, singular(last)


def of_phrase_reordered(key: str) -> str | None:
    """ "Y X" for a key "X of Y" (X one noun, Y one or two words), else None.

    >>> of_phrase_reordered("number of parameters") is None
    True
    >>> of_phrase_reordered("analysis of variance")
    'variance analysis'
    """
    head, sep, rest = key.partition(" of ")
    if not sep or " " in head or len(head) < 4 or head in NOT_OF_HEADS:
        return None
    words = rest.split(" ")
    if words[0] in {"the", "a", "an"}:
        words = words[1:]
    if not 1 <= len(words) <= 2 or not all(w.isalpha() for w in words):
        return None
    return " ".join([*words, singular(head)])


_BRITISH = [
    (re.compile(r"(?<=\w{3})is(?=(?:ation|ations|ing|ed|er|ers|es|e)\b)"), "iz"),
    (re.compile(r"(?<=\w{2})ell(?=(?:ing|ed|er|ers)\b)"), "el"),
    (re.compile(r"\b(behavi|neighb|col|fav|lab|harb|flav|hum|vig|hon|endeav)our"), r"\1or"),
    (re.compile(r"\b(cent|met|fib|theat)re\b"), r"\1er"),
    (re.compile(r"(?<=\w{3})ys(?=(?:e|ed|es|ing)\b)"), "yz"),
]


@name_memo
def american_spelling(key: str) -> str:
    """``key`` with British spellings made American (only to compare keys).

    >>> [american_spelling(k) for k in ["modelling", "labelled data", "colour", "analyse"]]
    ['modeling', 'labeled data', 'color', 'analyze']
    >>> american_spelling("noise")
    'noise'
    """
    for pattern, replacement in _BRITISH:
        key = pattern.sub(replacement, key)
    return key


#: (process noun ending, agent noun ending): parsing -> parser, estimation -> estimator
_AGENT_SUFFIXES = (
    ("ification", "ifier"),
    ("ition", "izer"),
    ("ation", "er"),
    ("ion", "or"),
    ("ing", "er"),
)


def agent_forms(key: str) -> list[str]:
    """Keys of the agent nouns that may name what does the process of a key
    "M process head" with a generic head ("parsing algorithm" -> "parser").

    Only regular endings are tried (-ing/-er, -ion/-or, -ation/-er,
    -ification/-ifier, -ition/-izer), so most candidates are not words; the
    caller keeps one only when a paper names it ("estimation stage" and
    "estimator").

    >>> agent_forms("parsing algorithm"), agent_forms("classification stage")
    (['parser'], ['classifier', 'classificer', 'classificator'])
    >>> agent_forms("robust estimation procedure")
    ['robust estimer', 'robust estimator']
    >>> agent_forms("parsing"), agent_forms("parsing methods")  # no head, a kind of method
    ([], [])
    >>> agent_forms("transformation module")  # never "transformer"
    ['transformator']
    """
    words = key.split(" ")
    if len(words) < 2 or singular(words[-1]) not in PROCESS_HEADS:
        return []
    *modifiers, process = words[:-1]
    found = []
    for ending, agent_ending in _AGENT_SUFFIXES:
        stem = process[: -len(ending)]
        if process.endswith(ending) and len(stem) >= 3 and stem.isalpha():
            agent = stem + agent_ending
            if agent not in NOT_AGENTS:
                found.append(" ".join([*modifiers, agent]))
    return found


def modeling_form(key: str) -> str | None:
    """ "M model" for a key "M modeling [head]" ("user modeling system" -> "user model").

    >>> modeling_form("user modeling"), modeling_form("user modelling component")
    ('user model', 'user model')
    >>> modeling_form("modeling") is None
    True
    """
    words = american_spelling(key).split(" ")
    if len(words) >= 3 and singular(words[-1]) in PROCESS_HEADS:
        words = words[:-1]
    if len(words) < 2 or words[-1] != "modeling":
        return None
    return " ".join([*words[:-1], "model"])


#: generic last words of a method name, by the kind of thing they name
_HEAD_KINDS = {
    "process": frozenset("method approach technique procedure algorithm".split()),
    "artifact": frozenset("model architecture network".split()),
}


def generic_head_kind(key: str, label: str) -> tuple[str, str] | None:
    """``(stem, kind)`` for a METHOD key of one word and a generic head: keys of one
    stem and kind ("boosting approach", "boosting method") name one thing in a
    paper; "model" and "method" are of two kinds ("statistical model" / "method").

    >>> generic_head_kind("boosting approaches", "METHOD")
    ('boosting', 'process')
    >>> generic_head_kind("statistical model", "METHOD")
    ('statistical', 'artifact')
    >>> generic_head_kind("spectral clustering algorithm", "METHOD") is None
    True
    >>> generic_head_kind("ranking problems", "TASK")  # and "ranking (task)"
    ('ranking', 'task')
    """
    if label not in ("METHOD", "TASK"):
        return None
    stem, _, last = key.partition(" ")
    if not stem or " " in last or not last:
        return None
    head = singular(last)
    if label == "TASK":  # "task" itself is always dropped from a TASK key
        return (stem, "task") if head in ("problem", "challenge") else None
    for kind, heads in _HEAD_KINDS.items():
        if head in heads:
            return stem, kind
    return None
