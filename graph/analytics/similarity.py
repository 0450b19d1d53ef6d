"""Papers like this one: shared concepts, weighted by how rare they are.

Two papers that both use "accuracy" have little in common; two that both use
"MuJoCo" and "soft actor-critic" have a lot. Each concept weighs its inverse
document frequency ``log(1 + N / papers)``, and the score is the cosine of the
two papers' weighted concept sets. The shared concepts, heaviest first, say why.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import NamedTuple

import networkx as nx

from ..schema import PAPER_EDGE_TYPES
from .base import check_graph, check_node, paper_concepts, paper_count, papers

__all__ = ["SimilarPaper", "concept_rarity", "similar_papers", "similar_papers_explained"]


class SimilarPaper(NamedTuple):
    """One row of :func:`similar_papers_explained`."""

    paper: str
    score: float
    #: the concepts both papers mention, rarest (most telling) first
    shared: list[str]


def concept_rarity(graph: nx.DiGraph, concept: str) -> float:
    """The weight of ``concept`` in a similarity: ``log(1 + papers in corpus / its papers)``.

    Examples
    --------
    >>> from paperkg.graph.synthetic import toy_field
    >>> round(concept_rarity(toy_field(), "Dataset:cora"), 3)  # 2 of 6 papers
    1.386
    """
    return _rarity(len(papers(graph)), paper_count(graph, concept))


def _rarity(total_papers: int, concept_papers: int) -> float:
    return math.log(1 + max(total_papers, 1) / max(concept_papers, 1))


def similar_papers(graph: nx.DiGraph, paper: str, *, n: int = 10) -> list[tuple[str, float]]:
    """The ``n`` papers sharing most (rare) concepts with ``paper``.

    Parameters
    ----------
    graph : networkx.DiGraph
    paper : str
        A paper node id, ``"paper:<id>"``.
    n : int
        How many.

    Returns
    -------
    list of (paper, cosine)
        Most similar first; papers sharing nothing are left out.

    Examples
    --------
    >>> from paperkg.graph.synthetic import toy_field
    >>> [(p, round(s, 2)) for p, s in similar_papers(toy_field(), "paper:gat", n=2)]
    [('paper:gnn', 0.75), ('paper:ogb', 0.38)]
    """
    return [(row.paper, row.score) for row in similar_papers_explained(graph, paper, n=n)]


def similar_papers_explained(graph: nx.DiGraph, paper: str, *, n: int = 10) -> list[SimilarPaper]:
    """:func:`similar_papers` with the shared concepts that explain each score.

    Parameters
    ----------
    graph : networkx.DiGraph
    paper : str
    n : int

    Returns
    -------
    list of SimilarPaper

    Examples
    --------
    >>> from paperkg.graph.synthetic import toy_field
    >>> best = similar_papers_explained(toy_field(), "paper:gat", n=1)[0]
    >>> best.paper, best.shared
    ('paper:gnn', ['Dataset:cora', 'Task:node classification',
     'Method:graph neural network', 'Metric:accuracy'])
    """
    check_graph(graph)
    check_node(graph, paper)
    mine = paper_concepts(graph, paper)
    if not mine:
        return []
    total = len(papers(graph))
    rarity: dict[str, float] = {}

    def weight_of(concept: str) -> float:
        if concept not in rarity:
            rarity[concept] = _rarity(total, paper_count(graph, concept))
        return rarity[concept]

    weight = {c: weight_of(c) for c in mine}
    scores: Counter[str] = Counter()
    shared: dict[str, list[str]] = {}
    for concept in sorted(mine):  # sums in one order: the same scores under any hash seed
        others = {
            u for u, _, kind in graph.in_edges(concept, data="type") if kind in PAPER_EDGE_TYPES
        }
        for other in sorted(others - {paper}):
            scores[other] += weight[concept] ** 2
            shared.setdefault(other, []).append(concept)
    norm_mine = math.sqrt(math.fsum(w**2 for w in weight.values()))
    rows = []
    for other, dot in scores.items():
        theirs = paper_concepts(graph, other)
        norm = math.sqrt(math.fsum(weight_of(c) ** 2 for c in theirs))
        explanation = sorted(shared[other], key=lambda c: (-weight[c], c))
        rows.append(SimilarPaper(other, dot / (norm_mine * norm), explanation))
    return sorted(rows, key=lambda r: (-r.score, r.paper))[:n]
