"""Read JSON (a list of records, or an object holding one) and JSON Lines.

Keys are matched to paper fields by :func:`~.fields.match_columns`, per
record, so records of one file may spell their keys differently. The note
for the file lists every key that was used.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ...errors import InputError
from ...records import SkippedRecord
from .fields import RawPaper, columns_note, match_columns, raw_paper

__all__ = ["read_json", "read_jsonl"]

#: Keys under which a JSON object may hold its list of records, tried in order.
LIST_KEYS = ("papers", "data", "records", "items", "results", "entries", "documents", "rows")


def read_json(path: str, content: str, notes: list[str]) -> Iterator[RawPaper | SkippedRecord]:
    """Yield the records of a JSON file (a list, or an object with a list of records)."""
    try:
        data = json.loads(content)
    except json.JSONDecodeError as e:
        raise InputError(
            f"{path}: invalid JSON ({e.msg} at line {e.lineno} column {e.colno}); "
            "fix the file, or save one record per line as .jsonl to skip only bad records"
        ) from e
    records = _record_list(path, data)
    yield from _read_records(path, enumerate(records, start=1), notes)


def read_jsonl(path: str, content: str, notes: list[str]) -> Iterator[RawPaper | SkippedRecord]:
    """Yield one record per non-blank line; record numbers are line numbers."""

    def parsed() -> Iterator[tuple[int, Any]]:
        for number, line in enumerate(content.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError as e:
                yield (
                    number,
                    SkippedRecord(
                        f"{path}#{number}", f"invalid JSON ({e.msg} at column {e.colno})"
                    ),
                )

    yield from _read_records(path, parsed(), notes)


def _record_list(path: str, data: Any) -> list[Any]:
    if isinstance(data, list):
        return data
    if isinstance(data, dict):
        for key in LIST_KEYS:
            for name, value in data.items():
                if name.casefold() == key and isinstance(value, list):
                    return value
        lists = [name for name, value in data.items() if isinstance(value, list)]
        if len(lists) == 1:
            return data[lists[0]]
        if match_columns(data).get("abstract"):
            return [data]  # a single record
    raise InputError(
        f"{path}: expected a list of records, or an object with a list under one of "
        f"{', '.join(LIST_KEYS)}; got {type(data).__name__}"
        + (f" with keys {', '.join(list(data)[:8])}" if isinstance(data, dict) else "")
    )


def _read_records(
    path: str, numbered: Iterator[tuple[int, Any]], notes: list[str]
) -> Iterator[RawPaper | SkippedRecord]:
    used: dict[str, str] = {}
    for number, record in numbered:
        if isinstance(record, SkippedRecord):
            yield record
            continue
        if not isinstance(record, dict):
            yield SkippedRecord(
                f"{path}#{number}", f"expected an object, got {type(record).__name__}"
            )
            continue
        columns = match_columns(record)
        for paper_field, key in columns.items():
            used.setdefault(paper_field, key)
        yield raw_paper(path, number, record, columns)
    if used:
        notes.append(columns_note(path, used).replace("columns used", "keys used"))
