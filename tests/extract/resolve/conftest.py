"""Small builders of resolution inputs, shared by the tests of the resolve stage.

The test modules import them (``from .conftest import paper``), as the browser tests do.
"""

from __future__ import annotations

from pathlib import Path

from paperkg.records import Mention, Paper, PaperMentions

ALIASES = Path(__file__).parents[2] / "fixtures" / "aliases"


def paper(paper_id: str, *mentions: tuple, acronyms: dict[str, str] | None = None):
    """A PaperMentions of ``(text, label)`` or ``(text, label, long_form)`` tuples."""
    return PaperMentions(
        Paper(id=paper_id, abstract="", text="", source=f"test#{paper_id}"),
        [
            Mention(m[0], m[1], 0, len(m[0]), "", long_form=m[2] if len(m) > 2 else None)
            for m in mentions
        ],
        acronyms or {},
    )


def same_concept(res, a: tuple[int, int], b: tuple[int, int]) -> bool:
    return res.concept_of[a[0]][a[1]] == res.concept_of[b[0]][b[1]]


def paper_with_text(paper_id: str, text: str, spans: list[tuple[str, str]], acronyms=None):
    """A PaperMentions whose mentions are found in ``text`` (first occurrence after the last)."""
    mentions, position = [], 0
    for surface, label in spans:
        start = text.index(surface, position)
        position = start + len(surface)
        mentions.append(Mention(surface, label, start, position, text))
    return PaperMentions(
        Paper(id=paper_id, abstract=text, text=text, source="t"), mentions, acronyms or {}
    )
