"""Narrower kinds of a concept, read off the graph's ``IS_A`` edges."""

from __future__ import annotations

import networkx as nx

from ..schema import IS_A
from .base import check_graph, check_node, paper_count

__all__ = ["kinds_of"]


def kinds_of(graph: nx.DiGraph, concept: str) -> list[tuple[str, int]]:
    """Every narrower concept of ``concept`` (its ``IS_A`` descendants), with papers.

    "latent diffusion model" and "text-to-image diffusion model" for "diffusion
    model".

    Parameters
    ----------
    graph : networkx.DiGraph
    concept : str
        A concept node id.

    Returns
    -------
    list of (concept, papers)
        Most papers first.

    Examples
    --------
    >>> G = nx.DiGraph()
    >>> for c, n in [("Method:dm", 5), ("Method:ldm", 3), ("Method:sparse ldm", 1)]:
    ...     G.add_node(c, label="Method", paper_count=n)
    >>> G.add_edge("Method:ldm", "Method:dm", type="IS_A")
    >>> G.add_edge("Method:sparse ldm", "Method:ldm", type="IS_A")
    >>> kinds_of(G, "Method:dm")
    [('Method:ldm', 3), ('Method:sparse ldm', 1)]
    """
    check_graph(graph)
    check_node(graph, concept)
    narrower = nx.DiGraph((v, u) for u, v, kind in graph.edges(data="type") if kind == IS_A)
    kinds = nx.descendants(narrower, concept) if concept in narrower else set()
    rows = [(k, paper_count(graph, k)) for k in kinds]
    return sorted(rows, key=lambda r: (-r[1], r[0]))
