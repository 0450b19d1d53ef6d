"""Repair CSV rows whose quoting is broken, using a link column as an anchor.

Crawled CSVs often leave commas in titles unquoted or double quotes inside
abstracts undoubled (see ``../shared/data/neurips2023/SOURCE.md``). Such a row
splits into the wrong number of fields. When the header has a link column
(``link``, ``url``, ``pdf_url`` ...) whose values are URLs, the URL is an
anchor that cannot be mistaken: the fields before it and after it can be
re-split around it.

* before the anchor: leading fields are read one by one; the field next to
  the anchor takes the rest (a title with commas);
* after the anchor: middle fields are read one by one (a quoted field ends at
  the first ``",``); the last field takes the rest, its outer quotes stripped
  (an abstract with stray quotes).

>>> header = ["paper_id", "title", "link", "keywords", "abstract"]
>>> line = 'X1,Shape, bias, and robustness,https://o.net/f?id=X1,"a,b","It is "good", really."'
>>> repair_row(line, header, link_column=2)
['X1', 'Shape, bias, and robustness', 'https://o.net/f?id=X1', 'a,b', 'It is "good", really.']
"""

from __future__ import annotations

import re

__all__ = ["link_column", "repair_row"]

_LINK_NAMES = re.compile(
    r"^(link|url|href|.*_url|url_.*|.*_link|link_.*|forum|pdf)$", re.IGNORECASE
)
_ANCHOR = re.compile(r'(?:^|(?<=,))"?(https?://[^\s,"]+)"?(?=,|$)')


def link_column(header: list[str]) -> int | None:
    """The index of the header's link/url column, or None."""
    for index, name in enumerate(header):
        if _LINK_NAMES.match(name.strip()):
            return index
    return None


def repair_row(
    line: str, header: list[str], link_column: int, delimiter: str = ","
) -> list[str] | None:
    """Re-split ``line`` around the URL in its link column; None when that is impossible."""
    line = line.rstrip("\r\n")
    width = len(header)
    n_before, n_after = link_column, width - link_column - 1
    for anchor in _ANCHOR.finditer(line):
        before = line[: anchor.start()]
        after = line[anchor.end() :]
        if n_before:
            if not before.endswith(delimiter):
                continue
            before = before[: -len(delimiter)]
        if n_after:
            if not after.startswith(delimiter):
                continue
            after = after[len(delimiter) :]
        before_fields = _split_fields(before, n_before, delimiter)
        after_fields = _split_fields(after, n_after, delimiter)
        if before_fields is None or after_fields is None:
            continue
        return [*before_fields, anchor.group(1), *after_fields]
    return None


def _split_fields(text: str, count: int, delimiter: str) -> list[str] | None:
    """Split ``text`` into ``count`` fields; the last one takes whatever is left."""
    if count == 0:
        return [] if not text else None
    fields = []
    rest = text
    for _ in range(count - 1):
        if rest.startswith('"'):
            end = rest.find('"' + delimiter, 1)
            if end < 0:
                return None
            fields.append(rest[1:end].replace('""', '"'))
            rest = rest[end + 1 + len(delimiter) :]
        else:
            end = rest.find(delimiter)
            if end < 0:
                return None
            fields.append(rest[:end])
            rest = rest[end + len(delimiter) :]
    fields.append(_unquote(rest))
    return fields


def _unquote(field: str) -> str:
    if len(field) >= 2 and field.startswith('"') and field.endswith('"'):
        return field[1:-1].replace('""', '"')
    return field
