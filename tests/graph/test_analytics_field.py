"""The analyses a report is made of, on the toy field and on synthetic fields.

The toy field (:func:`paperkg.graph.synthetic.toy_field`) is small enough to
check by hand: three graph-learning papers, two question-answering papers and a
paper that uses both a GNN and BERT.
"""

from pathlib import Path

import networkx as nx
import pytest
from synthetic_field import synthetic_field

from paperkg.errors import GraphError
from paperkg.graph import analytics
from paperkg.graph.synthetic import toy_field

BENCH = Path(__file__).resolve().parents[2] / "bench"  # synthetic_field, for a subprocess

EVERY_ANALYSIS = {
    "centrality_table": lambda g: analytics.centrality_table(g),
    "central_concepts": lambda g: analytics.central_concepts(g, method="betweenness"),
    "named_communities": lambda g: analytics.named_communities(g),
    "label_cooccurrence": lambda g: analytics.label_cooccurrence(g).counts,
    "concept_trends": lambda g: analytics.concept_trends(g, min_papers=1),
    "proposals_per_task": lambda g: analytics.proposals_per_task(g),
    "years": lambda g: analytics.years(g),
}


def one_paper_graph():
    g = nx.DiGraph()
    g.add_node("paper:1", label="Paper", name="p", year=2024)
    g.add_node("Method:x", label="Method", name="x", paper_count=1)
    g.add_node("Task:y", label="Task", name="y", paper_count=1)
    g.add_edge("paper:1", "Method:x", type="PROPOSES")
    g.add_edge("paper:1", "Task:y", type="ADDRESSES")
    g.add_edge("Method:x", "Task:y", type="CO_OCCURS_WITH", weight=1)
    return g


@pytest.mark.parametrize("name", EVERY_ANALYSIS)
def test_every_analysis_answers_an_empty_and_a_one_paper_graph(name):
    analysis = EVERY_ANALYSIS[name]
    assert not analysis(nx.DiGraph())
    analysis(one_paper_graph())  # no error, whatever the (tiny) answer


def test_one_paper_graph_gives_the_obvious_answers():
    g = one_paper_graph()
    assert [(r.label, r.name) for r in analytics.centrality_table(g)] == [
        ("Method", "x"),
        ("Task", "y"),
    ]
    assert analytics.similar_papers_explained(g, "paper:1") == []
    assert analytics.concept_trends(g) == []  # one year: no trend
    [proposal] = analytics.proposals_per_task(g)
    assert (proposal.task, proposal.concept, proposal.papers) == ("Task:y", "Method:x", ["paper:1"])


def test_the_bridge_between_two_sub_fields_has_the_highest_betweenness():
    # graph neural network is the only Method in both sub-fields' papers
    top = analytics.central_concepts(toy_field(), label="Method", method="betweenness", n=1)
    assert top[0][0] == "Method:graph neural network"


def test_communities_are_the_two_sub_fields_and_hold_their_papers():
    first, second = analytics.named_communities(toy_field())
    assert "Dataset:cora" in first.concepts and "Dataset:squad" in second.concepts
    assert set(first.papers) >= {"paper:gnn", "paper:gat", "paper:ogb"}
    assert set(second.papers) >= {"paper:bert", "paper:squad2"}
    assert second.name == "BERT · question answering · F1"


def test_communities_are_the_same_for_the_same_seed():
    g = synthetic_field(400, seed=5)
    assert analytics.named_communities(g, seed=3) == analytics.named_communities(g, seed=3)


def test_a_shared_rare_concept_counts_more_than_a_shared_common_one():
    g = toy_field()
    rarity = {c: analytics.concept_rarity(g, c) for c in ("Dataset:cora", "Metric:accuracy")}
    assert rarity["Dataset:cora"] > rarity["Metric:accuracy"]  # 2 papers against 4
    best = analytics.similar_papers_explained(g, "paper:gat", n=1)[0]
    assert best.paper == "paper:gnn" and best.shared[0] == "Dataset:cora"


def test_similar_papers_to_an_unknown_paper_is_a_clear_error():
    with pytest.raises(GraphError, match="paper ids look like"):
        analytics.similar_papers_explained(toy_field(), "paper:nope")


def test_the_method_task_table_counts_papers_mentioning_both():
    table = analytics.label_cooccurrence(toy_field(), "Method", "Task")
    cell = dict(((p.row_name, p.column_name), p.papers) for p in table.pairs())
    assert cell[("graph neural network", "node classification")] == 3
    assert cell[("graph neural network", "question answering")] == 1  # the bridge paper
    assert ("BERT", "node classification") not in cell


