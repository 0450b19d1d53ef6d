"""A corpus of hostile records, built for real: every output opens in a strict reader of its
format, every record but the broken one is in it, and every command takes it."""

from __future__ import annotations

import json

import networkx as nx
import pytest
from typer.testing import CliRunner

from paperkg.cli import app
from paperkg.cli.build import EXIT_SKIPPED


def test_the_build_keeps_every_readable_record_and_says_what_it_skipped(
    hostile_build, hostile_papers
):
    out, result = hostile_build
    assert result.exit_code == EXIT_SKIPPED, result.output
    assert "Traceback" not in result.output
    assert "hostile.jsonl#4" in result.output  # the broken line, by file and record
    graph = nx.node_link_graph(
        json.loads((out / "graph.json").read_text(encoding="utf-8")), edges="edges"
    )
    assert {n for n, d in graph.nodes(data=True) if d["label"] == "Paper"} == hostile_papers


def test_graphml_opens_in_libxml2_strict_parser(hostile_build, hostile_papers):
    etree = pytest.importorskip("lxml.etree")
    out, _ = hostile_build
    tree = etree.parse(str(out / "graph.graphml"), etree.XMLParser(recover=False))
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    ids = set(tree.xpath("//g:node/@id", namespaces=ns))
    assert hostile_papers <= ids
    text = " ".join(tree.xpath("//g:data/text()", namespaces=ns))
    assert "Control\ufffd characters\ufffd in a title" in text  # cleaned, visibly, not dropped
    assert "'}) DETACH DELETE n //" in text and "<script>alert('x')</script>" in text


def test_graphml_opens_in_igraph(hostile_build, hostile_papers):
    igraph = pytest.importorskip("igraph")
    out, _ = hostile_build
    g = igraph.Graph.Read_GraphML(str(out / "graph.graphml"))
    back = nx.read_graphml(out / "graph.graphml")
    assert g.vcount() == back.number_of_nodes() and g.ecount() == back.number_of_edges()
    assert hostile_papers <= set(g.vs["id"])


@pytest.mark.parametrize(
    "command",
    [
        ["analyze", "{out}", "-o", "{out}/report"],
        ["analyze", "{out}", "--paper", "markup"],
        ["view", "{out}", "-o", "{out}/view.html"],
        ["view", "{out}", "--mode", "map", "-o", "{out}/map.html"],
        ["view", "{out}", "--format", "png", "-o", "{out}/map.png"],
    ],
)
def test_every_command_takes_the_hostile_graph(hostile_build, command):
    out, _ = hostile_build
    result = CliRunner().invoke(app, [part.format(out=out) for part in command])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output


def test_the_report_shows_hostile_names_as_text(hostile_build):
    out, _ = hostile_build
    CliRunner().invoke(app, ["analyze", str(out), "-o", str(out / "report2")])
    page = (out / "report2" / "index.html").read_text(encoding="utf-8")
    assert "<script>" not in page and "<img" not in page.replace('<img src="', "")
