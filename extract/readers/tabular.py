"""Read CSV and TSV files with a header row.

Columns are matched to paper fields by :func:`~.fields.match_columns`; a note
says which were used. A row with the wrong number of fields, or with broken
quoting, is repaired around its link column when the header has one (see
:mod:`.csvrepair`), else skipped with a reason: it is never read into the
wrong fields silently. Record numbers count data rows (the header is row 0).
"""

from __future__ import annotations

import csv
import io
import sys
from collections.abc import Iterator

from ...errors import InputError
from ...records import SkippedRecord
from .csvrepair import link_column, repair_row
from .fields import FIELD_ALIASES, RawPaper, columns_note, match_columns, raw_paper

__all__ = ["read_csv", "read_tsv"]


def _raise_field_size_limit() -> None:
    # abstracts can be long; the csv module's default limit is 128 KiB per field
    limit = sys.maxsize
    while True:
        try:
            csv.field_size_limit(limit)
            return
        except OverflowError:
            limit //= 2


_raise_field_size_limit()


class _LineCapture:
    """An iterator of lines that remembers the raw text of the row being parsed."""

    def __init__(self, content: str) -> None:
        self._lines = io.StringIO(content, newline="")
        self._buffer: list[str] = []

    def __iter__(self) -> _LineCapture:
        return self

    def __next__(self) -> str:
        line = self._lines.readline()
        if not line:
            raise StopIteration
        self._buffer.append(line)
        return line

    def take(self) -> str:
        raw = "".join(self._buffer)
        self._buffer.clear()
        return raw


def read_csv(path: str, content: str, notes: list[str]) -> Iterator[RawPaper | SkippedRecord]:
    """Yield the data rows of a comma-separated file (or semicolon-separated, as some
    spreadsheets export it: the header line tells)."""
    header_line = content.split("\n", 1)[0]
    if header_line.count(";") > header_line.count(","):
        notes.append(f"{path}: the header is separated by ';', so the file is read that way")
        return _read_delimited(path, content, notes, ";")
    return _read_delimited(path, content, notes, ",")


def read_tsv(path: str, content: str, notes: list[str]) -> Iterator[RawPaper | SkippedRecord]:
    """Yield the data rows of a tab-separated file."""
    return _read_delimited(path, content, notes, "\t")


def _well_formed(raw: str, delimiter: str, width: int) -> bool:
    try:
        rows = list(csv.reader(io.StringIO(raw, newline=""), delimiter=delimiter, strict=True))
    except csv.Error:
        return False
    return len(rows) == 1 and len(rows[0]) == width


def _read_delimited(
    path: str, content: str, notes: list[str], delimiter: str
) -> Iterator[RawPaper | SkippedRecord]:
    lines = _LineCapture(content)
    reader = csv.reader(lines, delimiter=delimiter)
    header = next(reader, None)
    lines.take()
    if not header:
        raise InputError(
            f"{path}: the file is empty; expected a header row, then one paper per row"
        )
    header = [name.strip() for name in header]
    columns = match_columns(header)
    if "abstract" not in columns:
        raise InputError(
            f"{path}: no abstract column among {', '.join(header)}; "
            f"name it one of {', '.join(FIELD_ALIASES['abstract'])}"
        )
    notes.append(columns_note(path, columns))
    link = link_column(header)
    repaired = irregular = 0
    number = 0
    for row in reader:
        raw = lines.take()
        if not any(cell.strip() for cell in row):
            continue
        number += 1
        fields: list[str] | None = row
        if not _well_formed(raw, delimiter, len(header)):
            fixed = repair_row(raw, header, link, delimiter) if link is not None else None
            if fixed is not None:
                fields = fixed
                repaired += 1
            elif len(row) == len(header):
                irregular += 1  # stray quotes, but every field in its place
            else:
                yield SkippedRecord(
                    f"{path}#{number}",
                    f"{len(row)} fields where the header has {len(header)} (broken quoting?)",
                )
                continue
        yield raw_paper(path, number, dict(zip(header, fields, strict=True)), columns)
    if repaired:
        notes.append(
            f"{path}: {repaired} rows with broken quoting re-split around the "
            f"{header[link]!r} column"
        )
    if irregular:
        notes.append(
            f"{path}: {irregular} rows with irregular quoting read as the csv module split them"
        )