def test_rising_and_falling_concepts_follow_their_share_of_each_year():
    trends = {t.name: t for t in analytics.concept_trends(toy_field(), min_papers=2)}
    assert trends["BERT"].slope > 0 and trends["Cora"].slope < 0
    assert trends["graph neural network"].first_share == 100.0  # the one 2022 paper


def test_trends_need_two_years():
    g = toy_field()
    for paper in analytics.base.papers(g):
        g.nodes[paper]["year"] = 2024
    assert analytics.concept_trends(g) == []


def test_proposals_are_grouped_by_task_most_proposing_task_first():
    rows = analytics.proposals_per_task(toy_field())
    assert [r.task_name for r in rows][:3] == ["node classification"] * 3
    assert {(r.task_name, r.name) for r in rows} >= {
        ("question answering", "BERT"),
        ("question answering", "SQuAD 2.0"),
    }


def test_betweenness_is_networkx_exact_below_the_sample_size():
    co = analytics.cooccurrence_graph(synthetic_field(200, seed=2))
    assert co.number_of_nodes() <= 10_000
    exact = nx.betweenness_centrality(co)
    ours = analytics.betweenness(co, samples=co.number_of_nodes())
    assert max(abs(exact[v] - ours[v]) for v in co) < 1e-12


def test_sampled_betweenness_finds_the_same_top_concepts():
    co = analytics.cooccurrence_graph(synthetic_field(400, seed=4))
    exact = nx.betweenness_centrality(co)
    sampled = analytics.betweenness(co, samples=150, seed=1)
    top = set(sorted(exact, key=exact.get, reverse=True)[:10])
    assert len(top & set(sorted(sampled, key=sampled.get, reverse=True)[:10])) >= 7
    assert sampled == analytics.betweenness(co, samples=150, seed=1)


@pytest.mark.parametrize("samples", [100, 10_000])
def test_the_igraph_backend_gives_the_same_scores(samples):
    pytest.importorskip("igraph")
    co = analytics.cooccurrence_graph(synthetic_field(400, seed=6))
    for measure in (
        analytics.pagerank,
        lambda co, **kw: analytics.betweenness(co, samples=samples, **kw),
    ):
        nx_scores, ig_scores = measure(co), measure(co, backend="igraph")
        assert nx_scores.keys() == ig_scores.keys()
        assert max(abs(nx_scores[v] - ig_scores[v]) for v in co) < 1e-6


def test_an_unknown_backend_is_a_clear_error():
    with pytest.raises(GraphError, match="use networkx, igraph or auto"):
        analytics.centrality_table(toy_field(), backend="graphblas")


def test_a_graph_without_paper_counts_counts_paper_edges():
    g = toy_field()
    for _, d in g.nodes(data=True):
        d.pop("paper_count", None)
    rows = analytics.centrality_table(g, n=1, labels=("Method",))
    assert (rows[0].name, rows[0].papers) == ("graph neural network", 4)


def test_tasks_are_ranked_by_the_papers_proposing_for_them_each_counted_once():
    g = nx.DiGraph()
    g.add_nodes_from(["Task:a", "Task:b"], label="Task")
    for paper, task, methods in [("p1", "Task:a", ["m1", "m2", "m3"]),
                                 ("p2", "Task:b", ["m4"]), ("p3", "Task:b", ["m5"])]:  # fmt: skip
        g.add_node(paper, label="Paper")
        g.add_edge(paper, task, type="ADDRESSES")
        for m in methods:
            g.add_node(f"Method:{m}", label="Method")
            g.add_edge(paper, f"Method:{m}", type="PROPOSES")
    assert analytics.proposals_per_task(g)[0].task == "Task:b"  # two papers against one


def test_a_sampled_betweenness_is_still_a_share():
    star = nx.star_graph(400)
    scores = analytics.betweenness(nx.relabel_nodes(star, str), samples=50, seed=3)
    assert max(scores.values()) <= 1.0


def test_similarity_scores_do_not_depend_on_the_hash_seed():
    import subprocess
    import sys

    code = (
        "from synthetic_field import synthetic_field;"
        "from paperkg.graph.analytics import similar_papers;"
        "print(similar_papers(synthetic_field(200, seed=1), 'paper:syn3'))"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": seed, "PATH": "", "PYTHONPATH": str(BENCH)},
        ).stdout  # fmt: skip
        for seed in ("1", "2", "3")
    }
    assert len(outputs) == 1
