"""A six-paper paperkg graph for the docstring examples, and the counts a builder adds.

:func:`toy_field` is two sub-fields and a bridge, small enough to read in an
example; graphs of thousands of papers shaped like a real field, for benchmarks and
tests, are ``bench/synthetic_field.py``'s.
"""

from __future__ import annotations

import networkx as nx

from .schema import CO_OCCURS, EDGE_TYPE_FOR_LABEL, PROPOSES, concept_node_id, paper_node_id

__all__ = ["toy_field", "with_counts"]


#: the toy corpus: paper -> (year, proposed concepts, used concepts)
_TOY = {
    "gnn": (2022, ["Method:graph neural network"],
            ["Dataset:Cora", "Task:node classification", "Metric:accuracy"]),
    "gat": (2023, ["Method:graph attention network"],
            ["Method:graph neural network", "Dataset:Cora", "Task:node classification",
             "Metric:accuracy"]),
    "ogb": (2023, ["Dataset:ogbn-arxiv"],
            ["Method:graph neural network", "Task:node classification", "Metric:accuracy"]),
    "bert": (2024, ["Method:BERT"], ["Dataset:SQuAD", "Task:question answering", "Metric:F1"]),
    "squad2": (2024, ["Dataset:SQuAD 2.0"],
               ["Method:BERT", "Task:question answering", "Metric:F1"]),
    "graphqa": (2024, [], ["Method:graph neural network", "Method:BERT",
                           "Task:question answering", "Metric:accuracy"]),
}  # fmt: skip


def toy_field() -> nx.DiGraph:
    """Six papers, two sub-fields and a bridge: the graph the docstring examples use.

    Three graph-learning papers (2022-2023: graph neural networks on Cora for
    node classification), two question-answering papers (2024: BERT on SQuAD),
    and one 2024 paper that uses both a GNN and BERT for question answering.

    Examples
    --------
    >>> g = toy_field()
    >>> sorted(g.successors("paper:gat"))
    ['Dataset:cora', 'Method:graph attention network', 'Method:graph neural network',
     'Metric:accuracy', 'Task:node classification']
    """
    g = nx.DiGraph()
    for paper, (year, proposed, used) in _TOY.items():
        g.add_node(
            paper_node_id(paper), label="Paper", name=paper, title=paper, year=year, venue="TOY"
        )
        for concept in proposed + used:
            label, name = concept.split(":", 1)
            node = concept_node_id(label, name.lower())
            g.add_node(node, label=label, name=name, key=name.lower(), aliases=[name])
            kind = PROPOSES if concept in proposed else EDGE_TYPE_FOR_LABEL[label]
            g.add_edge(paper_node_id(paper), node, type=kind, count=1, weight=1)
    with_counts(g, min_cooccurrence=1)
    return g


def with_counts(g: nx.DiGraph, min_cooccurrence: int = 2) -> None:
    """Paper counts and CO_OCCURS edges, as the builder writes them; unused concepts go."""
    papers_of: dict[str, set] = {}
    for u, v in g.edges():
        papers_of.setdefault(v, set()).add(u)
    for node in [n for n, d in g.nodes(data=True) if d["label"] != "Paper"]:
        if node not in papers_of:
            g.remove_node(node)
        else:
            g.nodes[node]["paper_count"] = len(papers_of[node])
            g.nodes[node]["mention_count"] = len(papers_of[node])
    pairs: dict[tuple, int] = {}
    for paper in [n for n, d in g.nodes(data=True) if d["label"] == "Paper"]:
        concepts = sorted(set(g.successors(paper)))
        for a_i, a in enumerate(concepts):
            for b in concepts[a_i + 1 :]:
                pairs[(a, b)] = pairs.get((a, b), 0) + 1
    for (a, b), n in pairs.items():
        if n >= min_cooccurrence:
            g.add_edge(a, b, type=CO_OCCURS, weight=n)
