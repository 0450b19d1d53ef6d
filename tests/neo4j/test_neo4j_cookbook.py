"""Every query of the Cypher cookbook (docs/neo4j.md), run on the example corpus in a real Neo4j.

Each result is checked against the same question answered with networkx on the
graph that was pushed, plus the facts the example must show (its datasets and
the methods its papers propose).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from pathlib import Path

import networkx as nx
import pytest

import paperkg
from paperkg.export.neo4j_load import push_graph
from paperkg.graph.schema import ADDRESSES, CO_OCCURS, EVALUATES_ON, IS_A, PAPER, PROPOSES

pytestmark = pytest.mark.neo4j

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "iclr2025_abstracts.txt"


def cookbook() -> dict[str, str]:
    """Heading -> query, from docs/neo4j.md between the cookbook markers."""
    page = (ROOT / "docs" / "neo4j.md").read_text(encoding="utf-8")
    section = page.split("<!-- cookbook:start -->")[1].split("<!-- cookbook:end -->")[0]
    return dict(re.findall(r"^#### (.+?)\n+```cypher\n(.*?)```", section, flags=re.S | re.M))


@pytest.fixture(scope="module")
def example(driver, empty_db_module):
    """The example corpus built by paperkg and pushed into the test server."""
    graph = paperkg.build_graph([EXAMPLE])
    push_graph(driver, graph)
    return graph


@pytest.fixture(scope="module")
def empty_db_module(driver):
    with driver.session() as session:
        session.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS").consume()


def run(driver, heading):
    records = driver.execute_query(cookbook()[heading]).records
    return [r.data() for r in records]


# --- the same questions in networkx --------------------------------------------------------


def nodes_of(graph, label):
    return [(n, d) for n, d in graph.nodes(data=True) if d["label"] == label]


def edges_of(graph, rel):
    return [(u, v, d) for u, v, d in graph.edges(data=True) if d["type"] == rel]


def name(graph, node):
    return graph.nodes[node]["name"]


def named(graph, wanted, label=None):
    return [
        n
        for n, d in graph.nodes(data=True)
        if d["name"].lower() == wanted and (label is None or d["label"] == label)
    ]


# --- one test per cookbook entry -----------------------------------------------------------


def test_the_cookbook_has_every_query_tested():
    assert 6 <= len(cookbook()) <= 12
    assert set(cookbook()) == set(CHECKS)


def check_counts(rows, graph):
    counts = Counter(d["label"] for _, d in graph.nodes(data=True))
    assert rows == [
        {"label": label, "nodes": n}
        for label, n in sorted(counts.items(), key=lambda x: (-x[1], x[0]))
    ]
    assert {"label": "Paper", "nodes": 19} in rows


def check_proposals(rows, graph):
    expected = sorted(
        (name(graph, p), name(graph, m), graph.nodes[m]["aliases"])
        for p, m, _ in edges_of(graph, PROPOSES)
        if graph.nodes[m]["label"] == "Method"
    )
    assert sorted((r["paper"], r["method"], r["aliases"]) for r in rows) == expected
    proposed = {r["method"].lower() for r in rows} | {a.lower() for r in rows for a in r["aliases"]}
    for method in ["LADS", "Light-DDG", "SelKD", "SIIHPC", "EmbedLLM"]:
        assert method.lower() in proposed, method


def check_datasets(rows, graph):
    papers = defaultdict(set)
    for p, d, _ in edges_of(graph, EVALUATES_ON):
        papers[name(graph, d)].add(p)
    expected = sorted(((n, len(ps)) for n, ps in papers.items()), key=lambda x: (-x[1], x[0]))
    assert [(r["dataset"], r["papers"]) for r in rows] == expected
    assert {"CIFAR-10", "CIFAR-100", "ImageNet-100"} <= {r["dataset"] for r in rows}


def paper_targets(graph, rel, label):
    out = defaultdict(set)
    for p, c, _ in edges_of(graph, rel):
        if graph.nodes[c]["label"] == label:
            out[p].add(c)
    return out


def check_methods_per_task(rows, graph):
    tasks = paper_targets(graph, ADDRESSES, "Task")
    methods = paper_targets(graph, PROPOSES, "Method")
    by_task = defaultdict(lambda: (set(), set()))
    for paper in tasks.keys() & methods.keys():
        for t in tasks[paper]:
            by_task[name(graph, t)][0].update(name(graph, m) for m in methods[paper])
            by_task[name(graph, t)][1].add(paper)
    expected = sorted(
        ((t, ms, len(ps)) for t, (ms, ps) in by_task.items()), key=lambda x: (-x[2], x[0])
    )
    assert [(r["task"], set(r["methods"]), r["papers"]) for r in rows] == expected
    assert rows, "some example paper proposes a method for a task"


def check_datasets_per_task(rows, graph):
    tasks = paper_targets(graph, ADDRESSES, "Task")
    datasets = paper_targets(graph, EVALUATES_ON, "Dataset")
    papers = defaultdict(set)
    for paper in tasks.keys() & datasets.keys():
        for t in tasks[paper]:
            for d in datasets[paper]:
                papers[(name(graph, t), name(graph, d))].add(paper)
    expected = sorted(((*k, len(v)) for k, v in papers.items()), key=lambda x: (-x[2], x[0], x[1]))
    assert [(r["task"], r["dataset"], r["papers"]) for r in rows] == expected


def check_shared_concepts(rows, graph):
    concepts = {p: {name(graph, c) for c in graph.successors(p)} for p, _ in nodes_of(graph, PAPER)}
    expected = []
    for a in concepts:
        for b in concepts:
            shared = concepts[a] & concepts[b]
            if a < b and len(shared) >= 2:
                expected.append((name(graph, a), name(graph, b), shared))
    expected.sort(key=lambda x: (-len(x[2]), x[0], x[1]))
    assert [(r["paper"], r["other"], set(r["shared"])) for r in rows] == expected


def check_cooccurring(rows, graph):
    (kd,) = named(graph, "knowledge distillation", "Method")
    pairs = [
        (v if u == kd else u, d["weight"]) for u, v, d in edges_of(graph, CO_OCCURS) if kd in (u, v)
    ]
    expected = sorted(
        ((name(graph, c), graph.nodes[c]["label"], w) for c, w in pairs),
        key=lambda x: (-x[2], x[0]),
    )[:10]
    assert [(r["concept"], r["label"], r["papers"]) for r in rows] == expected
    assert rows


def check_shortest_path(rows, graph):
    undirected = nx.Graph(graph.to_undirected())
    expected = []
    for a in named(graph, "knowledge distillation", "Method"):
        for b in named(graph, "classification", "Task"):
            if nx.has_path(undirected, a, b):
                length = nx.shortest_path_length(undirected, a, b)
                if length <= 6:
                    expected.append(length)
    assert sorted(r["length"] for r in rows) == sorted(expected)
    for r in rows:
        assert r["hops"][0].lower() == "knowledge distillation"
        assert r["hops"][-1].lower() == "classification"
        assert len(r["hops"]) == r["length"] + 1


def check_kinds(rows, graph):
    (lm,) = named(graph, "diffusion maps", "Method")
    narrower = nx.DiGraph((u, v) for u, v, _ in edges_of(graph, IS_A))
    kinds = nx.ancestors(narrower, lm) if lm in narrower else set()
    expected = sorted(
        ((name(graph, k), graph.nodes[k]["paper_count"]) for k in kinds),
        key=lambda x: (-x[1], x[0]),
    )
    assert [(r["kind"], r["papers"]) for r in rows] == expected
    assert {r["kind"].lower() for r in rows} >= {"supervised diffusion maps"}


def check_top_concepts(rows, graph):
    concepts = [
        (d["name"], d["paper_count"]) for _, d in graph.nodes(data=True) if d["label"] != PAPER
    ]
    expected = sorted(concepts, key=lambda x: (-x[1], x[0]))[:10]
    assert [(r["concept"], r["papers"]) for r in rows] == expected


def check_evidence(rows, graph):
    (lads,) = named(graph, "lads", "Method")
    expected = sorted(
        (name(graph, p), d["evidence"]) for p, m, d in edges_of(graph, PROPOSES) if m == lads
    )
    assert sorted((r["paper"], r["evidence"]) for r in rows) == expected
    assert rows and all("LADS" in r["evidence"] for r in rows)


CHECKS = {
    "What is in the graph": check_counts,
    "What each paper proposes": check_proposals,
    "The datasets most papers evaluate on": check_datasets,
    "Methods proposed for each task": check_methods_per_task,
    "Datasets used for each task": check_datasets_per_task,
    "Papers that share at least two concepts": check_shared_concepts,
    "Concepts that co-occur most with a method": check_cooccurring,
    "How two concepts are connected (shortest path)": check_shortest_path,
    "Kinds of a concept (IS_A, by head phrase)": check_kinds,
    "The concepts most papers mention": check_top_concepts,
    "The sentence behind a claim": check_evidence,
}


@pytest.mark.parametrize("heading", list(CHECKS))
def test_cookbook_query(heading, driver, example):
    CHECKS[heading](run(driver, heading), example)
