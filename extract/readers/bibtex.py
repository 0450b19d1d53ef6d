"""Read BibTeX files with ``bibtexparser`` (v2).

Fields used: ``abstract``, ``title`` (braces stripped), ``year``,
``journal``/``booktitle`` as venue, ``author`` (``"A and B"``), ``keywords``,
``doi``; the entry key is the id when there is no DOI. Records are numbered
by entry, in file order, counting entries that failed to parse.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator

import bibtexparser
from bibtexparser.model import DuplicateBlockKeyBlock, Entry, ParsingFailedBlock

from ...records import SkippedRecord
from .fields import RawPaper, columns_note, match_columns, raw_paper
from .latex import clean_text

__all__ = ["read_bibtex"]

logger = logging.getLogger(__name__)


def read_bibtex(path: str, content: str, notes: list[str]) -> Iterator[RawPaper | SkippedRecord]:
    """Yield one record per BibTeX entry."""
    library = bibtexparser.parse_string(content)
    used: dict[str, str] = {}
    number = 0
    for block in library.blocks:
        if isinstance(block, DuplicateBlockKeyBlock):
            number += 1
            yield SkippedRecord(f"{path}#{number}", f"duplicate entry key {block.key!r}")
        elif isinstance(block, ParsingFailedBlock):
            number += 1
            yield SkippedRecord(f"{path}#{number}", _failure(block))
        elif isinstance(block, Entry):
            number += 1
            fields = {name: value.value for name, value in block.fields_dict.items()}
            columns = match_columns(fields)
            for paper_field, key in columns.items():
                used.setdefault(paper_field, key)
            paper = raw_paper(path, number, fields, columns)
            # BibTeX values are LaTeX: {Protected} words, {\"u} accents, $math$
            paper.title = _plain(paper.title)
            paper.venue = _plain(paper.venue)
            paper.authors = [name for name in map(_plain, paper.authors) if name]
            if not paper.id and not paper.doi:
                paper.id = block.key
            yield paper
    if used:
        notes.append(columns_note(path, used).replace("columns used", "fields used"))


def _plain(value: str | None) -> str | None:
    return clean_text(value)[0] or None if value else value


def _failure(block: ParsingFailedBlock) -> str:
    error = block.error
    why = getattr(error, "abort_reason", None) or str(error) or type(error).__name__
    key = re.match(r"\s*@\w+\s*[{(]\s*([^,\s]+)\s*,", block.raw or "")
    entry = f"entry {key.group(1)!r}" if key else "entry"
    return f"malformed BibTeX {entry} on line {block.start_line + 1} ({' '.join(why.split())})"
