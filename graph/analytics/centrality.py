"""Which concepts a field turns around: paper count, PageRank and betweenness.

Three views of "central", because they disagree in useful ways: the paper count
says what is used most, PageRank (on the weighted co-occurrence graph) what is
used with much else that is used a lot, and betweenness what bridges otherwise
separate parts of the field (a dataset shared by two communities).

Betweenness is exact up to :data:`BETWEENNESS_SAMPLES` concepts and estimated
above that from that many seeded source concepts (Brandes' algorithm from a
sample of sources, as ``networkx.betweenness_centrality(k=…)`` does), so it
stays seconds on a million edges. With ``backend="igraph"`` (``pip install
'paperkg[fast]'``) PageRank and betweenness run in igraph's C code on the same
graph and the same sample: the same scores, to rounding.
"""

from __future__ import annotations

import importlib.util
import random
from typing import NamedTuple

import networkx as nx

from ...errors import GraphError
from ..schema import CONCEPT_LABELS
from .base import check_graph, display_name, paper_count
from .cooccurrence import cooccurrence_graph

__all__ = [
    "BETWEENNESS_SAMPLES",
    "CentralConcept",
    "betweenness",
    "central_concepts",
    "centrality_table",
    "pagerank",
]

#: above this many concepts, betweenness is estimated from this many seeded sources
BETWEENNESS_SAMPLES = 300

BACKENDS = ("networkx", "igraph", "auto")


class CentralConcept(NamedTuple):
    """One row of :func:`centrality_table`."""

    label: str
    rank: int
    concept: str
    name: str
    papers: int
    pagerank: float
    betweenness: float


def pagerank(co: nx.Graph, *, backend: str = "networkx") -> dict[str, float]:
    """Weighted PageRank of every node of the co-occurrence graph ``co``.

    Parameters
    ----------
    co : networkx.Graph
        A co-occurrence graph (:func:`~paperkg.graph.analytics.cooccurrence_graph`),
        edge attribute ``weight``.
    backend : {"networkx", "igraph", "auto"}
        Where the computation runs; the scores agree to about 1e-6. ``"auto"``
        is igraph where it is installed.

    Returns
    -------
    dict
        ``{node: score}``, scores summing to 1 (uniform on a graph without edges).

    Examples
    --------
    >>> co = nx.Graph([("a", "b", {"weight": 1}), ("b", "c", {"weight": 1})])
    >>> {n: round(s, 3) for n, s in pagerank(co).items()}
    {'a': 0.257, 'b': 0.486, 'c': 0.257}
    """
    backend = resolve_backend(backend)
    if co.number_of_nodes() == 0:
        return {}
    if co.number_of_edges() == 0:
        return dict.fromkeys(co, 1 / len(co))
    if backend == "igraph":
        g, nodes = _to_igraph(co)
        scores = g.pagerank(weights="weight", damping=0.85, directed=False)
        return dict(zip(nodes, scores, strict=True))
    return nx.pagerank(co, weight="weight", tol=1e-9, max_iter=1000)


def betweenness(
    co: nx.Graph,
    *,
    samples: int = BETWEENNESS_SAMPLES,
    seed: int = 0,
    backend: str = "networkx",
) -> dict[str, float]:
    """Normalised betweenness of every node of ``co`` (hops; weights ignored).

    Exact when ``co`` has at most ``samples`` nodes; above that, estimated from
    the shortest paths out of ``samples`` source nodes drawn with ``seed``, scaled
    to the exact value's range, the same sample for both backends.

    Parameters
    ----------
    co : networkx.Graph
    samples : int
        Source nodes to estimate from on a larger graph.
    seed : int
        Draws the sample: the same seed, the same scores.
    backend : {"networkx", "igraph"}

    Returns
    -------
    dict
        ``{node: score}`` in [0, 1]: the share of shortest paths between other
        nodes that pass through the node.

    Examples
    --------
    >>> path = nx.Graph([("a", "b"), ("b", "c")])
    >>> betweenness(path)
    {'a': 0.0, 'b': 1.0, 'c': 0.0}
    """
    backend = resolve_backend(backend)
    if samples < 1:
        raise GraphError(f"betweenness needs at least one source to sample, not {samples}")
    nodes = list(co)
    n = len(nodes)
    if n < 3:
        return dict.fromkeys(nodes, 0.0)
    sources = nodes if n <= samples else random.Random(seed).sample(sorted(nodes), samples)
    # Both backends count, for undirected graphs, each pair {s, t} with s a source
    # once, half of the ordered (s, t) and (t, s) that normalised betweenness counts.
    if backend == "igraph":
        g, order = _to_igraph(co)
        index = {node: i for i, node in enumerate(order)}
        raw = g.betweenness(directed=False, sources=[index[s] for s in sources], targets=None)
        half = dict(zip(order, raw, strict=True))
    else:
        half = nx.betweenness_centrality_subset(co, sources, nodes, normalized=False)
    # from a sample of sources, scale up to all of them
    ordered = {v: 2 * b * n / len(sources) for v, b in half.items()}
    scale = 1 / ((n - 1) * (n - 2))
    # an estimate can overshoot the largest possible value: it is a share, at most 1
    return {v: min(1.0, ordered[v] * scale) for v in nodes}


