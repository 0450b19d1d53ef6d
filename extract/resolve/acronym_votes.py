"""Acronym definitions: which long form a short form stands for, in a paper and a corpus.

A paper that writes "graph neural network (GNN)" defines GNN for itself; across a
corpus a bare "GNN" may only be read as the long form most papers agree on.

>>> from paperkg.records import Mention, Paper, PaperMentions
>>> text = "We compare ULMFit (Universal Language Model Fine-tuning) with ELMo."
>>> paper = Paper(id="p", abstract=text, text=text, source="x")
>>> found = PaperMentions(paper, [Mention("ULMFit", "METHOD", 11, 17, text),
...                               Mention("Universal Language Model Fine-tuning", "METHOD", 19, 55, text)])
>>> paper_long_forms(found)
{'ULMFit': ['Universal Language Model Fine-tuning']}
>>> majority_long_form({"knowledge distillation": 4, "kernel density": 1})
('knowledge distillation', 4, 5)
>>> majority_long_form({"knowledge distillation": 1, "kernel density": 1}) is None
True
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Hashable, Mapping
from typing import TypeVar

from ...records import Mention, PaperMentions
from ..acronym_match import letters_in_order, same_start
from ..names import is_coined_name
from .keys import (
    GENERIC_TAILS,
    appended_acronym,
    clean_surface,
    is_acronym,
    parenthetical_definition,
    singular,
)
from .lexicon import LOWERCASE_WORDS
from .memo import name_memo
from .short_names import letters_of, shares_head_and_spells_rest, spells_name, title_abbreviations

__all__ = [
    "ACRONYM_MAJORITY",
    "agreed_long_form",
    "expand_acronyms",
    "long_form_of",
    "majority_long_form",
    "initials_long_forms",
    "paper_long_forms",
    "word_initials",
]

#: share of a bare acronym's corpus definitions its majority long form must hold
ACRONYM_MAJORITY = 0.75

LongForm = TypeVar("LongForm", bound=Hashable)
Node = tuple[str, str]  # (label, surface)


def majority_long_form(votes: Mapping[LongForm, int]) -> tuple[LongForm, int, int] | None:
    """``(long form, its votes, all votes)`` when one long form holds a clear majority
    (at least :data:`ACRONYM_MAJORITY` of the papers defining the acronym), else None."""
    total = sum(votes.values())
    if not total:
        return None
    best = max(votes, key=votes.__getitem__)
    return (best, votes[best], total) if votes[best] / total >= ACRONYM_MAJORITY else None


def agreed_long_form(short: str, votes: Mapping[LongForm, int]) -> tuple[LongForm, int, int] | None:
    """The long form a corpus agrees on for an acronym used where it is not defined:
    a clear majority (:func:`majority_long_form`) and, for an acronym of two letters,
    at least two papers defining it so. Two letters have many readings ("BO":
    Bayesian optimization, bi-level optimization; "PQ", "SR"), so one paper's
    definition says little of what another paper means.

    >>> agreed_long_form("BO", {"bi-level optimization": 1}) is None
    True
    >>> agreed_long_form("DQN", {"deep Q-network": 1})
    ('deep Q-network', 1, 1)
    """
    majority = majority_long_form(votes)
    singular_form = short[:-1] if short.endswith("s") else short
    if majority is not None and sum(c.isalpha() for c in singular_form) <= 2 and majority[2] < 2:
        return None
    return majority


def paper_long_forms(result: PaperMentions) -> dict[str, list[str]]:
    """Short form -> every long form one paper defines it as, its main definition first.

    Five sources: the extractor's ``acronyms``, a mention's ``long_form``, a
    mention that holds its own definition ("convolutional neural networks (CNNs)",
    "KDS (Knowledge Delivery System)"), an acronym mention followed by a
    long-form mention in parentheses ("ULMFit (Universal Language Model
    Fine-tuning)"), and a mention followed by a same-label acronym mention in
    parentheses that the matcher missed ("Pseudo-3 D networks ( P 3 D )",
    "fully connected (fc)"). When a mention starting with the short form's first
    letter ends right before the definition's "(SHORT)", its span is the long
    form: the NER's boundaries ("fully connected feed-forward network (FFN)") beat
    the acronym matcher's ("feed-forward network"). A paper that defines one
    short form at two places with two long forms ("separated convolutional network
    (S3D)", "Separated 3D (S3D)") gives both; they name one thing.
    """
    defined = {clean_surface(short): long for short, long in result.acronyms.items()}
    for mention in result.mentions:
        short = clean_surface(mention.text)
        if mention.long_form and short not in defined:
            defined[short] = mention.long_form
        inner = parenthetical_definition(mention.text) or appended_acronym(mention.text)
        if inner is not None and inner[0] not in defined:
            defined[inner[0]] = inner[1]
    text = result.paper.document
    if not text:
        return {short: [long] for short, long in defined.items()}
    mentions = [m for m in result.mentions if m.end <= len(text)]
    starts = {m.start: m for m in mentions}
    ends = {m.end: m for m in mentions}
    for mention in mentions:
        short = clean_surface(mention.text)
        if short not in defined:
            long_text = _definition_beside(text, mention, short, starts, ends)
            if long_text is not None:
                defined[short] = long_text
    forms = {short: [long] for short, long in defined.items()}
    # every "(SHORT)" of the text: the mention right before it may be a long form
    for match in _IN_PARENS.finditer(text):
        short = clean_surface(match.group(1))
        if short not in forms:
            continue
        before = match.start()
        while before > 0 and text[before - 1] == " ":
            before -= 1
        long = ends.get(before)
        if long is None or long.text == match.group(1) or not same_start(long.text, short):
            continue
        first = forms[short][0]
        if len(forms[short]) == 1 and _overlaps(long.text, first) and long.text != first:
            forms[short] = [long.text]  # the NER's boundaries beat the matcher's
        elif long.text not in forms[short] and letters_in_order(letters_of(short), long.text):
            forms[short].append(long.text)
    for short, long in title_abbreviations(result, forms).items():
        forms[short] = [long]
    return forms


def _definition_beside(
    text: str, mention: Mention, short: str, starts: dict[int, Mention], ends: dict[int, Mention]
) -> str | None:
    """The long form a mention's brackets give it, where the acronym matcher found none:
    "SHORT (long form)", "long form (SHORT)", "Long Name (Long SN)"."""
    if " " in short:  # "Repulsive Unsigned Distance Function (Repulsive UDF)"
        before = _preceding_mention(text, mention, ends)
        if before is not None and _CLOSING.match(text, mention.end):
            if shares_head_and_spells_rest(short, clean_surface(before.text), before.label):
                return before.text
        return None
    # "SHORT (long form)"
    opening = _OPENING.match(text, mention.end)
    long = starts.get(opening.end()) if opening else None
    if (
        long
        and " " in long.text
        and _CLOSING.match(text, long.end)
        and (is_acronym(short) or is_coined_name(short))
        and (
            letters_in_order(letters_of(short), long.text)
            or spells_name(short, long.text, long.label)
        )
    ):
        return long.text
    # "long form (SHORT)", a definition the acronym matcher missed
    before = _preceding_mention(text, mention, ends)
    # (two labels for one thing are the label vote's to settle, when the short form
    # spells the long one closely: "Distribution-Agnostic … Discovery (DA-GCD)")
    if (
        before is not None
        and _CLOSING.match(text, mention.end)
        and (
            (before.label == mention.label and _defines(short, before.text))
            or (
                (is_acronym(short) or is_coined_name(short))
                and spells_name(short, before.text, before.label)
            )
        )
    ):
        return before.text
    return None


def _preceding_mention(text: str, mention: Mention, ends: dict[int, Mention]) -> Mention | None:
    """The mention right before ``mention``'s opening bracket: "long form (SHORT)"."""
    position = mention.start
    while position > 0 and text[position - 1] == " ":
        position -= 1
    if position == 0 or text[position - 1] != "(":
        return None
    position -= 1
    while position > 0 and text[position - 1] == " ":
        position -= 1
    return ends.get(position)


def _defines(short: str, long: str) -> bool:
    """True when ``long`` is a plausible long form of ``short`` seen as "long (short)":
    an acronym whose letters (digits aside) appear in order, or a lowercase
    abbreviation made of exactly the initials of the long form's words.

    >>> _defines("P3D", "Pseudo-3D networks"), _defines("fc", "fully connected")
    (True, True)
    >>> _defines("fc", "feature computation layer"), _defines("at", "adversarial training")
    (False, False)
    """
    if " " not in long.strip() and "-" not in long:
        return False
    if is_acronym(short):
        return letters_in_order(letters_of(short), long)
    return (
        2 <= len(short) <= 5
        and short.isalpha()
        and short.islower()
        and short not in LOWERCASE_WORDS
        and short == "".join(w[0] for w in re.split(r"[\s-]+", long.lower()) if w)
    )


_OPENING = re.compile(r"\s*\(\s*")
_CLOSING = re.compile(r"\s*\)")


_IN_PARENS = re.compile(r"\(\s*([^()]{1,30}?)\s*\)")


def _overlaps(a: str, b: str) -> bool:
    """True when one form contains the other, ignoring case ("person re-identification")."""
    a, b = clean_surface(a).casefold(), clean_surface(b).casefold()
    return bool(a and b) and (a in b or b in a)


def long_form_of(defined: dict[str, str], text: str) -> str | None:
    """The long form a paper defines for ``text``, also across a plural "s".

    >>> long_form_of({"GNN": "graph neural network"}, "GNNs")
    'graph neural network'
    >>> long_form_of({"LLMs": "large language models"}, "LLM")
    'large language models'
    """
    if not defined:
        return None
    text = clean_surface(text)
    for form in (text, text[:-1] if text.endswith("s") else None, text + "s"):
        if form and form in defined:
            return defined[form]
    return None


def expand_acronyms(defined: dict[str, str], text: str) -> tuple[str, list[str]] | None:
    """``text`` with the acronyms a paper defines spelled out, and those acronyms;
    None when ``text`` is one word or holds no defined acronym.

    A name that uses an acronym of its paper ("WSD models", "linear FKT",
    "CCR formalism") names what its spelled-out form names. A long form used
    before another word loses its plural ("LLMs" -> "large language model agents").

    >>> expand_acronyms({"WSD": "word sense disambiguation"}, "dedicated WSD models")
    ('dedicated word sense disambiguation models', ['WSD'])
    >>> expand_acronyms({"LLMs": "large language models"}, "LLM agents")
    ('large language model agents', ['LLM'])
    >>> expand_acronyms({"CCRs": "Category Cooccurrence Restrictions"}, "CCR formalism")
    ('Category Cooccurrence Restriction formalism', ['CCR'])
    >>> expand_acronyms({"GAT": "Graph Attention Network"}, "GAT networks")
    ('Graph Attention networks', ['GAT'])
    >>> expand_acronyms({"WSD": "word sense disambiguation"}, "WSD") is None
    True
    """
    if not defined:
        return None
    cleaned = clean_surface(text)
    words = cleaned.split(" ")
    if len(words) < 2 or "(" in cleaned or "[" in cleaned:
        return None  # a name holding its own definition: "KDS (Knowledge Delivery System)"
    found: list[str] = []
    for i, word in enumerate(words):
        if not is_acronym(word):
            continue
        long = long_form_of(defined, word)
        spelled = long is not None and (" " in long.strip() or "-" in long)  # "Follow-the-…"
        if not spelled or long.casefold() in cleaned.casefold():
            continue  # "MORphological PArser MORPA" spells its acronym out already
        found.append(word)
        if i < len(words) - 1 and singular(words[i + 1].lower()) == singular(
            long.rpartition(" ")[2].lower()
        ):
            long = long.rpartition(" ")[0]  # "GAT network": "Graph Attention Network"
        elif i < len(words) - 1:
            head, _, last = long.rpartition(" ")
            single = singular(last.lower())
            if single != last.lower():
                last = last[: len(single)] if last.lower().startswith(single) else single
                long = f"{head} {last}"
        words[i] = long
    return (" ".join(words), found) if found else None


def initials_long_forms(result: PaperMentions, defined: Mapping[str, str]) -> dict[Node, str]:
    """(label, acronym) -> long form, for bare acronyms a paper never defines but spells
    out: the acronym's letters are the initials of exactly one other mention of the
    same label in the paper ("GN" and "Guided Network", "C3D" and "convolutional 3D
    network"; a generic last word such as "network" may be left out).

    >>> from paperkg.records import Mention, Paper, PaperMentions
    >>> found = PaperMentions(Paper(id="p", abstract="", text="", source="x"), [
    ...     Mention("Guided Network", "METHOD", 0, 0, ""), Mention("GN", "METHOD", 0, 0, ""),
    ...     Mention("LR", "METHOD", 0, 0, ""), Mention("logistic regression", "METHOD", 0, 0, ""),
    ...     Mention("linear regression", "METHOD", 0, 0, "")])
    >>> initials_long_forms(found, {})
    {('METHOD', 'GN'): 'Guided Network'}
    """
    shorts: set[Node] = set()
    for mention in result.mentions:
        surface = clean_surface(mention.text)
        if mention.long_form is None and is_acronym(surface):
            if long_form_of(defined, surface) is None:
                shorts.add((mention.label, surface))
    if not shorts:
        return {}
    labels = {label for label, _ in shorts}
    by_initials: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
    for mention in result.mentions:
        surface = clean_surface(mention.text)
        if mention.label not in labels or (" " not in surface and "-" not in surface):
            continue
        if is_acronym(surface):
            continue
        key = _singular_key(surface.casefold())
        for initials in word_initials(surface, mention.label):
            by_initials[(mention.label, initials)].setdefault(key, surface)
    found: dict[Node, str] = {}
    for label, short in shorts:
        letters = short[:-1] if short.endswith("s") and short[:-1].isupper() else short
        letters = "".join(c for c in letters.lower() if c.isalnum())
        candidates = by_initials.get((label, letters), {})
        if len(letters) >= 2 and len(candidates) == 1:
            found[(label, short)] = next(iter(candidates.values()))
    return found


@name_memo
def word_initials(surface: str, label: str) -> tuple[str, ...]:
    """The initials of a name's words (a word with digits counts whole: "3D"), also
    without a generic last word: "inflated 3D network" -> ["i3dn", "i3d"]."""
    words = [w for w in re.split(r"[\s\-/]+", surface.lower()) if w]
    if len(words) < 2 or not all(w[0].isalnum() for w in words):
        return ()
    parts = [
        "".join(c for c in w if c.isalnum()) if any(c.isdigit() for c in w) else w[0] for w in words
    ]
    found = ["".join(parts)]
    tails = GENERIC_TAILS.get(label, frozenset())
    if len(words) > 2 and singular(words[-1]) in tails:
        found.append("".join(parts[:-1]))
    return tuple(found)


@name_memo
def _singular_key(key: str) -> str:
    head, _, last = key.rpartition(" ")
    return f"{head} {singular(last)}".strip()
