"""What ``paperkg analyze`` finds in a field, computed once for the report and the terminal.

:func:`analyse_field` runs the analyses of :mod:`paperkg.graph.analytics` on a
graph and keeps what they found in one :class:`FieldAnalysis`: the command
prints its tables from it, and :func:`paperkg.export.report.write_report` writes
the CSV tables, the plots and the page from the same record, so the terminal and
the report never disagree and nothing is computed twice.

Examples
--------
>>> from paperkg.graph.synthetic import toy_field
>>> analysis = analyse_field(toy_field())
>>> analysis.papers, analysis.concepts
(6, {'Method': 3, 'Dataset': 4, 'Task': 2, 'Metric': 2})
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from ..graph import analytics
from ..graph.analytics import (
    CentralConcept,
    Community,
    CooccurrenceTable,
    Proposal,
    Trend,
)
from ..graph.schema import CONCEPT_LABELS, PAPER

__all__ = ["CO_OCCURRENCE_TABLES", "FieldAnalysis", "analyse_field", "paper_name"]

#: the label pairs the report tabulates, and what each answers
CO_OCCURRENCE_TABLES = {
    ("Method", "Task"): "what each method is used for",
    ("Method", "Dataset"): "what each method is evaluated on",
    ("Dataset", "Task"): "which datasets serve which tasks",
}


@dataclass
class FieldAnalysis:
    """Everything the report shows, computed once from the graph."""

    papers: int
    concepts: dict[str, int]
    central: list[CentralConcept]
    communities: list[Community]
    tables: dict[tuple[str, str], CooccurrenceTable]
    years: dict[int, int]
    trends: list[Trend]
    #: concept -> share (percent) of each year's papers, for the trend plot
    yearly_share: dict[str, list[float]] = field(default_factory=dict)
    #: papers a concept needs to get a trend
    trend_min_papers: int = 3
    proposals: list[Proposal] = field(default_factory=list)


def analyse_field(
    graph: nx.DiGraph, *, top: int = 20, seed: int = 0, backend: str = "networkx"
) -> FieldAnalysis:
    """Run every analysis of the report on ``graph``.

    Parameters
    ----------
    graph : networkx.DiGraph
    top : int
        Concepts per label in the centrality table, and rows and columns of
        the co-occurrence tables.
    seed : int
        Seeds the communities and the betweenness sample.
    backend : {"networkx", "igraph"}
        Where PageRank and betweenness run.

    Returns
    -------
    FieldAnalysis
    """
    analytics.base.check_graph(graph)
    concepts = {label: 0 for label in CONCEPT_LABELS}
    papers = 0
    for _, d in graph.nodes(data=True):
        if d.get("label") == PAPER:
            papers += 1
        elif d.get("label") in concepts:
            concepts[d["label"]] += 1
    years = analytics.years(graph)
    trend_min_papers = max(3, papers // 200)
    trends = analytics.concept_trends(graph, min_papers=trend_min_papers)
    by_year = analytics.trends_by_year(graph)
    yearly_share = {
        t.concept: [100 * by_year[t.concept].get(y, 0) / years[y] for y in years] for t in trends
    }
    return FieldAnalysis(
        papers=papers,
        concepts=concepts,
        central=analytics.centrality_table(graph, n=top, backend=backend, seed=seed),
        communities=analytics.named_communities(graph, seed=seed),
        tables={
            pair: analytics.label_cooccurrence(graph, *pair, n_rows=top, n_columns=top)
            for pair in CO_OCCURRENCE_TABLES
        },
        years=years,
        trends=trends,
        yearly_share=yearly_share,
        trend_min_papers=trend_min_papers,
        proposals=analytics.proposals_per_task(graph),
    )


def paper_name(graph: nx.DiGraph, paper: str) -> str:
    """What the report's tables and page call a paper: its title, else its name, else its id."""
    d = graph.nodes[paper]
    return str(d.get("title") or d.get("name") or paper)
