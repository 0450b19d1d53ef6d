"""`paperkg build` end to end on the bundled example, as a user runs it."""

import json
import re
import subprocess
import sys

import networkx as nx
import pytest

from paperkg import load_graph

PROPOSED_METHODS = ["LADS", "Light-DDG", "SelKD", "SIIHPC", "EmbedLLM"]


@pytest.fixture(scope="module")
def built(tmp_path_factory, repo_root):
    """The example built with the default model, as the README's first command does."""
    out = tmp_path_factory.mktemp("out")
    model = []
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "paperkg.cli",
            "build",
            "examples/iclr2025_abstracts.txt",
            "-o",
            str(out),
            *model,
        ],
        cwd=repo_root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return out, proc.stdout


def concept_named(G, label, name):
    """The node of ``label`` whose name or aliases include ``name``."""
    hits = [
        n
        for n, d in G.nodes(data=True)
        if d["label"] == label and (d["name"] == name or name in d.get("aliases", []))
    ]
    assert len(hits) == 1, f"{label} {name!r}: {hits}"
    return hits[0]


def test_outputs_are_written(built):
    out, _ = built
    for name in ["graph.json", "graph.graphml", "graph.html", "neo4j/import.cypher"]:
        assert (out / name).is_file(), name
    assert list((out / "neo4j").glob("*.csv"))


def test_the_header_line_is_not_a_paper_and_gives_venue_and_year(built):
    G = load_graph(built[0] / "graph.json")
    papers = [d for _, d in G.nodes(data=True) if d["label"] == "Paper"]
    assert len(papers) == 19
    assert {(p["venue"], p["year"]) for p in papers} == {("ICLR", 2025)}


def test_every_paper_links_to_a_concept(built):
    G = load_graph(built[0])
    for node, d in G.nodes(data=True):
        if d["label"] == "Paper":
            assert G.out_degree(node) >= 1, d["name"]


@pytest.mark.parametrize("name", PROPOSED_METHODS)
def test_named_methods_are_proposed_by_their_papers(built, name):
    G = load_graph(built[0])
    method = concept_named(G, "Method", name)
    proposers = [u for u, _, kind in G.in_edges(method, data="type") if kind == "PROPOSES"]
    assert len(proposers) == 1
    assert name in G.nodes[proposers[0]]["abstract"]
    assert G.nodes[method]["name"] == name


def test_cifar_variants_are_three_distinct_datasets(built):
    G = load_graph(built[0])
    nodes = {concept_named(G, "Dataset", n) for n in ["CIFAR-10", "CIFAR-100", "ImageNet-100"]}
    assert len(nodes) == 3


def test_code_links_become_a_property(built):
    G = load_graph(built[0])
    urls = {d.get("code_url") for _, d in G.nodes(data=True) if d["label"] == "Paper"}
    assert "https://github.com/PKU-ML/Projector_Theory" in urls


def test_graph_json_is_node_link_json_networkx_reads(built):
    data = json.loads((built[0] / "graph.json").read_text())
    G = nx.node_link_graph(data, edges="edges")
    assert type(G) is nx.DiGraph and data["graph"] == {"paperkg_format": 2}
    assert all("type" in d and "key" not in d for *_, d in G.edges(data=True))


def test_the_summary_reports_counts_and_top_concepts(built):
    _, stdout = built
    assert "papers read: 19" in stdout
    assert re.search(r"mentions: \d+ collapsed into \d+ concepts", stdout)
    assert "Top concepts by paper count" in stdout
    assert "CIFAR-10" in stdout


def test_a_missing_input_is_one_clear_line(tmp_path, repo_root):
    proc = subprocess.run(
        [sys.executable, "-m", "paperkg.cli", "build", "nope/*.txt", "-o", str(tmp_path)],
        cwd=repo_root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1
    assert "nope/*.txt" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_removed_fast_model_is_one_clear_line(tmp_path, repo_root):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "paperkg.cli",
            "build",
            "examples/iclr2025_abstracts.txt",
            "-o",
            str(tmp_path),
            "--model",
            "fast",
        ],
        cwd=repo_root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1
    assert "no longer shipped" in proc.stderr and "Traceback" not in proc.stderr
