"""Read plain-text files: abstracts separated by blank lines.

A leading paragraph that is a heading (``"ICLR 2025 论文列表"``) is not a
paper; when it names a venue and a year, every paper of the file gets them.
Records are numbered by abstract, so the first abstract is ``#1`` whether or
not a heading precedes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...records import SkippedRecord
from .fields import RawPaper
from .header import looks_like_heading, venue_and_year

__all__ = ["read_text"]

_BLANK_LINES = re.compile(r"\n[ \t\f\v]*\n")


def read_text(path: str, content: str, notes: list[str]) -> Iterator[RawPaper | SkippedRecord]:
    """Yield one :class:`RawPaper` per paragraph of ``content``."""
    paragraphs = [" ".join(p.split()) for p in _BLANK_LINES.split(content.replace("\r\n", "\n"))]
    paragraphs = [p for p in paragraphs if p]
    venue = year = None
    if paragraphs and looks_like_heading(paragraphs[0]):
        heading = paragraphs.pop(0)
        venue, year = venue_and_year(heading)
        if venue and year:
            notes.append(
                f"{path}: heading {heading!r} is not a paper; "
                f"every paper of this file gets venue {venue} and year {year}"
            )
        else:
            venue = year = None
            notes.append(f"{path}: heading {heading!r} is not a paper")
    for number, paragraph in enumerate(paragraphs, start=1):
        yield RawPaper(path=path, number=number, abstract=paragraph, venue=venue, year=year)
