"""Short names read as a longer name of their paper without a bracketed definition:
a coined name or acronym whose letters spell a name of its title ("GLOBER" for
"GLOBal Guided Video DecodER"), or that shares its first words and spells the rest
("Repulsive UDF" for "Repulsive Unsigned Distance Function").

:func:`spells_name` is the test; :func:`title_abbreviations` applies it to a paper's
title names; :mod:`~paperkg.extract.resolve.acronym_votes` uses both.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from ...records import PaperMentions
from ..names import is_coined_name
from ..put_forward import put_forward_windows
from .keys import GENERIC_TAILS, canonical_key, clean_surface, is_acronym
from .memo import name_memo

__all__ = ["letters_of", "shares_head_and_spells_rest", "spells_name", "title_abbreviations"]


#: letters a short name needs before it is read as abbreviating a title's name
_MIN_TITLE_SHORT = 3


def title_abbreviations(
    result: PaperMentions, known: Mapping[str, object] | None = None
) -> dict[str, str]:
    """Short names a paper never defines in brackets but that abbreviate a name its
    title gives: "GLOBER: … via GLOBal Guided Video DecodER", "NeuralGF: … Learning
    Neural Gradient Function", a title "Double Gumbel Q-Learning" and an abstract's
    "DoubleGum".

    The short name is an acronym or a coined name ("NeuralGF") of at least
    :data:`_MIN_TITLE_SHORT` letters, written in the title or put forward by the
    abstract ("we propose AGILE"); its letters spell, in order, exactly one
    longer mention of which one of the two is in the title. A name the paper
    merely uses ("we fine-tune LLaMA") is not read against its title.

    >>> from paperkg.records import Mention, Paper, PaperMentions
    >>> title = "Learning Neural Gradient Function"
    >>> text = "We propose NeuralGF for normals. NeuralGF works."
    >>> paper = Paper(id="p", abstract=text, text=text, source="x", title=title)
    >>> doc = paper.document
    >>> found = PaperMentions(paper, [
    ...     Mention("Neural Gradient Function", "METHOD", 9, 33, title),
    ...     Mention("NeuralGF", "METHOD", doc.index("NeuralGF"), doc.index("NeuralGF") + 8, "")])
    >>> title_abbreviations(found)
    {'NeuralGF': 'Neural Gradient Function'}
    """
    title_end = result.paper.title_end
    if not title_end:
        return {}
    known = known or {}

    document = result.paper.document
    windows = None
    longs = [
        (m.start, clean_surface(m.text), m.label)
        for m in result.mentions
        if (" " in m.text.strip() or "-" in m.text) and "(" not in m.text
    ]
    if not any(m.start < title_end for m in result.mentions):
        return {}  # nothing in the title to abbreviate, nor a short name there
    found: dict[str, str] = {}
    for mention in result.mentions:
        if " " in mention.text.strip() or not _name_shaped(mention.text):
            continue
        short = clean_surface(mention.text)
        letters = letters_of(short)
        if (
            short in known
            or short in found
            or sum(c.isalpha() for c in letters) < _MIN_TITLE_SHORT
            or not (is_acronym(short) or is_coined_name(short))
        ):
            continue
        short_in_title = mention.start < title_end
        named = _named_after_colon(short, mention, document, title_end, longs)
        if named is not None:
            found[short] = named
            continue
        if not short_in_title:
            if windows is None:
                windows = put_forward_windows(document, title_end)
            if not any(a <= mention.start < b for a, b in windows):
                continue
        candidates: dict[str, str] = {}  # one per concept key ("… Function", "… functions")
        for start, surface, label in longs:
            if (
                (short_in_title or start < title_end)
                and short.casefold() not in surface.casefold()
                and spells_name(letters, surface, label)
                and (key := canonical_key(surface, label))
            ):
                candidates.setdefault(key, surface)
        if len(candidates) == 1:
            found[short] = next(iter(candidates.values()))
    return found


def _named_after_colon(
    short: str, mention, document: str, title_end: int, longs: list[tuple[int, str, str]]
) -> str | None:
    """The name a title spells out after its short name and a colon ("GEQ: Gaussian
    Kernel Inspired Equilibrium Models", "ContinuAR: Continuous Autoregression for
    …"), when the mention right after the colon starts with the short name's first
    letter, has its label, and the words of its name start with most of the short
    name's parts (:func:`initials_agree`). Not "RegBN: Batch Normalization of …" nor
    "ViSt3D: Video Stylization with 3D CNN" (a Task): a title that says what a
    short name does or is for names something else."""
    if mention.start != 0:
        return None
    colon = _COLON_AFTER.match(document, mention.end, title_end)
    if colon is None:
        return None
    for start, surface, label in longs:
        if start == colon.end():
            agree = label == mention.label and initials_agree(short, surface)
            return surface if agree else None
    return None


_COLON_AFTER = re.compile(r"\s*:\s*(?:(?:an?|the)\s+)?", re.IGNORECASE)
#: the parts of a short name: "BayesTune" -> Bayes, Tune; "GEQ" -> G, E, Q
_PARTS = re.compile(r"[A-Z][a-z]*|[a-z]+")


def initials_agree(short: str, long: str) -> bool:
    """Whether ``long``'s first word starts as ``short`` does and at least two thirds of
    ``short``'s parts start, in order, a word of ``long``.

    >>> initials_agree("BayesTune", "Bayesian Sparse Deep Model Fine-tuning")
    True
    >>> initials_agree("ContinuAR", "Continuous Autoregression")
    True
    >>> initials_agree("RegBN", "Batch Normalization of Multimodal Data")
    False
    >>> initials_agree("NPCL", "Neural Processes")
    False
    """
    parts = _PARTS.findall(short)
    words = [w for w in re.split(r"[\s\-/]+", long) if w]
    if not parts or not words or words[0][:1].casefold() != parts[0][:1].casefold():
        return False
    matched, position = 0, 0
    for part in parts:
        for i in range(position, len(words)):
            if words[i][:1].casefold() == part[:1].casefold():
                matched, position = matched + 1, i + 1
                break
    return 3 * matched >= 2 * len(parts)


def _name_shaped(text: str) -> bool:
    """A quick test before the exact ones: two capitals at least ("LICO", "NeuralGF")."""
    capitals = 0
    for c in text:
        capitals += c.isupper()
        if capitals >= 2:
            return True
    return False


def shares_head_and_spells_rest(short: str, long: str, label: str) -> bool:
    """Whether a short name of several words is the long one's first words and an
    acronym of the rest: "Repulsive UDF" for "Repulsive Unsigned Distance Function".

    >>> shares_head_and_spells_rest(
    ...     "Repulsive UDF", "Repulsive Unsigned Distance Function", "METHOD")
    True
    >>> shares_head_and_spells_rest("deep RL", "deep reinforcement", "METHOD")
    False
    """
    *head, acronym = short.split()
    words = long.split()
    if not head or not is_acronym(acronym) or len(words) <= len(head) + 1:
        return False
    if [w.casefold() for w in words[: len(head)]] != [w.casefold() for w in head]:
        return False
    return spells_name(acronym, " ".join(words[len(head) :]), label)


def letters_of(short: str) -> str:
    """The letters of a short form: "S3D" -> "SD" (a tokenizer may split "3D" off)."""
    return "".join(c for c in short if not c.isdigit())


#: words a short name may skip in the name it abbreviates
_FILLER_WORDS = frozenset("of for and the with a an to in on via by from".split())


@name_memo
def spells_name(short: str, long: str, label: str) -> bool:
    """Whether ``short`` abbreviates ``long`` closely enough to be read as it without a
    bracketed definition: its letters in order, the first at the start, the last
    named word used, and its capitals at word starts or capitals of ``long`` (all of
    them for a coined name, most of them for an acronym).

    >>> spells_name("NeuralGF", "Neural Gradient Function", "METHOD")
    True
    >>> spells_name("AGILE", "Attention-Guided Incremental Learning", "METHOD")
    True
    >>> spells_name("GLOBER", "GLOBal Guided Video DecodER", "METHOD")
    True
    >>> spells_name("X-Prompt", "eXtensible Prompt", "METHOD")
    True
    >>> spells_name("SGD", "Single Index Models", "METHOD")  # capitals inside words
    False
    >>> spells_name("CoPriv", "cryptographically-secure privacy protection", "METHOD")
    False
    """
    chars = [c for c in short if c.isalpha()]
    if not chars:
        return False
    words = [(m.start(), m.group(0)) for m in re.finditer(r"[^\s\-/]+", long)]
    tails = GENERIC_TAILS.get(label, frozenset()) | _FILLER_WORDS
    named = [i for i, (_, w) in enumerate(words) if w.lower() not in tails]
    if not named:
        return False
    last_named = named[-1]
    starts = {start for start, _ in words}
    word_of = {}
    for index, (start, word) in enumerate(words):
        for k in range(start, start + len(word)):
            word_of[k] = index
    marked = [k for k, c in enumerate(chars) if k and c.isupper()]
    coined = any(c.islower() for c in chars)
    # capitals of the short form that may land inside a lower-case word
    allowed = 0 if coined else len(marked) // 2

    @functools.cache  # the same (k, position, …) is reached along many paths
    def match(k: int, position: int, loose: int, last_used: bool) -> bool:
        if k == len(chars):
            return last_used
        for p in range(position, len(long)):
            if long[p].casefold() != chars[k].casefold() or p not in word_of:
                continue
            if k == 0 and p != 0 and not (long[p].isupper() and word_of[p] == 0):
                continue  # "X-Prompt" for "eXtensible Prompt": a capital inside the first word
            strict = k in marked and not (p in starts or long[p].isupper())
            if strict and loose >= allowed:
                continue
            used = last_used or word_of[p] == last_named
            if match(k + 1, p + 1, loose + strict, used):
                return True
        return False

    return match(0, 0, 0, False)
