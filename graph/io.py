"""Save a graph as node-link JSON and load it back to an equal graph.

The file records its format in ``graph["paperkg_format"]``:

* **2** (written now): a ``networkx.DiGraph``, ``"multigraph": false``, one
  edge per pair of nodes, its type the ``type`` attribute;
* **1** (paperkg before format 2): a ``MultiDiGraph`` whose edge key was the
  edge type. :func:`load_graph` still reads it, as the same DiGraph
  (:func:`one_edge_per_pair`).
"""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx

from ..atomic import atomic_open
from ..errors import GraphError
from .validate import check_graph, check_graph_json

FORMAT_VERSION = 2
_ENCODER = json.JSONEncoder(ensure_ascii=False)


def graph_to_json(graph: nx.DiGraph) -> dict:
    """The node-link form of ``graph`` that :func:`graph_from_json` reads back."""
    check_graph(graph)
    data = nx.node_link_data(graph, edges="edges")
    data["graph"] = {**data.get("graph", {}), "paperkg_format": FORMAT_VERSION}
    return data


def graph_from_json(data: dict) -> nx.DiGraph:
    """Inverse of :func:`graph_to_json`; a format-1 graph (a keyed multigraph) comes back
    as the DiGraph of :func:`one_edge_per_pair`."""
    head = data.get("graph", {})
    if not isinstance(head, dict):
        raise GraphError(
            f"graph.json: 'graph' should be an object of graph attributes, got {head!r}; "
            "rebuild the file with `paperkg build`"
        )
    version = head.get("paperkg_format", 1)
    if version not in (1, FORMAT_VERSION):
        raise GraphError(
            f"graph.json format {version!r}: this paperkg reads formats 1 and "
            f"{FORMAT_VERSION}; upgrade paperkg or rebuild the file with `paperkg build`"
        )
    multigraph = bool(data.get("multigraph", version == 1))
    graph = nx.node_link_graph(data, directed=True, multigraph=multigraph, edges="edges")
    if not multigraph and graph.number_of_edges() != len(data["edges"]):
        raise GraphError(
            f"graph.json lists {len(data['edges'])} edges but only "
            f"{graph.number_of_edges()} distinct pairs of nodes: paperkg never writes two "
            "edges for one pair; rebuild the file with `paperkg build`"
        )
    graph.graph.pop("paperkg_format", None)
    return one_edge_per_pair(graph) if multigraph else graph


def one_edge_per_pair(graph: nx.MultiDiGraph) -> nx.DiGraph:
    """The DiGraph of a format-1 paperkg graph: each edge keeps its attributes in order,
    and its key becomes its ``type`` where it has none.

    Raises :class:`~paperkg.errors.GraphError` for a pair of nodes with two edges,
    which paperkg never built (see :func:`~paperkg.graph.build_knowledge_graph`).

    >>> old = nx.MultiDiGraph()
    >>> old.add_edge("paper:1", "Task:qa", key="ADDRESSES", weight=1)
    'ADDRESSES'
    >>> list(one_edge_per_pair(old).edges(data=True))
    [('paper:1', 'Task:qa', {'weight': 1, 'type': 'ADDRESSES'})]
    """
    out = nx.DiGraph()
    out.graph.update(graph.graph)
    out.add_nodes_from(graph.nodes(data=True))
    for u, v, key, attrs in graph.edges(keys=True, data=True):
        if out.has_edge(u, v):
            raise GraphError(
                f"two edges {u!r} -> {v!r} ({out.edges[u, v]['type']}, {key}): a paperkg "
                "graph has one edge per pair of nodes; rebuild it with `paperkg build`"
            )
        out.add_edge(u, v, **attrs)
        out.edges[u, v].setdefault("type", key)
    return out


def save_graph(graph: nx.DiGraph, path: str | Path) -> Path:
    """Write ``graph`` as ``graph.json`` (node-link JSON), atomically.

    The same JSON as ``json.dump(graph_to_json(graph))``, written one node or
    edge per line: each record goes through the C encoder (an indented dump
    runs the pure-Python one, 4x slower on a corpus graph), the file stays
    readable with ``grep`` and ``head``, and no second copy of the graph is
    built in memory.

    >>> import tempfile, pathlib
    >>> g = nx.DiGraph(); g.add_edge("paper:1", "Task:qa", type="ADDRESSES")
    >>> path = save_graph(g, pathlib.Path(tempfile.mkdtemp()) / "graph.json")
    >>> print(path.read_text())
    {"directed": true, "multigraph": false, "graph": {"paperkg_format": 2},
     "nodes": [
      {"id": "paper:1"},
      {"id": "Task:qa"}
     ],
     "edges": [
      {"type": "ADDRESSES", "source": "paper:1", "target": "Task:qa"}
     ]}
    <BLANKLINE>
    """
    check_graph(graph)
    path = Path(path)
    dumps = _ENCODER.encode  # one encoder: json.dumps(..., ensure_ascii=False) makes one a call

    nodes = ({**attrs, "id": node} for node, attrs in graph.nodes(data=True))
    edges = ({**attrs, "source": u, "target": v} for u, v, attrs in graph.edges(data=True))
    head = {"paperkg_format": FORMAT_VERSION}
    with atomic_open(path) as f:
        f.write(
            f'{{"directed": {dumps(graph.is_directed())}, "multigraph": '
            f'{dumps(graph.is_multigraph())}, "graph": {dumps({**graph.graph, **head})},\n'
        )
        for name, records in (("nodes", nodes), ("edges", edges)):
            f.write(f' "{name}": [')
            for i, record in enumerate(records):
                f.write((",\n  " if i else "\n  ") + dumps(record))
            f.write("\n ]" + (",\n" if name == "nodes" else "}\n"))
    return path


def load_graph(path: str | Path) -> nx.DiGraph:
    """Load a graph written by :func:`save_graph` (or ``paperkg build``), of format 2 or 1.

    ``path`` may be the JSON file or the build's output folder.
    """
    path = Path(path)
    if path.is_dir():
        path = path / "graph.json"
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError as e:
        raise GraphError(f"{path}: no such file; run `paperkg build … -o DIR` first") from e
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise GraphError(f"{path}: not a paperkg graph.json ({e})") from e
    except IsADirectoryError as e:
        raise GraphError(f"{path}: a folder, not a graph.json") from e
    check_graph_json(data, str(path))
    try:
        return graph_from_json(data)
    except GraphError as e:
        raise GraphError(f"{path}: {e}") from e
