"""What every analysis reads off a paperkg graph: its papers, its concepts, who mentions what.

The analyses answer questions about papers and concepts, so they read the
paper → concept edges (:data:`~paperkg.graph.schema.PAPER_EDGE_TYPES`) rather
than the ``CO_OCCURS_WITH`` edges: those are thinned by the build's
``min_cooccurrence`` and skip a concept's own broader concept.
"""

from __future__ import annotations

import networkx as nx

from ...errors import GraphError
from ..schema import PAPER, PAPER_EDGE_TYPES
from ..validate import check_graph


def check_node(graph: nx.DiGraph, node: str) -> None:
    """A clear error for a node id that is not there, with the shape ids have."""
    if node not in graph:
        raise GraphError(
            f"no node {node!r} in the graph; paper ids look like 'paper:<id>', "
            "concept ids like 'Method:graph neural network'"
        )


def is_concept(graph: nx.DiGraph, node: str) -> bool:
    return graph.nodes[node].get("label", PAPER) != PAPER


def papers(graph: nx.DiGraph) -> list[str]:
    """Every Paper node, in graph order."""
    return [n for n, d in graph.nodes(data=True) if d.get("label") == PAPER]


def paper_concepts(graph: nx.DiGraph, paper: str) -> set[str]:
    """The concepts ``paper`` proposes or uses.

    Examples
    --------
    >>> G = nx.DiGraph()
    >>> G.add_node("paper:1", label="Paper"); G.add_node("Task:qa", label="Task")
    >>> G.add_edge("paper:1", "Task:qa", type="ADDRESSES")
    >>> paper_concepts(G, "paper:1")
    {'Task:qa'}
    """
    check_graph(graph)
    return {v for _, v, kind in graph.out_edges(paper, data="type") if kind in PAPER_EDGE_TYPES}


def concept_papers(graph: nx.DiGraph) -> dict[str, set[str]]:
    """``{concept: papers that propose or use it}``, for every concept with a paper."""
    out: dict[str, set[str]] = {}
    for u, v, kind in graph.edges(data="type"):
        if kind in PAPER_EDGE_TYPES:
            out.setdefault(v, set()).add(u)
    return out


def display_name(graph: nx.DiGraph, node: str) -> str:
    """What a person reads for ``node``: its name, else its id."""
    return str(graph.nodes[node].get("name") or node)


def paper_count(graph: nx.DiGraph, node: str) -> int:
    """Papers that mention ``node``: its ``paper_count``, else counted from its paper edges
    (a graph made by hand or by another tool may not carry the attribute)."""
    count = graph.nodes[node].get("paper_count")
    if count is None:
        return sum(
            1 for _, _, kind in graph.in_edges(node, data="type") if kind in PAPER_EDGE_TYPES
        )
    return int(count)
