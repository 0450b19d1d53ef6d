"""The sub-fields of a corpus: seeded Louvain communities of concepts, named, with papers.

A community is named by its most mentioned concepts ("diffusion model ·
image generation · FID"), which is how a person would name the sub-field. A
paper belongs to the community that holds most of its concepts, so each
community also lists the papers that make it up.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

import networkx as nx

from .base import check_graph, display_name, paper_concepts, paper_count, papers
from .cooccurrence import cooccurrence_graph

__all__ = ["Community", "concept_communities", "named_communities"]


class Community(NamedTuple):
    """One community of :func:`named_communities`."""

    number: int
    name: str
    concepts: list[str]
    papers: list[str]


def concept_communities(graph: nx.DiGraph, *, seed: int = 0) -> dict[str, int]:
    """Community number of each concept (Louvain on the weighted co-occurrence graph).

    Parameters
    ----------
    graph : networkx.DiGraph
    seed : int
        Louvain visits nodes in a random order; the same seed, the same communities.

    Returns
    -------
    dict
        ``{concept: number}``, numbered by size, largest first (ties by their
        smallest concept id); a concept without co-occurrences is a community
        of its own.

    Examples
    --------
    >>> concept_communities(nx.DiGraph())
    {}
    >>> from paperkg.graph.synthetic import toy_field
    >>> communities = concept_communities(toy_field())
    >>> communities["Dataset:cora"], communities["Dataset:squad"]
    (0, 1)
    """
    check_graph(graph)
    co = cooccurrence_graph(graph)
    if co.number_of_nodes() == 0:
        return {}
    parts = nx.community.louvain_communities(co, weight="weight", seed=seed)
    parts = sorted(parts, key=lambda p: (-len(p), min(p)))
    return {node: i for i, part in enumerate(parts) for node in part}


def named_communities(
    graph: nx.DiGraph, *, seed: int = 0, name_size: int = 3, min_concepts: int = 2
) -> list[Community]:
    """Communities of concepts, each named by its most mentioned concepts, with its papers.

    Parameters
    ----------
    graph : networkx.DiGraph
    seed : int
        Seeds Louvain (:func:`concept_communities`).
    name_size : int
        Concepts in a community's name.
    min_concepts : int
        Leave out smaller communities (a lone concept is not a sub-field).

    Returns
    -------
    list of Community
        Largest first. ``concepts`` and ``papers`` are sorted most mentioned
        first; a paper is in the community holding most of its concepts (ties:
        the larger community).

    Examples
    --------
    >>> from paperkg.graph.synthetic import toy_field
    >>> for community in named_communities(toy_field()):
    ...     print(community.name, community.papers)
    graph neural network · accuracy · node classification ['paper:gat', 'paper:gnn',
     'paper:ogb', 'paper:graphqa']
    BERT · question answering · F1 ['paper:bert', 'paper:squad2']
    >>> named_communities(nx.DiGraph())
    []
    """
    membership = concept_communities(graph, seed=seed)
    members: dict[int, list[str]] = {}
    for concept, number in membership.items():
        members.setdefault(number, []).append(concept)
    paper_lists: dict[int, list[str]] = {number: [] for number in members}
    for paper in papers(graph):
        votes = Counter(membership[c] for c in paper_concepts(graph, paper) if c in membership)
        if votes:
            best = min(votes, key=lambda number: (-votes[number], number))
            paper_lists[best].append(paper)
    out = []
    for number in sorted(members):
        concepts = sorted(members[number], key=lambda c: (-paper_count(graph, c), c))
        if len(concepts) < min_concepts:
            continue
        name = " · ".join(display_name(graph, c) for c in concepts[:name_size])
        ranked_papers = sorted(
            paper_lists[number],
            key=lambda p: (-sum(membership.get(c) == number for c in paper_concepts(graph, p)), p),
        )
        out.append(Community(number, name, concepts, ranked_papers))
    return out
