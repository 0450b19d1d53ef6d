"""A map of a field: the most used concepts, how strongly they co-occur, in clusters, laid out.

This is the co-word map of bibliometrics (VOSviewer, CiteSpace, bibliometrix):
concepts are the nodes, sized by how many papers use them; two concepts are
linked by how often the same papers use both, *normalised* so that two popular
concepts are not linked merely for being popular; clusters of concepts that go
together get one colour; positions are computed here, once, so a viewer can
draw the map at once. It is plain data (dataclasses), with no HTML in it:
:mod:`paperkg.export.html_map` draws it in a browser,
:mod:`paperkg.export.static_map` as a PNG or SVG.

Association strength (van Eck & Waltman 2009, the normalisation VOSviewer uses)
divides the co-occurrence count ``c_ij`` by what chance would give concepts with
``s_i`` and ``s_j`` co-occurrences in all, ``s_i s_j / 2m`` (``m`` the total
co-occurrence count): a value of 1 is what chance gives, 5 five times that.

Examples
--------
>>> import networkx as nx
>>> g = nx.DiGraph()
>>> for i, concepts in enumerate([["BERT", "GLUE"], ["BERT", "GLUE"], ["BERT", "ImageNet"]]):
...     g.add_node(f"paper:{i}", label="Paper", name=f"P{i}", year=2020 + i)
...     for c in concepts:
...         g.add_node(f"X:{c}", label="Method", name=c, paper_count=0)
...         g.add_edge(f"paper:{i}", f"X:{c}", type="USES")
>>> m = concept_map(g, min_cooccurrence=1)
>>> [(n.name, n.papers) for n in m.nodes]
[('BERT', 3), ('GLUE', 2), ('ImageNet', 1)]
>>> [(link.source, link.target, link.papers) for link in m.links]
[('X:BERT', 'X:GLUE', 2), ('X:BERT', 'X:ImageNet', 1)]
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from ..defaults import DEFAULT_MAP_NODES
from .analytics.base import check_graph
from .incidence import cooccurrence, incidence_matrix
from .layout import spring_layout
from .schema import CONCEPT_LABELS, PAPER

__all__ = [
    "DEFAULT_MAP_NODES",
    "CLUSTER_COLORS",
    "ConceptMap",
    "MapCluster",
    "MapLink",
    "MapNode",
    "concept_map",
]

#: links kept per concept (its strongest), so the map shows structure, not a hairball
LINKS_PER_NODE = 6
#: clusters with fewer concepts than this are drawn grey, as "other"
MIN_CLUSTER_SIZE = 3
#: colour-blind-safe, distinct at a glance (Tableau 10, then four more); "other" is grey
CLUSTER_COLORS = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#17becf",
    "#8c6d31",
    "#637939",
    "#7b4173",
    "#3182bd",
)
OTHER_COLOR = "#b0b0b0"


@dataclass
class MapNode:
    """One concept on the map."""

    id: str
    name: str
    label: str
    aliases: list[str]
    #: papers that mention it (its size)
    papers: int
    #: index into :attr:`ConceptMap.clusters`; -1 = a cluster too small to colour ("other")
    cluster: int
    x: float
    y: float
    #: mean publication year of its papers, None when none has a year
    mean_year: float | None = None
    #: papers that propose it
    proposed_by: int = 0


@dataclass
class MapLink:
    """Two concepts used by the same papers."""

    source: str
    target: str
    #: papers that use both
    papers: int
    #: association strength: co-occurrence over what chance gives (1 = chance)
    strength: float


@dataclass
class MapCluster:
    """Concepts that go together, named by its most used ones."""

    id: int
    name: str
    size: int
    color: str
    #: ids of its concepts, most used first
    concepts: list[str] = field(default_factory=list)


@dataclass
class ConceptMap:
    """What :func:`concept_map` computed: nodes, links, clusters, and what was left out."""

    nodes: list[MapNode]
    links: list[MapLink]
    clusters: list[MapCluster]
    #: papers behind the drawn concepts
    papers: int
    #: concepts of the graph not on the map
    concepts_left_out: int = 0
    #: co-occurring pairs not drawn (weaker than each end's strongest links)
    links_left_out: int = 0
    #: one line per reason something was left out, for the user
    reasons: list[str] = field(default_factory=list)


def concept_map(
    graph: nx.DiGraph,
    *,
    max_nodes: int = DEFAULT_MAP_NODES,
    labels: Iterable[str] | None = None,
    min_papers: int = 1,
    min_cooccurrence: int | None = None,
    links_per_node: int = LINKS_PER_NODE,
    seed: int = 0,
) -> ConceptMap:
    """The co-word map of ``graph``'s most used concepts.

    Parameters
    ----------
    graph : networkx.DiGraph
        A paperkg graph (generic concepts are already left out by the build).
    max_nodes : int
        Concepts on the map, the most used first (ties: name).
    labels : iterable of str, optional
        Concept labels to map (default: all four).
    min_papers : int
        Leave out concepts used by fewer papers.
    min_cooccurrence : int, optional
        Papers two concepts must share to be linked; default 2, or 1 for a
        corpus of fewer than 200 papers, where one shared paper already says
        something.
    links_per_node : int
        A link is drawn when it is among the strongest ``links_per_node`` of
        either of its concepts.
    seed : int
        Seed of the clustering and the layout: the same graph gives the same map.

    Returns
    -------
    ConceptMap
        Nodes (most used first) with cluster and position, links (strongest
        co-occurrence count first), clusters (largest first).
    """
    check_graph(graph)
    wanted = set(CONCEPT_LABELS if labels is None else labels)
    paper_counts = _paper_counts(graph, wanted)
    if min_cooccurrence is None:
        min_cooccurrence = _default_min_cooccurrence(graph)
    chosen, reasons = _choose_concepts(graph, paper_counts, max_nodes, min_papers)
    # the papers of the concepts drawn only: a set for each of a large corpus's
    # hundreds of thousands of concepts was the peak memory of writing its map
    papers_of = {c: _papers_of(graph, c) for c in chosen}
    counts, paper_ids = _cooccurrence(chosen, papers_of)
    strength = _association_strength(counts)
    candidates = _candidate_pairs(counts, strength, min_cooccurrence)
    kept = _strongest_per_node(candidates, len(chosen), links_per_node)
    left_out_links = len(candidates) - len(kept)
    if left_out_links:
        reasons.append(
            f"{left_out_links} weaker co-occurrences (each concept keeps its "
            f"{links_per_node} strongest links)"
        )
    membership = _clusters(len(chosen), candidates, seed=seed)
    clusters, cluster_of = _name_clusters(graph, chosen, membership, papers_of, counts)
    xy = _layout(len(chosen), candidates, kept, cluster_of, seed=seed)
    return ConceptMap(
        nodes=_map_nodes(graph, chosen, papers_of, cluster_of, xy),
        links=_map_links(chosen, counts, kept),
        clusters=clusters,
        papers=len(paper_ids),
        concepts_left_out=len(paper_counts) - len(chosen),
        links_left_out=left_out_links,
        reasons=reasons,
    )


# --- choosing -----------------------------------------------------------------------


def _default_min_cooccurrence(graph: nx.DiGraph) -> int:
    """Two shared papers make a link; one already says something in a small corpus."""
    n_papers = sum(1 for _, d in graph.nodes(data=True) if d.get("label") == PAPER)
    return 1 if n_papers < 200 else 2


def _choose_concepts(
    graph: nx.DiGraph, paper_counts: dict, max_nodes: int, min_papers: int
) -> tuple[list, list[str]]:
    """The concepts on the map, the most used first (ties: name), and one line per
    reason others were left out."""
    ranked = sorted(
        (c for c, n in paper_counts.items() if n >= max(min_papers, 1)),
        key=lambda c: (-paper_counts[c], _name(graph, c).lower(), str(c)),
    )
    reasons = []
    few = len(paper_counts) - len(ranked)
    if few:
        reasons.append(f"{few} concepts used by fewer than {max(min_papers, 1)} papers")
    if len(ranked) > max_nodes:
        reasons.append(
            f"{len(ranked) - max_nodes} less used concepts beyond max_nodes={max_nodes} "
            "(raise --max-nodes to see more)"
        )
    return ranked[:max_nodes], reasons


# --- counting -----------------------------------------------------------------------


def _paper_counts(graph: nx.DiGraph, labels: set[str]) -> dict:
    """Concept of ``labels`` -> how many papers mention it themselves (none: left out).

    Links inferred from a narrower concept (``via``) are not counted: *latent
    diffusion model* papers would otherwise co-occur with *diffusion model*
    by construction.
    """
    counts: dict = {}
    nodes = graph.nodes
    for paper, concepts in graph.adjacency():
        if nodes[paper].get("label") != PAPER:
            continue
        for concept, link in concepts.items():
            if nodes[concept].get("label") in labels and not link.get("via"):
                counts[concept] = counts.get(concept, 0) + 1
    return counts


def _papers_of(graph: nx.DiGraph, concept) -> set:
    """The papers that mention ``concept`` themselves (see :func:`_paper_counts`)."""
    nodes = graph.nodes
    return {
        paper
        for paper, link in graph.pred[concept].items()
        if nodes[paper].get("label") == PAPER and not link.get("via")
    }


def _cooccurrence(chosen: list, papers_of: dict) -> tuple[np.ndarray, list]:
    """Concept x concept counts of shared papers (a sparse product, fast at 100k papers)."""
    paper_ids = sorted({p for c in chosen for p in papers_of[c]}, key=str)
    index = {p: i for i, p in enumerate(paper_ids)}
    rows, cols = [], []
    for j, c in enumerate(chosen):
        for p in papers_of[c]:
            rows.append(index[p])
            cols.append(j)
    incidence = incidence_matrix(rows, cols, (len(paper_ids), len(chosen)), dtype=np.float32)
    counts = cooccurrence(incidence).toarray()
    np.fill_diagonal(counts, 0)
    return counts, paper_ids


def _association_strength(counts: np.ndarray) -> np.ndarray:
    """``2m c_ij / (s_i s_j)``: co-occurrence over what chance gives."""
    totals = counts.sum(axis=1)
    m = totals.sum() / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        strength = 2 * m * counts / np.outer(totals, totals)
    return np.nan_to_num(strength)


def _candidate_pairs(counts: np.ndarray, strength: np.ndarray, min_cooccurrence: int) -> list:
    """``(i, j, strength)`` for every pair, ``i < j``, sharing enough papers."""
    i, j = np.nonzero(np.triu(counts >= max(min_cooccurrence, 1), k=1))
    return [(int(a), int(b), float(strength[a, b])) for a, b in zip(i, j, strict=True)]


def _strongest_per_node(candidates: list, n: int, per_node: int) -> list:
    """The pairs among the ``per_node`` strongest of either end (what can be read)."""
    by_node: list[list] = [[] for _ in range(n)]
    for pair in candidates:
        by_node[pair[0]].append(pair)
        by_node[pair[1]].append(pair)
    kept = set()
    for pairs in by_node:
        pairs.sort(key=lambda p: (-p[2], p[0], p[1]))
        kept.update(pairs[:per_node])
    return sorted(kept)


# --- clusters -----------------------------------------------------------------------


def _clusters(n: int, candidates: list, *, seed: int) -> list[set[int]]:
    """Louvain communities on association strength (seeded: the same graph, the same clusters)."""
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_weighted_edges_from(candidates)
    if g.number_of_edges() == 0:
        return [{i} for i in range(n)]
    return list(nx.community.louvain_communities(g, weight="weight", seed=seed))


def _name_clusters(graph, chosen: list, membership: list[set[int]], papers_of: dict, counts):
    """Clusters largest first, named by three concepts typical of them; tiny ones are "other".

    A cluster's name takes its most used concepts weighted by the share of
    their co-occurrences that stay inside the cluster: *accuracy* is used
    everywhere and names no cluster; *policy gradient* names the one it lives in.
    """

    def used(i: int) -> tuple:
        return (-len(papers_of[chosen[i]]), _name(graph, chosen[i]).lower())

    def typical(members: list[int]) -> list[int]:
        inside = counts[np.ix_(members, members)].sum(axis=1)
        total = counts[members].sum(axis=1)
        share = np.where(total > 0, inside / np.maximum(total, 1), 1.0)
        score = {m: len(papers_of[chosen[m]]) * share[k] for k, m in enumerate(members)}
        return sorted(members, key=lambda m: (-score[m], *used(m)))

    groups = [sorted(members, key=used) for members in membership]
    groups.sort(key=lambda members: (-len(members), used(members[0])))
    clusters: list[MapCluster] = []
    cluster_of = [-1] * len(chosen)
    for members in groups:
        if len(members) < MIN_CLUSTER_SIZE:
            continue
        number = len(clusters)
        color = CLUSTER_COLORS[number] if number < len(CLUSTER_COLORS) else OTHER_COLOR
        if color == OTHER_COLOR:
            continue
        name = ", ".join(_name(graph, chosen[i]) for i in typical(members)[:3])
        clusters.append(
            MapCluster(number, name, len(members), color, [str(chosen[i]) for i in members])
        )
        for i in members:
            cluster_of[i] = number
    return clusters, cluster_of


# --- where concepts go ----------------------------------------------------------------


def _layout(n: int, candidates: list, kept: list, cluster_of: list[int], *, seed: int):
    """Positions in a square of about ``40 * sqrt(n)`` pixels a side.

    A force-directed layout (:func:`paperkg.graph.layout.spring_layout`) over
    the pairs that share enough papers, each pulling by its association
    strength (its logarithm, so a rare pair's huge strength does not dominate),
    drawn links and links inside a cluster more; each cluster starts around
    its own point, so clusters settle apart instead of through each other.
    """
    if n <= 1:
        return np.zeros((n, 2))
    drawn = {(i, j) for i, j, _ in kept}
    src = np.array([i for i, _, _ in candidates], dtype=np.int64)
    dst = np.array([j for _, j, _ in candidates], dtype=np.int64)
    weights = np.array(
        [
            math.log1p(s)
            * (2.0 if (i, j) in drawn else 1.0)
            * (1.5 if cluster_of[i] == cluster_of[j] >= 0 else 0.5)
            for i, j, s in candidates
        ]
    )
    if len(weights):
        weights = weights / weights.mean()
    rng = np.random.default_rng(seed)
    spread = math.sqrt(n)  # the layout's side, in units of the repulsion range
    centres: dict[int, np.ndarray] = {}
    start = np.zeros((n, 2))
    for i in range(n):
        c = cluster_of[i]
        if c not in centres:
            angle = 2.399963 * len(centres)  # golden angle: centres spread evenly
            radius = 0.35 * spread * math.sqrt((len(centres) + 0.5) / 15)
            centres[c] = np.array([math.cos(angle), math.sin(angle)]) * radius
        start[i] = centres[c] + rng.normal(scale=0.08 * spread, size=2)
    xy = spring_layout(n, src, dst, iterations=80, seed=seed, weights=weights, initial=start)
    xy -= xy.mean(axis=0)
    extent = float(np.abs(xy).max()) or 1.0
    return xy / extent * 20 * math.sqrt(n)


def _years(graph, chosen: list, papers_of: dict) -> list[float | None]:
    out = []
    for c in chosen:
        years = [graph.nodes[p].get("year") for p in papers_of[c]]
        years = [int(y) for y in years if isinstance(y, int | float) and not isinstance(y, bool)]
        out.append(round(sum(years) / len(years), 2) if years else None)
    return out


def _proposed_by(graph, chosen: list) -> list[int]:
    return [
        sum(1 for _, _, d in graph.in_edges(c, data=True) if d.get("type") == "PROPOSES")
        for c in chosen
    ]


def _name(graph, node) -> str:
    data = graph.nodes[node]
    return str(data.get("name") or node)


def _aliases(graph, node) -> list[str]:
    name = _name(graph, node)
    aliases = graph.nodes[node].get("aliases") or []
    if isinstance(aliases, str):  # GraphML round trips lists as strings
        aliases = [a for a in aliases.split("; ") if a]
    return [str(a) for a in aliases if str(a) != name]


# --- what is drawn --------------------------------------------------------------------


def _map_nodes(graph, chosen: list, papers_of: dict, cluster_of: list[int], xy) -> list[MapNode]:
    """The chosen concepts as map nodes, in their order, with cluster and position."""
    years = _years(graph, chosen, papers_of)
    proposed = _proposed_by(graph, chosen)
    return [
        MapNode(
            id=str(c),
            name=_name(graph, c),
            label=str(graph.nodes[c].get("label")),
            aliases=_aliases(graph, c),
            papers=len(papers_of[c]),
            cluster=cluster_of[i],
            x=round(float(xy[i, 0]), 1),
            y=round(float(xy[i, 1]), 1),
            mean_year=years[i],
            proposed_by=proposed[i],
        )
        for i, c in enumerate(chosen)
    ]


def _map_links(chosen: list, counts: np.ndarray, kept: list) -> list[MapLink]:
    """The drawn pairs as links, the most shared papers first."""
    links = [
        MapLink(str(chosen[i]), str(chosen[j]), int(counts[i, j]), round(float(s), 3))
        for i, j, s in kept
    ]
    links.sort(key=lambda link: (-link.papers, -link.strength, link.source, link.target))
    return links
