"""Data as JSON that is safe inside an HTML ``<script>`` element, written in pieces.

Both views (:mod:`.html`, :mod:`.html_map`) carry their graph as JSON inside a
``<script type="application/json">``. Every string in it came from an abstract
or a user's file, so a title such as ``</script><img src=x onerror=…>`` must
stay text: ``<``, ``>`` and ``&`` are escaped (neither ``</script>`` nor
``<!--`` can appear) and so are the JavaScript line separators; ``JSON.parse``
reads the same data back. The map of a large corpus is tens of MB of JSON, so
it is written piece by piece into the page template.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from ..errors import ExportError

__all__ = ["script_json_pieces", "with_script_json"]

#: What :func:`script_json_pieces` escapes, and how.
_SCRIPT_ESCAPES = (
    ("&", "\\u0026"),
    ("<", "\\u003c"),
    (">", "\\u003e"),
    ("\u2028", "\\u2028"),
    ("\u2029", "\\u2029"),
)


def script_json_pieces(data: object, *, items_per_piece: int = 512) -> Iterator[str]:
    """``data`` as JSON that is safe inside an HTML ``<script>`` element, in pieces.

    ``<``, ``>`` and ``&`` become ``\\u003c``, ``\\u003e`` and ``\\u0026`` (so
    neither ``</script>`` nor ``<!--`` can appear), and the JavaScript line
    separators U+2028/U+2029 are escaped too; ``JSON.parse`` reads the same data.
    A dict with string keys is written key by key and a list ``items_per_piece``
    items at a time, so no piece is larger than a few items' JSON. The JSON of the
    map of 100,000 papers is tens of MB, and as one string it was held three times
    over (``json.dumps``, the escapes, ``Markup``) on top of the graph, at the
    build's peak memory.

    >>> "".join(script_json_pieces({"a": [1, "<b>"], "c": None}, items_per_piece=1))
    '{"a": [1, "\\\\u003cb\\\\u003e"], "c": null}'
    """
    if isinstance(data, dict) and data and all(isinstance(key, str) for key in data):
        yield "{"
        for i, (key, value) in enumerate(data.items()):
            yield ("" if i == 0 else ", ") + _script_safe(_dumps(key)) + ": "
            yield from script_json_pieces(value, items_per_piece=items_per_piece)
        yield "}"
    elif isinstance(data, list | tuple) and data:
        yield "["
        for start in range(0, len(data), items_per_piece):
            part = ", ".join(_dumps(item) for item in data[start : start + items_per_piece])
            yield (", " if start else "") + _script_safe(part)
        yield "]"
    else:
        yield _script_safe(_dumps(data))


def with_script_json(pieces: Iterable[str], mark: str, data: object) -> Iterator[str]:
    """The page ``pieces`` (a template's ``generate``), with the one ``mark`` in them
    replaced by the pieces of :func:`script_json_pieces`.

    A page with no mark, or more than one, fails when it ends (a write of it is then
    abandoned, see :func:`paperkg.export.offline_page.write_page`): the data would be
    missing or twice.
    """
    found = 0
    for piece in pieces:
        parts = piece.split(mark)
        found += len(parts) - 1
        if found > 1:
            raise ExportError("the page template has its data mark more than once")
        yield parts[0]
        if len(parts) == 2:
            yield from script_json_pieces(data)
            yield parts[1]
    if found == 0:
        raise ExportError("the page template has no data mark: its data would be missing")


def _dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, allow_nan=False)


def _script_safe(text: str) -> str:
    for raw, escaped in _SCRIPT_ESCAPES:
        text = text.replace(raw, escaped)
    return text
