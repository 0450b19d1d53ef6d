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


def _id(node):
    return xml_text(node) if isinstance(node, str) else node


def graphml_ready(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy of ``graph`` whose attributes GraphML can store.

    >>> G = nx.MultiDiGraph()
    >>> G.add_node("Method:gnn", label="Method", aliases=["GNN", "GNNs"], year=None)
    >>> graphml_ready(G).nodes["Method:gnn"]
    {'label': 'Method', 'aliases': 'GNN; GNNs'}
    """
    out = nx.MultiDiGraph()
    out.graph.update({k: _scalar(v) for k, v in graph.graph.items() if v is not None})
    for node, attrs in graph.nodes(data=True):
        out.add_node(_id(node), **{k: _scalar(v) for k, v in attrs.items() if v is not None})
    for u, v, key, attrs in graph.edges(keys=True, data=True):
        data = {k: _scalar(x) for k, x in attrs.items() if x is not None}
        out.add_edge(_id(u), _id(v), key=_id(key), **data)
    return out


def write_graphml(graph: nx.MultiDiGraph, path: str | Path) -> Path:
    """Write ``graph`` as GraphML (atomically)."""
    path = Path(path)
    with atomic_open(path, "wb") as f:
        nx.write_graphml(graphml_ready(graph), f, encoding="utf-8", prettyprint=True)
    return path
