"""Acronym definitions: which long form a short form stands for, in a paper and a corpus.

A paper that writes "graph neural network (GNN)" defines GNN for itself; across a
corpus a bare "GNN" may only be read as the long form most papers agree on.

>>> from paperkg.records import Mention, Paper, PaperMentions
>>> text = "We compare ULMFit (Universal Language Model Fine-tuning) with ELMo."
>>> paper = Paper(id="p", abstract=text, text=text, source="x")
>>> found = PaperMentions(paper, [Mention("ULMFit", "METHOD", 11, 17, text),
...                               Mention("Universal Language Model Fine-tuning", "METHOD", 19, 55, text)])
>>> paper_definitions(found)
{'ULMFit': 'Universal Language Model Fine-tuning'}
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

from ..records import PaperMentions
from .keys import clean_surface, is_acronym, parenthetical_definition

__all__ = ["ACRONYM_MAJORITY", "long_form_of", "majority_long_form", "paper_definitions"]

#: share of a bare acronym's corpus definitions its majority long form must hold
ACRONYM_MAJORITY = 0.75

LongForm = TypeVar("LongForm", bound=Hashable)


def majority_long_form(votes: Mapping[LongForm, int]) -> tuple[LongForm, int, int] | None:
    """``(long form, its votes, all votes)`` when one long form holds a clear majority
    (at least :data:`ACRONYM_MAJORITY` of the papers defining the acronym), else None."""
    total = sum(votes.values())
    if not total:
        return None
    best = max(votes, key=votes.__getitem__)
    return (best, votes[best], total) if votes[best] / total >= ACRONYM_MAJORITY else None


def paper_definitions(result: PaperMentions) -> dict[str, str]:
    """Short form -> long form defined in one paper.

    Four sources: the extractor's ``acronyms``, a mention's ``long_form``, a
    mention that holds its own definition ("convolutional neural networks (CNNs)",
    "KDS (Knowledge Delivery System)"), and an acronym mention followed by a
    long-form mention in parentheses ("ULMFit (Universal Language Model
    Fine-tuning)"). When a mention starting with the short form's first letter
    ends right before the definition's "(SHORT)", its span is the long form: the
    NER's boundaries ("fully connected feed-forward network (FFN)") beat the
    acronym matcher's ("feed-forward network").
    """
    defined = dict(result.acronyms)
    for mention in result.mentions:
        if mention.long_form and mention.text not in defined:
            defined[mention.text] = mention.long_form
        inner = parenthetical_definition(mention.text)
        if inner is not None and inner[0] not in defined:
            defined[inner[0]] = inner[1]
    text = result.paper.text
    if text:
        starts = {m.start: m.text for m in result.mentions if m.start < len(text)}
        for mention in result.mentions:
            if mention.text in defined or not is_acronym(mention.text):
                continue
            opening = _OPENING.match(text, mention.end)
            long = starts.get(opening.end()) if opening else None
            if (
                long
                and " " in long
                and _CLOSING.match(text, opening.end() + len(long))
                and _letters_in_order(mention.text, long)
            ):
                defined[mention.text] = long
    if text and defined:
        ends = {m.end: m.text for m in result.mentions if m.end <= len(text)}
        opened: dict[str, list[int]] = defaultdict(list)  # "(SHORT)" -> where "(" is
        for match in _IN_PARENS.finditer(text):
            opened[match.group(1)].append(match.start())
        for short in list(defined):
            for before in opened.get(short, ()):
                while before > 0 and text[before - 1] == " ":
                    before -= 1
                long = ends.get(before)
                if (
                    long
                    and long != short
                    and _same_start(long, short)
                    and _overlaps(long, defined[short])
                ):
                    defined[short] = long
                    break
    return defined


_OPENING = re.compile(r"\s*\(\s*")
_CLOSING = re.compile(r"\s*\)")


def _letters_in_order(short: str, long: str) -> bool:
    """Schwartz-Hearst: the short form's letters appear in order in the long form,
    the first one starting a word.

    >>> _letters_in_order("ULMFit", "Universal Language Model Fine-tuning")
    True
    >>> _letters_in_order("TD", "Data Augmentation")
    False
    """
    chars = [c.lower() for c in short if c.isalnum()]
    words = long.lower()
    if not chars or not _same_start(long, short):
        return False
    position = 0
    for c in chars:
        position = words.find(c, position)
        if position < 0:
            return False
        position += 1
    return True


_IN_PARENS = re.compile(r"\(\s*([^()]{1,30}?)\s*\)")


def _same_start(long: str, short: str) -> bool:
    """True when ``long`` starts with the first letter of ``short`` (Schwartz-Hearst)."""
    first_long = next((c for c in long if c.isalnum()), "")
    first_short = next((c for c in short if c.isalnum()), "")
    return first_long.lower() == first_short.lower() != ""


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
