"""Which nodes and edges the paper view draws, and why it leaves the others out.

A browser draws a few thousand nodes smoothly, a corpus has far more, and a
view that silently drops nodes misleads (pyvis #204). So :func:`select_nodes`
keeps the most connected concepts, each followed by its papers, until the
budget is spent, and :func:`select_edges` keeps every paper-concept edge
before the strongest co-occurrences (:func:`strongest_pairs`); both say in one line per reason what they
left out, for :class:`paperkg.export.html.ViewReport`.

Examples
--------
>>> import networkx as nx
>>> from paperkg.graph.schema import NODE_LABELS
>>> g = nx.DiGraph()
>>> g.add_node("paper:1", label="Paper", name="P1")
>>> g.add_node("Method:bert", label="Method", name="BERT", paper_count=1)
>>> g.add_node("Task:qa", label="Task", name="QA", paper_count=1)
>>> g.add_edge("paper:1", "Method:bert", type="USES")
>>> g.add_edge("paper:1", "Task:qa", type="ADDRESSES")
>>> keep, reasons = select_nodes(g, max_nodes=2, labels=set(NODE_LABELS), min_papers=0)
>>> sorted(keep), reasons
(['Method:bert', 'paper:1'], ['more than max_nodes=2 nodes: kept the most connected concepts and their papers (raise --max-nodes to see more)'])
>>> list(edge_pairs(g, keep))
[('paper:1', 'Method:bert')]
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

from ..defaults import EDGES_PER_NODE, MIN_EDGE_BUDGET
from ..errors import ExportError
from ..graph.schema import CO_OCCURS, CONCEPT_LABELS, NODE_LABELS, PAPER

__all__ = [
    "check_labels",
    "count_labels",
    "edge_pairs",
    "pair_weight",
    "paper_count",
    "papers_of",
    "select_edges",
    "select_nodes",
    "strongest_pairs",
]


def check_labels(labels: Iterable[str] | None) -> set[str]:
    """The node labels asked for (default: all); an unknown label is an :class:`ExportError`."""
    if labels is None:
        return set(NODE_LABELS)
    wanted = {label.strip() for label in labels if label.strip()}
    unknown = wanted - set(NODE_LABELS)
    if unknown or not wanted:
        raise ExportError(
            f"unknown node label(s) {sorted(unknown) or '(none given)'}; "
            f"choose from {', '.join(NODE_LABELS)}"
        )
    return wanted


def select_nodes(
    graph: nx.DiGraph, *, max_nodes: int, labels: set[str], min_papers: int
) -> tuple[set, list[str]]:
    """The nodes to draw, and one line per reason others were left out."""
    reasons: list[str] = []
    concepts = [n for n, d in graph.nodes(data=True) if d.get("label") != PAPER]
    papers = [n for n, d in graph.nodes(data=True) if d.get("label") == PAPER]

    unwanted = {graph.nodes[n].get("label") for n in graph.nodes} - labels
    if unwanted:
        reasons.append(f"labels not asked for: {', '.join(sorted(map(str, unwanted)))}")
    concepts = [n for n in concepts if graph.nodes[n].get("label") in labels]
    if min_papers:
        few = [n for n in concepts if paper_count(graph, n) < min_papers]
        if few:
            reasons.append(f"{len(few)} concepts found in fewer than {min_papers} papers")
        concepts = [n for n in concepts if paper_count(graph, n) >= min_papers]
    with_papers = PAPER in labels

    # most connected first: paper count, then degree, then id for a stable order
    concepts.sort(key=lambda n: (-paper_count(graph, n), -graph.degree(n), str(n)))
    keep: set = set()
    over_budget = False
    for concept in concepts:
        if len(keep) >= max_nodes:
            over_budget = True
            break
        keep.add(concept)
        if not with_papers:
            continue
        its_papers = [p for p in papers_of(graph, concept) if p not in keep]
        its_papers.sort(key=lambda p: (-graph.degree(p), str(p)))
        room = max_nodes - len(keep)
        if len(its_papers) > room:
            over_budget = True
        keep.update(its_papers[:room])
    if with_papers and not min_papers and labels >= set(CONCEPT_LABELS):
        # papers without any concept (rare) still belong in the full view
        lonely = sorted((p for p in papers if p not in keep), key=lambda p: (-graph.degree(p), p))
        room = max_nodes - len(keep)
        if len(lonely) > room:
            over_budget = True
        keep.update(lonely[: max(room, 0)])
    if over_budget:
        reasons.append(
            f"more than max_nodes={max_nodes} nodes: kept the most connected concepts "
            "and their papers (raise --max-nodes to see more)"
        )
    elif with_papers:
        dropped = [p for p in papers if p not in keep]
        if dropped:
            reasons.append(f"{len(dropped)} papers linked to no concept that is drawn")
    return keep, reasons


def select_edges(
    graph: nx.DiGraph, keep: set, *, max_edges: int | None
) -> tuple[dict[tuple, list[dict]], list[str]]:
    """The edges to draw between the ``keep`` nodes, grouped by pair, and the line saying
    how many were left out, if any.

    At most ``max_edges`` pairs (default: :data:`~paperkg.defaults.EDGES_PER_NODE` per
    node, at least :data:`~paperkg.defaults.MIN_EDGE_BUDGET`), chosen by
    :func:`strongest_pairs`.
    """
    all_pairs = edge_pairs(graph, keep)
    if max_edges is None:
        budget = max(EDGES_PER_NODE * len(keep), MIN_EDGE_BUDGET)
    else:
        budget = max_edges
    pairs = strongest_pairs(all_pairs, budget)
    reasons = []
    if len(pairs) < len(all_pairs):
        reasons.append(
            f"{len(all_pairs) - len(pairs)} edges beyond max_edges={budget}: kept "
            "paper-concept edges first, then the strongest co-occurrences"
        )
    return pairs, reasons


def paper_count(graph: nx.DiGraph, node) -> int:
    """Papers that mention ``node``: its ``paper_count``, else its paper neighbours."""
    count = graph.nodes[node].get("paper_count")
    return int(count) if count is not None else len(papers_of(graph, node))


def papers_of(graph: nx.DiGraph, node) -> list:
    """The papers with an edge to ``node``."""
    return [p for p in graph.predecessors(node) if graph.nodes[p].get("label") == PAPER]


def count_labels(graph: nx.DiGraph, nodes: Iterable) -> dict[str, int]:
    """Nodes per label: every schema label (0 when absent), then any other label met."""
    counts = dict.fromkeys(NODE_LABELS, 0)
    for n in nodes:
        label = str(graph.nodes[n].get("label", "?"))
        counts[label] = counts.get(label, 0) + 1
    return counts


def strongest_pairs(pairs: dict[tuple, list[dict]], budget: int) -> dict[tuple, list[dict]]:
    """At most ``budget`` pairs: every paper-concept pair first, then co-occurrence by weight."""
    if len(pairs) <= budget:
        return pairs

    def rank(item):
        (u, v), datas = item
        co_occurs = all(d.get("type") == CO_OCCURS for d in datas)
        return (co_occurs, -pair_weight(datas), str(u), str(v))

    return dict(sorted(pairs.items(), key=rank)[: max(budget, 0)])


def edge_pairs(graph: nx.DiGraph, keep: set) -> dict[tuple, list[dict]]:
    """Edges between kept nodes, grouped by node pair (one drawn edge per pair).

    A paper's edge to a broader concept inferred from a narrower one (``via``) is
    not drawn: the narrower concept's IS_A edge already shows it.
    """
    pairs: dict[tuple, list[dict]] = {}
    for u, v, data in graph.edges(data=True):
        if u in keep and v in keep and u != v and not data.get("via"):
            key = (u, v) if (v, u) not in pairs else (v, u)
            pairs.setdefault(key, []).append(data)
    return pairs


def pair_weight(datas: list[dict]) -> float:
    """The weight of a drawn edge: the summed weights (or counts) of the edges it stands for."""
    return float(sum(d.get("weight", d.get("count", 1)) or 1 for d in datas))
