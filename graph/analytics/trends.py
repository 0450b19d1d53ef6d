"""What is rising and what is falling, where papers have years.

A concept's *share* in a year is the fraction of that year's papers that
mention it, so a growing corpus does not make everything look like it rises.
Its trend is the least-squares slope of that share over the years, in
percentage points per year.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import NamedTuple

import networkx as nx

from .base import check_graph, display_name, paper_concepts, papers

__all__ = ["Trend", "concept_trends", "trends_by_year", "years"]


class Trend(NamedTuple):
    """One concept's trend (:func:`concept_trends`)."""

    concept: str
    name: str
    label: str
    papers: int
    #: share of the first and of the last year's papers, in percent
    first_share: float
    last_share: float
    #: least-squares slope of the yearly share, percentage points per year
    slope: float


def years(graph: nx.DiGraph) -> dict[int, int]:
    """Papers per year, ``{year: papers}``, for the papers that have one.

    Examples
    --------
    >>> from paperkg.graph.synthetic import toy_field
    >>> years(toy_field())
    {2022: 1, 2023: 2, 2024: 3}
    """
    check_graph(graph)
    counts = Counter(
        int(graph.nodes[p]["year"]) for p in papers(graph) if graph.nodes[p].get("year") is not None
    )
    return dict(sorted(counts.items()))


def trends_by_year(graph: nx.DiGraph, *, label: str | None = None) -> dict[str, dict[int, int]]:
    """Papers per year for every concept: ``{concept: {year: papers}}``.

    Parameters
    ----------
    graph : networkx.DiGraph
    label : str, optional
        Only concepts of this label.

    Returns
    -------
    dict
        Concepts in id order, years ascending; papers without a year are left out.

    Examples
    --------
    >>> G = nx.DiGraph()
    >>> G.add_node("paper:1", label="Paper", year=2024); G.add_node("Task:qa", label="Task")
    >>> G.add_edge("paper:1", "Task:qa", type="ADDRESSES")
    >>> trends_by_year(G)
    {'Task:qa': {2024: 1}}
    """
    check_graph(graph)
    trends: dict[str, Counter[int]] = defaultdict(Counter)
    for p in papers(graph):
        year = graph.nodes[p].get("year")
        if year is None:
            continue
        for concept in paper_concepts(graph, p):
            if label is None or graph.nodes[concept].get("label") == label:
                trends[concept][int(year)] += 1
    return {c: dict(sorted(ys.items())) for c, ys in sorted(trends.items())}


def concept_trends(
    graph: nx.DiGraph,
    *,
    label: str | None = None,
    min_papers: int = 5,
) -> list[Trend]:
    """Every concept's trend, steepest rise first and steepest fall last.

    Parameters
    ----------
    graph : networkx.DiGraph
    label : str, optional
        Only concepts of this label.
    min_papers : int
        Leave out concepts with fewer dated papers (a slope of two papers is noise).

    Returns
    -------
    list of Trend
        Empty when the papers span fewer than two years. The rising concepts
        are the head of the list (slope > 0), the falling ones its tail.

    Examples
    --------
    >>> from paperkg.graph.synthetic import toy_field
    >>> for t in concept_trends(toy_field(), label="Method", min_papers=3):
    ...     print(t.name, t.first_share, round(t.last_share), t.slope)
    BERT 0.0 100 50.0
    graph neural network 100.0 33 -33.33...
    >>> concept_trends(nx.DiGraph())
    []
    """
    per_year = years(graph)
    if len(per_year) < 2:
        return []
    xs = list(per_year)
    mean_x = sum(xs) / len(xs)
    var_x = sum((x - mean_x) ** 2 for x in xs)
    rows = []
    for concept, counts in trends_by_year(graph, label=label).items():
        total = sum(counts.values())
        if total < min_papers:
            continue
        shares = [100 * counts.get(y, 0) / per_year[y] for y in xs]
        mean_s = sum(shares) / len(shares)
        slope = sum((x - mean_x) * (s - mean_s) for x, s in zip(xs, shares, strict=True)) / var_x
        d = graph.nodes[concept]
        rows.append(
            Trend(
                concept,
                display_name(graph, concept),
                d.get("label", ""),
                total,
                shares[0],
                shares[-1],
                slope,
            )
        )
    return sorted(rows, key=lambda r: (-r.slope, r.concept))
