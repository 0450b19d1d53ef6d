"""Which concepts go together: the co-occurrence graph and label × label tables.

A Method × Task table says what a method is used for, Method × Dataset what it
is evaluated on, Dataset × Task which datasets serve which tasks. The tables count
papers from the paper → concept edges, so every pair is there, not only the
pairs frequent enough for the build to draw a ``CO_OCCURS_WITH`` edge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import networkx as nx

from ..schema import CO_OCCURS
from .base import check_graph, check_node, concept_papers, display_name, is_concept

__all__ = [
    "CooccurrenceTable",
    "PairRow",
    "cooccurrence_graph",
    "cooccurring_concepts",
    "label_cooccurrence",
]


class PairRow(NamedTuple):
    """One cell of a :class:`CooccurrenceTable`, in long form (for CSV)."""

    row: str
    column: str
    row_name: str
    column_name: str
    papers: int


@dataclass
class CooccurrenceTable:
    """Papers mentioning both a ``row_label`` and a ``column_label`` concept.

    ``counts[i][j]`` is the number of papers that mention ``rows[i]`` and
    ``columns[j]``. Rows and columns are the most mentioned concepts of their
    label, most papers first.
    """

    row_label: str
    column_label: str
    rows: list[str] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    row_names: list[str] = field(default_factory=list)
    column_names: list[str] = field(default_factory=list)
    counts: list[list[int]] = field(default_factory=list)

    def pairs(self, *, min_papers: int = 1) -> list[PairRow]:
        """The non-empty cells, most papers first."""
        out = [
            PairRow(r, c, rn, cn, self.counts[i][j])
            for i, (r, rn) in enumerate(zip(self.rows, self.row_names, strict=True))
            for j, (c, cn) in enumerate(zip(self.columns, self.column_names, strict=True))
            if self.counts[i][j] >= min_papers
        ]
        return sorted(out, key=lambda p: (-p.papers, p.row, p.column))


def cooccurrence_graph(graph: nx.DiGraph, *, min_weight: int = 1) -> nx.Graph:
    """The undirected concept graph whose edge weights count papers mentioning both.

    Read from the graph's ``CO_OCCURS_WITH`` edges; every concept is a node,
    also one without such an edge.

    Parameters
    ----------
    graph : networkx.DiGraph
    min_weight : int
        Leave out pairs mentioned together by fewer papers.

    Returns
    -------
    networkx.Graph
        Concept nodes with their attributes, edges with ``weight``.

    Examples
    --------
    >>> G = nx.DiGraph()
    >>> G.add_node("Method:a", label="Method"); G.add_node("Dataset:b", label="Dataset")
    >>> G.add_edge("Dataset:b", "Method:a", type="CO_OCCURS_WITH", weight=3)
    >>> list(cooccurrence_graph(G).edges(data="weight"))
    [('Method:a', 'Dataset:b', 3)]
    """
    check_graph(graph)
    out = nx.Graph()
    out.add_nodes_from((n, d) for n, d in graph.nodes(data=True) if is_concept(graph, n))
    out.add_edges_from(
        (u, v, {"weight": d.get("weight")})
        for u, v, d in graph.edges(data=True)
        if d.get("type") == CO_OCCURS and (d.get("weight") or 0) >= min_weight
    )
    return out


def cooccurring_concepts(
    graph: nx.DiGraph, concept: str, *, label: str | None = None, n: int = 10
) -> list[tuple[str, int]]:
    """Concepts mentioned together with ``concept``, with the number of papers.

    Parameters
    ----------
    graph : networkx.DiGraph
    concept : str
        A concept node id, such as ``"Dataset:cifar-10"``.
    label : str, optional
        Only partners of this label.
    n : int
        How many.

    Returns
    -------
    list of (concept, papers)
        Most papers first.

    Examples
    --------
    >>> from paperkg.graph.synthetic import toy_field
    >>> cooccurring_concepts(toy_field(), "Metric:accuracy", label="Task")
    [('Task:node classification', 3), ('Task:question answering', 1)]
    """
    check_graph(graph)
    check_node(graph, concept)
    co = cooccurrence_graph(graph)
    rows = [
        (other, co[concept][other]["weight"])
        for other in co[concept]
        if label is None or co.nodes[other].get("label") == label
    ]
    return sorted(rows, key=lambda r: (-r[1], r[0]))[:n]


def label_cooccurrence(
    graph: nx.DiGraph,
    row_label: str = "Method",
    column_label: str = "Task",
    *,
    n_rows: int = 15,
    n_columns: int = 15,
) -> CooccurrenceTable:
    """The ``row_label`` × ``column_label`` table of papers mentioning both.

    Parameters
    ----------
    graph : networkx.DiGraph
    row_label, column_label : str
        Concept labels, e.g. ``"Method"`` and ``"Task"`` (what a method is used
        for), ``"Dataset"`` and ``"Task"`` (which datasets serve which tasks).
    n_rows, n_columns : int
        The most mentioned concepts of each label to show.

    Returns
    -------
    CooccurrenceTable

    Examples
    --------
    >>> from paperkg.graph.synthetic import toy_field
    >>> table = label_cooccurrence(toy_field(), "Method", "Task", n_rows=3, n_columns=2)
    >>> table.row_names, table.column_names
    (['graph neural network', 'BERT', 'graph attention network'],
     ['node classification', 'question answering'])
    >>> table.counts
    [[3, 1], [0, 3], [1, 0]]
    >>> label_cooccurrence(nx.DiGraph()).counts
    []
    """
    check_graph(graph)
    papers_of = concept_papers(graph)

    def top(label: str, n: int) -> list[str]:
        nodes = [c for c in papers_of if graph.nodes[c].get("label") == label]
        return sorted(nodes, key=lambda c: (-len(papers_of[c]), c))[:n]

    rows, columns = top(row_label, n_rows), top(column_label, n_columns)
    counts = [[len(papers_of[r] & papers_of[c]) for c in columns] for r in rows]
    return CooccurrenceTable(
        row_label,
        column_label,
        rows,
        columns,
        [display_name(graph, r) for r in rows],
        [display_name(graph, c) for c in columns],
        counts,
    )
