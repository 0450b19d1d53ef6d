"""GraphML for Gephi, yEd and Cytoscape.

GraphML holds only scalar attributes, so lists become ``"; "``-joined strings
(``aliases``, ``authors``, ``keywords``) and dicts become JSON strings; ``None``
values are left out.

XML 1.0 forbids most control characters and lone surrogates, which real exports
carry (a U+0002 in a conference's abstracts makes libxml2, and so igraph and
Gephi, refuse the whole file). Every string, ids included, has them replaced by
U+FFFD, so the text stays visible where something was and the file opens.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import networkx as nx

from ..atomic import atomic_open
from ..graph.validate import check_graph

LIST_SEPARATOR = "; "

#: characters XML 1.0 does not allow (control characters, lone surrogates, U+FFFE/F)
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    r"""``text`` with every character XML forbids replaced by U+FFFD.

    >>> xml_text("a\x02b\ud800c") == "a\ufffdb\ufffdc"
    True
    """
    return _NOT_XML.sub("\ufffd", text)


def _scalar(value):
    if isinstance(value, (list, tuple, set)):
        return xml_text(LIST_SEPARATOR.join(str(v) for v in value))
    if isinstance(value, dict):
        return xml_text(json.dumps(value, ensure_ascii=False, sort_keys=True))
    if isinstance(value, str):
        return xml_text(value)
    return value


_GRAPHML_OPEN = (
    "<?xml version='1.0' encoding='utf-8'?>\n"
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
    'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n'
)


#: a character :func:`_escape` changes (one negated class: a regex alternation
#: would be slower than the replacements it saves); most names have none
_NEEDS_ESCAPE = re.compile(
    "[^\u0020\u0021\u0023-\u0025\u0027-\u003b\u003d\u003f-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)


def _escape(text: str, *, attribute: bool = False) -> str:
    if not _NEEDS_ESCAPE.search(text):
        return text
    text = xml_text(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if attribute:  # kept as they are when read back, not normalised to spaces
        text = text.replace('"', "&quot;").replace("\n", "&#10;").replace("\r", "&#13;")
        text = text.replace("\t", "&#9;")
    return text


def _xml_type(values: set[type]) -> str:
    """The GraphML type of an attribute from the Python types of its values."""
    if values == {bool}:
        return "boolean"
    if values == {int}:
        return "long"
    if values and values <= {int, float}:
        return "double"
    return "string"


#: the values GraphML gets as text (see :func:`_scalar`)
_CONTAINERS = (list, tuple, set, dict)


def _keys(attr_dicts, first: int) -> dict[str, tuple[str, str]]:
    """``{attribute: (key id, GraphML type)}`` of one domain (graph, node or edge)."""
    seen: dict[str, set[type]] = {}
    for attrs in attr_dicts:
        for name, value in attrs.items():
            kind = type(value)
            if kind is str or kind is int or kind is float or kind is bool:
                pass  # most values: no isinstance needed
            elif value is None:
                continue
            elif isinstance(value, _CONTAINERS):
                kind = str  # written as text (_scalar)
            kinds = seen.get(name)
            if kinds is None:
                kinds = seen[name] = set()
            kinds.add(kind)
    return {
        name: (f"d{first + i}", _xml_type(kinds)) for i, (name, kinds) in enumerate(seen.items())
    }


def _value(value, xml_type: str) -> str:
    if xml_type == "boolean":
        return "true" if value else "false"
    if xml_type in ("long", "double"):
        return repr(float(value) if xml_type == "double" else value)
    return _escape(_scalar(value) if not isinstance(value, str) else value)


def _data(attrs: dict, keys: dict[str, tuple[str, str]], indent: str) -> str:
    parts = []
    for name, value in attrs.items():
        if value is None:
            continue
        key_id, xml_type = keys[name]
        if type(value) is str and xml_type == "string":  # most values: _value inlined
            text = _escape(value) if _NEEDS_ESCAPE.search(value) else value
        else:
            text = _value(value, xml_type)
        parts.append(f'{indent}<data key="{key_id}">{text}</data>\n')
    return "".join(parts)


def write_graphml(graph: nx.DiGraph, path: str | Path) -> Path:
    """Write ``graph`` as GraphML (atomically), streaming: memory stays that of the graph.

    ``networkx.write_graphml`` builds the whole XML tree first (over 1 GB for
    10,000 papers); this writes one element at a time, in the same layout, and
    reads back with :func:`networkx.read_graphml` as the same graph. An edge has
    no ``id``: a paperkg graph has one edge per pair, its type the ``type`` attribute.
    """
    check_graph(graph)
    path = Path(path)
    graph_keys = _keys([graph.graph], 0)
    node_keys = _keys((a for _, a in graph.nodes(data=True)), len(graph_keys))
    edge_keys = _keys((a for *_, a in graph.edges(data=True)), len(graph_keys) + len(node_keys))
    with atomic_open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(_GRAPHML_OPEN)
        for domain, keys in (("graph", graph_keys), ("node", node_keys), ("edge", edge_keys)):
            for name, (key_id, xml_type) in keys.items():
                f.write(
                    f'  <key id="{key_id}" for="{domain}" '
                    f'attr.name={_quoted(name)} attr.type="{xml_type}" />\n'
                )
        f.write('  <graph edgedefault="directed">\n')
        f.write(_data(graph.graph, graph_keys, "    "))
        for node, attrs in graph.nodes(data=True):
            f.write(f"    <node id={_quoted(str(node))}>\n")
            f.write(_data(attrs, node_keys, "      "))
            f.write("    </node>\n")
        for u, v, attrs in graph.edges(data=True):
            f.write(f"    <edge source={_quoted(str(u))} target={_quoted(str(v))}>\n")
            f.write(_data(attrs, edge_keys, "      "))
            f.write("    </edge>\n")
        f.write("  </graph>\n</graphml>\n")
    return path


def _quoted(text: str) -> str:
    return f'"{_escape(text, attribute=True)}"'
