"""Save a graph as node-link JSON and load it back to an equal graph."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx

from ..atomic import atomic_open
from ..errors import GraphError
from .validate import check_graph_json

FORMAT_VERSION = 1


def graph_to_json(graph: nx.MultiDiGraph) -> dict:
    """The node-link form of ``graph`` that :func:`graph_from_json` reads back."""
    data = nx.node_link_data(graph, edges="edges")
    data["graph"] = {**data.get("graph", {}), "paperkg_format": FORMAT_VERSION}
    return data


def graph_from_json(data: dict) -> nx.MultiDiGraph:
    """Inverse of :func:`graph_to_json`."""
    graph = nx.node_link_graph(data, directed=True, multigraph=True, edges="edges")
    graph.graph.pop("paperkg_format", None)
    return graph


def save_graph(graph: nx.MultiDiGraph, path: str | Path) -> Path:
    """Write ``graph`` as ``graph.json`` (node-link JSON), atomically."""
    path = Path(path)
    with atomic_open(path) as f:
        json.dump(graph_to_json(graph), f, ensure_ascii=False, indent=1)
    return path


def load_graph(path: str | Path) -> nx.MultiDiGraph:
    """Load a graph written by :func:`save_graph` (or ``paperkg build``).

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
    return graph_from_json(data)
