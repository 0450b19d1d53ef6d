"""A paperkg graph as rows for Neo4j: one place for both ways of loading it.

:func:`graph_rows` checks every label and relationship pattern and converts
property values (:func:`neo4j_value`) once; the driver loader
(:mod:`paperkg.export.neo4j_load`) sends the rows as Cypher parameters, the bulk
bundle (:mod:`paperkg.export.neo4j_bundle`) writes them as CSV. This module does
not import the Neo4j driver, so an offline build never loads it.

Property values: lists stay Neo4j lists, dicts such as ``alias_counts`` and
``merge_reasons`` become JSON strings; ``None``, empty strings and empty lists
are dropped, so the CSV bundle stores the same.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import ExportError
from ..graph.schema import NODE_LABELS
from . import cypher

if TYPE_CHECKING:
    import networkx as nx

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "GraphRows",
    "graph_rows",
    "iter_node_rows",
    "iter_rel_rows",
    "neo4j_value",
]

logger = logging.getLogger(__name__)

#: rows per Cypher transaction when pushing (the CLI's --batch-size default)
DEFAULT_BATCH_SIZE = 5000

#: graph attributes that become the Neo4j label / relationship type rather than a property
NODE_META = ("label",)
EDGE_META = ("type",)


@dataclass
class GraphRows:
    """A graph as rows ready for Cypher parameters, grouped by label / relationship pattern.

    ``nodes[label]`` is a list of ``{"id": node id, "props": {...}}``;
    ``rels[(type, start label, end label)]`` a list of ``{"src", "dst", "props"}``.
    """

    nodes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    rels: dict[tuple[str, str, str], list[dict[str, Any]]] = field(default_factory=dict)

    def node_counts(self) -> dict[str, int]:
        return {label: len(rows) for label, rows in self.nodes.items()}

    def rel_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for (rel, _, _), rows in self.rels.items():
            counts[rel] = counts.get(rel, 0) + len(rows)
        return counts


#: a dict as sorted JSON, with one encoder (``json.dumps`` with options makes one a call,
#: and every evidence edge carries a dict)
_dict_json = json.JSONEncoder(sort_keys=True, ensure_ascii=False).encode


def neo4j_value(value: Any) -> Any:
    """Convert one attribute value into something Neo4j stores, or ``None`` to drop it.

    >>> neo4j_value(["GNN", "graph neural network"])
    ['GNN', 'graph neural network']
    >>> neo4j_value({"b": 1, "a": 2})
    '{"a": 2, "b": 1}'
    >>> neo4j_value([]) is None and neo4j_value("") is None
    True
    """
    if isinstance(value, str):
        return value or None
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, dict):
        return _dict_json(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [x for x in value if x is not None and x != ""]
        if isinstance(value, (set, frozenset)):
            items.sort(key=str)
        if not items:
            return None
        for kind in (str, bool, int, float):
            if all(isinstance(x, kind) for x in items):
                return items
        if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in items):
            return [float(x) for x in items]
        # Neo4j lists are homogeneous: keep mixed or nested lists readable as JSON.
        return json.dumps(items, ensure_ascii=False, default=str)
    return str(value)


def _props(data: dict[str, Any], skip: tuple[str, ...]) -> dict[str, Any]:
    props = {}
    for key, value in data.items():
        if key in skip or key == "id":
            continue
        converted = neo4j_value(value)
        if converted is not None:
            props[key] = converted
    return props


def graph_rows(graph: nx.Graph) -> GraphRows:
    """Turn a paperkg graph into :class:`GraphRows`, checking labels and edge types.

    Raises :class:`~paperkg.errors.ExportError` on a node whose ``label`` is not
    one of ``NODE_LABELS`` or an edge whose (type, start label, end label) is not
    one paperkg writes.
    """
    rows = GraphRows()
    for label, row in iter_node_rows(graph):
        rows.nodes.setdefault(label, []).append(row)
    for pattern, row in iter_rel_rows(graph):
        rows.rels.setdefault(pattern, []).append(row)
    return rows


def iter_node_rows(graph: nx.Graph) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(label, {"id", "props"})`` for every node, in graph order, made one at a time.

    What :func:`graph_rows` holds all at once, for a writer that streams (the bulk
    bundle of a corpus of 100,000 papers would otherwise keep a second copy of
    every property in memory). Raises :class:`~paperkg.errors.ExportError` as
    :func:`graph_rows` does.
    """
    for node, data in graph.nodes(data=True):
        yield node_label(node, data), {"id": str(node), "props": _props(data, NODE_META)}


def node_label(node: Any, data: dict[str, Any]) -> str:
    """The label of ``node`` in Neo4j; raises :class:`~paperkg.errors.ExportError` when it
    has none paperkg writes."""
    label = data.get("label")
    if label not in NODE_LABELS:
        raise ExportError(
            f"node {node!r} has label {label!r}; expected one of {', '.join(NODE_LABELS)}: "
            "build the graph with paperkg or fix its 'label' attributes"
        )
    if "id" in data and data["id"] != node:
        logger.warning("node %r: attribute 'id' ignored, Neo4j's id is the node id", node)
    return label


def iter_rel_rows(
    graph: nx.Graph,
) -> Iterator[tuple[tuple[str, str, str], dict[str, Any]]]:
    """``((type, start label, end label), {"src", "dst", "props"})`` for every edge, in
    graph order, made one at a time (see :func:`iter_node_rows`)."""
    nodes = graph.nodes
    for src, dst, data in graph.edges(data=True):
        pattern = rel_pattern(nodes, src, dst, data)
        yield pattern, {"src": str(src), "dst": str(dst), "props": _props(data, EDGE_META)}


def rel_pattern(nodes, src: Any, dst: Any, data: dict[str, Any]) -> tuple[str, str, str]:
    """``(type, start label, end label)`` of an edge, its type the ``type`` attribute;
    raises :class:`~paperkg.errors.ExportError` for one paperkg does not write to Neo4j."""
    rel = data.get("type")
    pattern = (rel, nodes[src].get("label"), nodes[dst].get("label"))
    if pattern not in cypher.MERGE_RELS:
        raise ExportError(
            f"edge {src!r} -> {dst!r} is a {rel!r} from {pattern[1]} to {pattern[2]}, "
            "which paperkg does not write to Neo4j: see paperkg.graph.schema for the edge types"
        )
    return pattern
