"""Analytics on a small graph whose answers can be checked by hand."""

import networkx as nx
import pytest

from paperkg.errors import GraphError
from paperkg.graph.analytics import (
    central_concepts,
    concept_communities,
    cooccurring_concepts,
    similar_papers,
    trends_by_year,
)


def corpus(papers):
    """Build a paperkg-shaped graph from {paper: (year, [concepts])}."""
    G = nx.DiGraph()
    counts = {}
    for paper, (year, concepts) in papers.items():
        G.add_node(paper, label="Paper", name=paper, year=year)
        for c in concepts:
            G.add_edge(paper, c, type="USES")
            counts[c] = counts.get(c, 0) + 1
        for i, a in enumerate(sorted(concepts)):
            for b in sorted(concepts)[i + 1 :]:
                if G.has_edge(a, b):
                    G.edges[a, b]["weight"] += 1
                else:
                    G.add_edge(a, b, type="CO_OCCURS_WITH", weight=1)
    for c, n in counts.items():
        G.nodes[c].update(label=c.split(":")[0], name=c.split(":")[1], paper_count=n)
    return G


@pytest.fixture
def G():
    return corpus(
        {
            "paper:1": (2023, ["Method:gnn", "Dataset:cora", "Task:node cls"]),
            "paper:2": (2024, ["Method:gnn", "Dataset:cora"]),
            "paper:3": (2024, ["Method:gnn", "Task:node cls"]),
            "paper:4": (2024, ["Method:bert", "Dataset:squad"]),
            "paper:5": (2024, ["Method:bert", "Dataset:squad", "Task:qa"]),
        }
    )


def test_the_hub_concept_is_most_central(G):
    assert central_concepts(G, n=1)[0][0] == "Method:gnn"
    assert central_concepts(G, label="Dataset", method="papers") == [
        ("Dataset:cora", 2),
        ("Dataset:squad", 2),
    ]


def test_communities_separate_the_two_fields(G):
    comm = concept_communities(G)
    assert comm["Method:gnn"] == comm["Dataset:cora"] == comm["Task:node cls"]
    assert comm["Method:bert"] == comm["Dataset:squad"] != comm["Method:gnn"]


def test_similar_papers_share_concepts(G):
    ranked = [p for p, _ in similar_papers(G, "paper:1")]
    assert ranked[:2] == ["paper:2", "paper:3"] or ranked[:2] == ["paper:3", "paper:2"]
    assert "paper:4" not in ranked
    assert similar_papers(G, "paper:5")[0][0] == "paper:4"


def test_cooccurring_concepts_count_papers(G):
    assert cooccurring_concepts(G, "Method:gnn") == [("Dataset:cora", 2), ("Task:node cls", 2)]
    assert cooccurring_concepts(G, "Method:gnn", label="Task") == [("Task:node cls", 2)]


def test_trends_count_papers_per_year(G):
    assert trends_by_year(G)["Method:gnn"] == {2023: 1, 2024: 2}
    assert trends_by_year(G, label="Task") == {
        "Task:node cls": {2023: 1, 2024: 1},
        "Task:qa": {2024: 1},
    }


def test_empty_and_one_node_graphs():
    empty = nx.DiGraph()
    assert (
        central_concepts(empty) == []
        and concept_communities(empty) == {}
        and trends_by_year(empty) == {}
    )
    one = corpus({"paper:1": (2024, ["Method:x"])})
    assert central_concepts(one) == [("Method:x", 1.0)]
    assert similar_papers(one, "paper:1") == []


def test_other_graph_kinds_are_refused_with_a_hint():
    with pytest.raises(GraphError, match="expected the networkx.DiGraph paperkg builds"):
        central_concepts(nx.Graph())
    # graph.json format 1 was a MultiDiGraph: the error names the conversion
    with pytest.raises(GraphError, match=r"one_edge_per_pair\(graph\)"):
        trends_by_year(nx.MultiDiGraph())
    with pytest.raises(GraphError, match="paper:"):
        similar_papers(corpus({}), "nope")


def test_kinds_of_a_concept_on_the_example(example_graph):
    from paperkg.graph import analytics

    kinds = dict(analytics.kinds_of(example_graph, "Method:diffusion map"))
    assert set(kinds) == {"Method:supervised diffusion map", "Method:semi-supervised diffusion map"}
    assert all(example_graph.nodes[k]["label"] == "Method" for k in kinds)