def central_concepts(
    graph: nx.DiGraph,
    *,
    label: str | None = None,
    n: int = 10,
    method: str = "pagerank",
    backend: str = "networkx",
) -> list[tuple[str, float]]:
    """The ``n`` most central concepts, optionally of one ``label``.

    Parameters
    ----------
    graph : networkx.DiGraph
        A paperkg graph.
    label : str, optional
        Only concepts of this label (Method, Dataset, Task, Metric).
    n : int
        How many.
    method : {"pagerank", "papers", "betweenness", "degree"}
        PageRank on the co-occurrence graph, paper count, betweenness, or the
        number of co-occurring concepts.
    backend : {"networkx", "igraph"}
        Where PageRank and betweenness run.

    Returns
    -------
    list of (concept, score)
        Highest score first, ties by id.

    Examples
    --------
    >>> central_concepts(nx.DiGraph())
    []
    >>> from paperkg.graph.synthetic import toy_field
    >>> central_concepts(toy_field(), label="Method", n=2, method="papers")
    [('Method:graph neural network', 4), ('Method:bert', 3)]
    >>> [(c, round(s, 3)) for c, s in central_concepts(toy_field(), n=2, method="betweenness")]
    [('Method:graph neural network', 0.237), ('Metric:accuracy', 0.237)]
    """
    check_graph(graph)
    co = cooccurrence_graph(graph)
    if method == "pagerank":
        scores = pagerank(co, backend=backend)
    elif method == "betweenness":
        scores = betweenness(co, backend=backend)
    elif method == "degree":
        scores = dict(co.degree())
    elif method == "papers":
        scores = {c: paper_count(graph, c) for c in co}
    else:
        raise GraphError(
            f"unknown centrality method {method!r}; use pagerank, papers, betweenness or degree"
        )
    rows = [(c, s) for c, s in scores.items() if label is None or co.nodes[c].get("label") == label]
    return sorted(rows, key=lambda r: (-r[1], r[0]))[:n]


def centrality_table(
    graph: nx.DiGraph,
    *,
    n: int = 10,
    by: str = "papers",
    labels: tuple[str, ...] = CONCEPT_LABELS,
    backend: str = "networkx",
    seed: int = 0,
) -> list[CentralConcept]:
    """The top ``n`` concepts of each label with all three centralities side by side.

    Parameters
    ----------
    graph : networkx.DiGraph
    n : int
        Rows per label.
    by : {"papers", "pagerank", "betweenness"}
        What ranks them.
    labels : tuple of str
        Which labels, in this order.
    backend : {"networkx", "igraph", "auto"}
    seed : int
        Draws the betweenness sample on a large graph.

    Returns
    -------
    list of CentralConcept
        Label by label, rank 1 first.

    Examples
    --------
    >>> from paperkg.graph.synthetic import toy_field
    >>> rows = centrality_table(toy_field(), n=1, labels=("Method", "Dataset"))
    >>> [(r.label, r.rank, r.name, r.papers, round(r.pagerank, 3)) for r in rows]
    [('Method', 1, 'graph neural network', 4, 0.147), ('Dataset', 1, 'Cora', 2, 0.083)]
    >>> centrality_table(nx.DiGraph())
    []
    """
    check_graph(graph)
    if by not in ("papers", "pagerank", "betweenness"):
        raise GraphError(f"unknown ranking {by!r}; use papers, pagerank or betweenness")
    co = cooccurrence_graph(graph)
    pr = pagerank(co, backend=backend)
    bc = betweenness(co, backend=backend, seed=seed)
    rows = []
    for label in labels:
        concepts = [c for c, d in co.nodes(data=True) if d.get("label") == label]
        key = {
            "papers": lambda c: paper_count(graph, c),
            "pagerank": pr.get,
            "betweenness": bc.get,
        }[by]
        concepts.sort(key=lambda c: (-key(c), -paper_count(graph, c), c))
        for rank, c in enumerate(concepts[:n], start=1):
            rows.append(
                CentralConcept(
                    label, rank, c, display_name(graph, c), paper_count(graph, c), pr[c], bc[c]
                )
            )
    return rows


def resolve_backend(backend: str) -> str:
    """The backend that runs: ``"auto"`` is igraph where it is installed, else networkx."""
    if backend not in BACKENDS:
        raise GraphError(f"unknown backend {backend!r}; use networkx, igraph or auto")
    if backend == "auto":
        return "igraph" if importlib.util.find_spec("igraph") is not None else "networkx"
    if backend == "igraph" and importlib.util.find_spec("igraph") is None:
        raise GraphError("the igraph backend needs python-igraph: pip install 'paperkg[fast]'")
    return backend


def _to_igraph(co: nx.Graph):
    """``co`` as an igraph Graph, and the node of each igraph vertex index."""
    import igraph

    nodes = list(co)
    index = {node: i for i, node in enumerate(nodes)}
    g = igraph.Graph(n=len(nodes), directed=False)
    g.add_edges([(index[u], index[v]) for u, v in co.edges()])
    g.es["weight"] = [w if w is not None else 1 for _, _, w in co.edges(data="weight")]
    return g, nodes
