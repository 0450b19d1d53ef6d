"""Check a graph.json before it is loaded, so a damaged or hand-edited file gets one clear line.

``paperkg analyze``, ``view`` and ``push`` read graph.json files that may have
been edited, truncated or written by another tool. Loading such a file used to
fail deep inside an analysis with a Python traceback ("invalid literal for
int()"); :func:`check_graph_json` finds the first record that does not have the
shape of :mod:`paperkg.graph.schema` and says which one, and how.

Examples
--------
>>> check_graph_json({"nodes": [{"id": "paper:1", "label": "Paper", "year": "soon"}],
...                   "edges": []}, "graph.json")
Traceback (most recent call last):
...
paperkg.errors.GraphError: graph.json: node #1 ('paper:1'): year is 'soon', not a whole number \
or null; rebuild the file with `paperkg build`
"""

from __future__ import annotations

from numbers import Real

import networkx as nx

from ..errors import GraphError

__all__ = ["check_graph", "check_graph_json"]


def check_graph(graph) -> None:
    """Refuse anything but the DiGraph paperkg builds, saying how to get one (the
    analytics and every writer call it first)."""
    if isinstance(graph, nx.MultiDiGraph):  # paperkg's graph until graph.json format 2
        raise GraphError(
            f"expected the networkx.DiGraph paperkg builds, got a {type(graph).__name__}; "
            "convert it with paperkg.graph.one_edge_per_pair(graph), "
            "or load graph.json with paperkg.load_graph, which does"
        )
    if not isinstance(graph, nx.DiGraph):
        raise GraphError(
            f"expected the networkx.DiGraph paperkg builds, got {type(graph).__name__}; "
            "load one with paperkg.load_graph('out/graph.json')"
        )


_HINT = "rebuild the file with `paperkg build`"

#: attribute -> (accepts, what it must be)
_NODE_TYPES = {
    "label": (lambda v: isinstance(v, str), "text"),
    "name": (lambda v: v is None or isinstance(v, str), "text"),
    "title": (lambda v: v is None or isinstance(v, str), "text"),
    "abstract": (lambda v: v is None or isinstance(v, str), "text"),
    "year": (lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)),
             "a whole number or null"),
    "paper_count": (lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
                    "a count"),
    "mention_count": (lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
                      "a count"),
    "aliases": (lambda v: isinstance(v, list) and all(isinstance(a, str) for a in v),
                "a list of text"),
    "authors": (lambda v: isinstance(v, list) and all(isinstance(a, str) for a in v),
                "a list of text"),
    "keywords": (lambda v: isinstance(v, list) and all(isinstance(a, str) for a in v),
                 "a list of text"),
}  # fmt: skip

_EDGE_TYPES = {
    "weight": (lambda v: isinstance(v, Real) and not isinstance(v, bool), "a number"),
    "count": (lambda v: isinstance(v, Real) and not isinstance(v, bool), "a number"),
}


def check_graph_json(data, source: str) -> None:
    """Raise :class:`~paperkg.errors.GraphError` at the first record of ``data`` (node-link
    JSON as ``paperkg build`` writes it) that a paperkg graph cannot have.

    Parameters
    ----------
    data : object
        What ``json.load`` returned.
    source : str
        The file, for the message.
    """
    if not isinstance(data, dict) or "nodes" not in data or "edges" not in data:
        raise GraphError(f"{source}: not node-link JSON with 'nodes' and 'edges'; {_HINT}")
    nodes, edges = data["nodes"], data["edges"]
    for what, value in (("nodes", nodes), ("edges", edges)):
        if not isinstance(value, list):
            raise GraphError(f"{source}: '{what}' is {type(value).__name__}, not a list; {_HINT}")
    ids = set()
    for i, node in enumerate(nodes, start=1):
        if not isinstance(node, dict) or "id" not in node:
            raise GraphError(f"{source}: node #{i} is not an object with an 'id'; {_HINT}")
        if not isinstance(node["id"], str):
            raise GraphError(
                f"{source}: node #{i} has id {node['id']!r}, not text "
                f"(paperkg ids look like 'paper:<id>' or 'Method:<name>'); {_HINT}"
            )
        if "label" not in node:
            raise GraphError(f"{source}: node #{i} ({node['id']!r}) has no label; {_HINT}")
        _check_attributes(node, _NODE_TYPES, f"{source}: node #{i} ({node['id']!r})")
        ids.add(node["id"])
    for i, edge in enumerate(edges, start=1):
        if not isinstance(edge, dict) or "source" not in edge or "target" not in edge:
            raise GraphError(
                f"{source}: edge #{i} is not an object with source and target; {_HINT}"
            )
        for end in ("source", "target"):
            if not isinstance(edge[end], str) or edge[end] not in ids:
                raise GraphError(
                    f"{source}: edge #{i} has {end} {edge[end]!r}, which is not a node; {_HINT}"
                )
        _check_attributes(edge, _EDGE_TYPES, f"{source}: edge #{i} ({edge['source']!r} -> "
                                             f"{edge['target']!r})")  # fmt: skip


def _check_attributes(record: dict, types: dict, where: str) -> None:
    for attribute, (accepts, must_be) in types.items():
        if attribute in record and not accepts(record[attribute]):
            value = repr(record[attribute])
            value = value if len(value) <= 40 else value[:39] + "…"
            raise GraphError(f"{where}: {attribute} is {value}, not {must_be}; {_HINT}")
