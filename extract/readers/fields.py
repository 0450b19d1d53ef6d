"""Match a record's keys or columns to paper fields, and parse their values.

Column and key names are matched case-insensitively (``Abstract``,
``paper_id``, ``Paper ID`` all work); the first alias in each list that a
file has wins.

>>> match_columns(["Paper ID", "Title", "Summary", "Keywords"])
{'id': 'Paper ID', 'title': 'Title', 'abstract': 'Summary', 'keywords': 'Keywords'}
>>> parse_year("2023-05-01")
2023
>>> split_authors("Smith, John and Doe, Jane")
['John Smith', 'Jane Doe']
>>> split_keywords("graph neural networks; link prediction")
['graph neural networks', 'link prediction']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "FIELD_ALIASES",
    "RawPaper",
    "columns_note",
    "match_columns",
    "parse_year",
    "raw_paper",
    "split_authors",
    "split_keywords",
]

#: Paper field -> accepted column/key names, most specific first (compared casefolded,
#: with spaces and hyphens read as underscores).
FIELD_ALIASES: dict[str, tuple[str, ...]] = {
    "id": ("id", "paper_id", "paperid", "openreview_id", "arxiv_id", "uid"),
    "doi": ("doi",),
    "title": ("title", "paper_title"),
    "abstract": ("abstract", "summary", "paper_abstract", "abstract_text"),
    "year": ("year", "publication_year", "pub_year", "date", "publication_date", "published"),
    "venue": ("venue", "conference", "journal", "booktitle", "journal_ref"),
    "authors": ("authors", "author", "author_names", "creators"),
    "keywords": ("keywords", "keyword", "author_keywords", "tags", "subjects"),
}

_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d|21\d\d)(?!\d)")


@dataclass
class RawPaper:
    """One record as a reader found it, before cleaning and ids.

    ``number`` is the 1-based record number in its file; ``notes`` are
    one-line remarks about this record (e.g. a year that was dropped).
    """

    path: str
    number: int
    abstract: str | None
    id: str | None = None
    doi: str | None = None
    title: str | None = None
    year: int | None = None
    venue: str | None = None
    authors: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def source(self) -> str:
        return f"{self.path}#{self.number}"


def _key(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", str(name).strip().casefold())


def match_columns(names: Iterable[str]) -> dict[str, str]:
    """Map each paper field to the column (original spelling) that holds it."""
    by_key: dict[str, str] = {}
    for name in names:
        by_key.setdefault(_key(name), name)
    matched = {}
    for paper_field, aliases in FIELD_ALIASES.items():
        for alias in aliases:
            if alias in by_key:
                matched[paper_field] = by_key[alias]
                break
    return matched


def columns_note(path: str, columns: Mapping[str, str]) -> str:
    """``"data.csv: columns used: id=paper_id, title=title, ..."``."""
    ordered = [f for f in FIELD_ALIASES if f in columns]
    used = ", ".join(f"{f}={columns[f]}" for f in ordered)
    return f"{path}: columns used: {used}"


def parse_year(value: Any) -> int | None:
    """A year from ``2023``, ``"2023"``, ``2023.0`` or a date such as ``"2023-05-01"``.

    Returns None when ``value`` holds no plausible year (1800-2199).
    """
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return int(value) if value == int(value) and 1800 <= value < 2200 else None
    match = _YEAR.search(str(value))
    return int(match.group(1)) if match else None


def split_authors(value: Any) -> list[str]:
    """Authors from a list, or a string separated by ``;``, `` and `` or ``,``.

    BibTeX's ``"Last, First and Last, First"`` becomes ``["First Last", ...]``.
    """
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [_author_name(a) for a in value if _author_name(a)]
    text = " ".join(str(value).split())
    if ";" in text:
        parts = text.split(";")
    elif re.search(r"\s+and\s+", text):
        parts = re.split(r"\s+and\s+", text)
        if all(p.count(",") == 1 for p in parts):
            parts = [" ".join(reversed([s.strip() for s in p.split(",")])) for p in parts]
        else:
            parts = [q for p in parts for q in p.split(",")]
    else:
        parts = text.split(",")
    return [p.strip() for p in parts if p.strip()]


def _author_name(author: Any) -> str:
    if isinstance(author, Mapping):
        for key in ("name", "full_name", "fullname"):
            if author.get(key):
                return str(author[key]).strip()
        first, last = (
            author.get("first") or author.get("given"),
            author.get("last") or author.get("family"),
        )
        return " ".join(str(p) for p in (first, last) if p).strip()
    return str(author).strip()


def split_keywords(value: Any) -> list[str]:
    """Keywords from a list, or a string separated by ``,`` or ``;``."""
    if value is None:
        return []
    items = value if isinstance(value, (list, tuple)) else re.split(r"[;,]", str(value))
    return [" ".join(str(k).split()) for k in items if str(k).strip()]


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        value = " ".join(str(v) for v in value)
    text = str(value).strip()
    return text or None


def raw_paper(
    path: str, number: int, row: Mapping[str, Any], columns: Mapping[str, str]
) -> RawPaper:
    """Build a :class:`RawPaper` from a row, using ``columns`` from :func:`match_columns`."""

    def get(paper_field: str) -> Any:
        column = columns.get(paper_field)
        return row.get(column) if column is not None else None

    paper = RawPaper(
        path=path,
        number=number,
        abstract=_text(get("abstract")),
        id=_text(get("id")),
        doi=_text(get("doi")),
        title=_text(get("title")),
        venue=_text(get("venue")),
        authors=split_authors(get("authors")),
        keywords=split_keywords(get("keywords")),
    )
    year = get("year")
    if _text(year) is not None:
        paper.year = parse_year(year)
        if paper.year is None:
            paper.notes.append(
                f"{paper.source}: year {str(year)[:40]!r} is not a year; year dropped"
            )
    return paper
