"""One concept's neighbourhood: the concept, its papers, and their other concepts.

The map shows a field from above; the neighbourhood is what to draw when a user
wants one concept's papers and what else they use (``paperkg view --around``).

Examples
--------
>>> import networkx as nx
>>> g = nx.DiGraph()
>>> g.add_node("paper:1", label="Paper", name="P1")
>>> g.add_node("paper:2", label="Paper", name="P2")
>>> g.add_node("Method:gnn", label="Method", name="graph neural network", aliases=["GNN"])
>>> g.add_node("Dataset:cora", label="Dataset", name="Cora")
>>> g.add_node("Dataset:mnist", label="Dataset", name="MNIST")
>>> g.add_edge("paper:1", "Method:gnn", type="USES")
>>> g.add_edge("paper:1", "Dataset:cora", type="EVALUATES_ON")
>>> g.add_edge("paper:2", "Dataset:mnist", type="EVALUATES_ON")
>>> sorted(neighbourhood(g, "gnn").nodes)
['Dataset:cora', 'Method:gnn', 'paper:1']
"""

from __future__ import annotations

import difflib

import networkx as nx

from ..errors import GraphError
from .schema import PAPER

__all__ = ["find_concept", "neighbourhood"]


def find_concept(graph: nx.DiGraph, name: str):
    """The concept node named ``name`` (case folded; the name first, then an alias).

    Raises
    ------
    GraphError
        When no concept has that name or alias, naming the closest ones.
    """
    wanted = name.strip().lower()
    by_alias = None
    names = {}
    for node, data in graph.nodes(data=True):
        if data.get("label") == PAPER:
            continue
        own = str(data.get("name") or node)
        names[own.lower()] = own
        if own.lower() == wanted:
            return node
        aliases = data.get("aliases") or []
        if isinstance(aliases, str):
            aliases = aliases.split("; ")
        if by_alias is None and any(str(a).lower() == wanted for a in aliases):
            by_alias = node
    if by_alias is not None:
        return by_alias
    close = difflib.get_close_matches(wanted, list(names), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(repr(names[c]) for c in close)}?" if close else ""
    raise GraphError(f"no concept is named {name!r} in this graph{hint}")


#: with more papers than this, only concepts that two of them share are kept
SHARED_ABOVE = 20


def neighbourhood(graph: nx.DiGraph, name: str) -> nx.DiGraph:
    """The subgraph of the concept ``name``, the papers that mention it and their concepts.

    For a concept of more than :data:`SHARED_ABOVE` papers, only the concepts at
    least two of its papers mention are kept: the neighbourhood of *diffusion
    model* in a conference is hundreds of papers, and what they have in common is
    what a reader is after.
    """
    concept = find_concept(graph, name)
    papers = [p for p in graph.predecessors(concept) if graph.nodes[p].get("label") == PAPER]
    uses: dict = {}
    for p in papers:
        for c in set(graph.successors(p)):
            uses[c] = uses.get(c, 0) + 1
    least = 2 if len(papers) > SHARED_ABOVE else 1
    keep = {concept, *papers, *(c for c, n in uses.items() if n >= least)}
    return graph.subgraph(keep).copy()
