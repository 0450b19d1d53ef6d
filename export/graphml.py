"""GraphML for Gephi, yEd and Cytoscape.

GraphML holds only scalar attributes, so lists become ``"; "``-joined strings
(``aliases``, ``authors``, ``keywords``) and dicts become JSON strings; ``None``
values are left out.
"""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx

from ..atomic import atomic_open

LIST_SEPARATOR = "; "


def _scalar(value):
    if isinstance(value, (list, tuple, set)):
        return LIST_SEPARATOR.join(str(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return value


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
        out.add_node(node, **{k: _scalar(v) for k, v in attrs.items() if v is not None})
    for u, v, key, attrs in graph.edges(keys=True, data=True):
        out.add_edge(u, v, key=key, **{k: _scalar(x) for k, x in attrs.items() if x is not None})
    return out


def write_graphml(graph: nx.MultiDiGraph, path: str | Path) -> Path:
    """Write ``graph`` as GraphML (atomically)."""
    path = Path(path)
    with atomic_open(path, "wb") as f:
        nx.write_graphml(graphml_ready(graph), f, encoding="utf-8", prettyprint=True)
    return path
