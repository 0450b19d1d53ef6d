"""Analytics on a paperkg graph: central concepts, communities, similar papers, kinds, trends.

Every function takes the graph first and returns plain ``{node: value}`` dicts or
lists of rows. They accept the ``networkx.MultiDiGraph`` that paperkg builds and
refuse other graph kinds with a :class:`~paperkg.errors.GraphError`.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict

import networkx as nx

from ..errors import GraphError
from .schema import CO_OCCURS, IS_A, PAPER, PAPER_EDGE_TYPES


def _check(graph) -> None:
    if not isinstance(graph, nx.MultiDiGraph):
        raise GraphError(
            f"expected the networkx.MultiDiGraph paperkg builds, got {type(graph).__name__}; "
            "load one with paperkg.load_graph('out/graph.json')"
        )


def _is_concept(graph, node) -> bool:
    return graph.nodes[node].get("label", PAPER) != PAPER


def paper_concepts(graph: nx.MultiDiGraph, paper: str) -> set[str]:
    """The concepts ``paper`` proposes or uses."""
    _check(graph)
    return {v for _, v, k in graph.out_edges(paper, keys=True) if k in PAPER_EDGE_TYPES}


def cooccurrence_graph(graph: nx.MultiDiGraph, *, min_weight: int = 1) -> nx.Graph:
    """The undirected concept graph whose edge weights count papers mentioning both.

    Examples
    --------
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("Method:a", label="Method"); G.add_node("Dataset:b", label="Dataset")
    >>> _ = G.add_edge("Dataset:b", "Method:a", key="CO_OCCURS_WITH", type="CO_OCCURS_WITH", weight=3)
    >>> list(cooccurrence_graph(G).edges(data="weight"))
    [('Method:a', 'Dataset:b', 3)]
    """
    _check(graph)
    out = nx.Graph()
    out.add_nodes_from((n, d) for n, d in graph.nodes(data=True) if _is_concept(graph, n))
    for u, v, k, w in graph.edges(keys=True, data="weight"):
        if k == CO_OCCURS and (w or 0) >= min_weight:
            out.add_edge(u, v, weight=w)
    return out


def central_concepts(
    graph: nx.MultiDiGraph, *, label: str | None = None, n: int = 10, method: str = "pagerank"
) -> list[tuple[str, float]]:
    """The ``n`` most central concepts, optionally of one ``label``.

    ``method`` is ``"pagerank"`` (weighted, on the co-occurrence graph),
    ``"degree"`` (number of co-occurring concepts) or ``"papers"`` (paper count).

    Examples
    --------
    >>> central_concepts(nx.MultiDiGraph())
    []
    """
    _check(graph)
    co = cooccurrence_graph(graph)
    if co.number_of_nodes() == 0:
        return []
    if method == "pagerank":
        scores = (
            nx.pagerank(co, weight="weight")
            if co.number_of_edges()
            else dict.fromkeys(co, 1 / len(co))
        )
    elif method == "degree":
        scores = dict(co.degree())
    elif method == "papers":
        scores = {c: graph.nodes[c].get("paper_count", 0) for c in co}
    else:
        raise GraphError(f"unknown centrality method {method!r}; use pagerank, degree or papers")
    rows = [(c, s) for c, s in scores.items() if label is None or co.nodes[c].get("label") == label]
    return sorted(rows, key=lambda r: (-r[1], r[0]))[:n]


def concept_communities(graph: nx.MultiDiGraph, *, seed: int = 0) -> dict[str, int]:
    """Community number of each concept (Louvain on the co-occurrence graph).

    Communities are numbered by size, largest first; isolated concepts get their own.

    Examples
    --------
    >>> concept_communities(nx.MultiDiGraph())
    {}
    """
    _check(graph)
    co = cooccurrence_graph(graph)
    if co.number_of_nodes() == 0:
        return {}
    parts = nx.community.louvain_communities(co, weight="weight", seed=seed)
    parts = sorted(parts, key=lambda p: (-len(p), min(p)))
    return {node: i for i, part in enumerate(parts) for node in part}


def similar_papers(graph: nx.MultiDiGraph, paper: str, *, n: int = 10) -> list[tuple[str, float]]:
    """Papers that share concepts with ``paper``, by IDF-weighted cosine similarity.

    A shared rare concept counts more than a shared common one.
    """
    _check(graph)
    if paper not in graph:
        raise GraphError(f"no node {paper!r} in the graph; paper node ids look like 'paper:<id>'")
    papers = [p for p, d in graph.nodes(data=True) if d.get("label") == PAPER]
    total = max(len(papers), 1)

    def idf(concept: str) -> float:
        return math.log(1 + total / max(graph.nodes[concept].get("paper_count", 1), 1))

    mine = paper_concepts(graph, paper)
    if not mine:
        return []
    scores: Counter[str] = Counter()
    for concept in mine:
        for other, _, k in graph.in_edges(concept, keys=True):
            if other != paper and k in PAPER_EDGE_TYPES:
                scores[other] += idf(concept) ** 2
    norm_mine = math.sqrt(sum(idf(c) ** 2 for c in mine))
    rows = []
    for other, dot in scores.items():
        norm_other = math.sqrt(sum(idf(c) ** 2 for c in paper_concepts(graph, other)))
        rows.append((other, dot / (norm_mine * norm_other)))
    return sorted(rows, key=lambda r: (-r[1], r[0]))[:n]


def cooccurring_concepts(
    graph: nx.MultiDiGraph, concept: str, *, label: str | None = None, n: int = 10
) -> list[tuple[str, int]]:
    """Concepts mentioned together with ``concept``, with the number of papers."""
    _check(graph)
    if concept not in graph:
        raise GraphError(
            f"no node {concept!r}; concept ids look like 'Method:graph neural network'"
        )
    co = cooccurrence_graph(graph)
    rows = [
        (other, w)
        for other, w in ((o, co[concept][o]["weight"]) for o in co[concept])
        if label is None or co.nodes[other].get("label") == label
    ]
    return sorted(rows, key=lambda r: (-r[1], r[0]))[:n]


def kinds_of(graph: nx.MultiDiGraph, concept: str) -> list[tuple[str, int]]:
    """Every narrower concept of ``concept`` (its ``IS_A`` descendants), with papers.

    "latent diffusion model" and "text-to-image diffusion model" for "diffusion
    model"; most papers first.

    Examples
    --------
    >>> G = nx.MultiDiGraph()
    >>> for c, n in [("Method:dm", 5), ("Method:ldm", 3), ("Method:sparse ldm", 1)]:
    ...     G.add_node(c, label="Method", paper_count=n)
    >>> _ = G.add_edge("Method:ldm", "Method:dm", key="IS_A", type="IS_A")
    >>> _ = G.add_edge("Method:sparse ldm", "Method:ldm", key="IS_A", type="IS_A")
    >>> kinds_of(G, "Method:dm")
    [('Method:ldm', 3), ('Method:sparse ldm', 1)]
    """
    _check(graph)
    if concept not in graph:
        raise GraphError(
            f"no node {concept!r}; concept ids look like 'Method:graph neural network'"
        )
    narrower = nx.DiGraph((v, u) for u, v, k in graph.edges(keys=True) if k == IS_A)
    kinds = nx.descendants(narrower, concept) if concept in narrower else set()
    rows = [(k, graph.nodes[k].get("paper_count", 0)) for k in kinds]
    return sorted(rows, key=lambda r: (-r[1], r[0]))


def trends_by_year(
    graph: nx.MultiDiGraph, *, label: str | None = None
) -> dict[str, dict[int, int]]:
    """Papers per year for every concept: ``{concept: {year: papers}}``.

    Papers without a year are left out.

    Examples
    --------
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("paper:1", label="Paper", year=2024); G.add_node("Task:qa", label="Task")
    >>> _ = G.add_edge("paper:1", "Task:qa", key="ADDRESSES", type="ADDRESSES")
    >>> trends_by_year(G)
    {'Task:qa': {2024: 1}}
    """
    _check(graph)
    trends: dict[str, Counter[int]] = defaultdict(Counter)
    for p, d in graph.nodes(data=True):
        if d.get("label") != PAPER or d.get("year") is None:
            continue
        for concept in paper_concepts(graph, p):
            if label is None or graph.nodes[concept].get("label") == label:
                trends[concept][int(d["year"])] += 1
    return {c: dict(sorted(years.items())) for c, years in sorted(trends.items())}
