"""The map page and the map image, read without a browser; the CLI that writes them."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import networkx as nx
import pytest
from synthetic_field import synthetic_field
from typer.testing import CliRunner

from paperkg.cli import app
from paperkg.errors import ExportError
from paperkg.export.html_map import MAP_MIN_PAPERS, prefers_map, write_map_html
from paperkg.export.static_map import write_map_image
from paperkg.graph.io import save_graph

PAYLOAD = "<img src=x onerror=alert(1)></script><script>alert(2)</script>"


def page_data(path) -> dict:
    html = path.read_text(encoding="utf-8")
    found = re.search(r'id="pk-data" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


@pytest.fixture(scope="module")
def field():
    return synthetic_field(800, seed=2)


def test_the_map_draws_concepts_only_and_lists_papers_by_reference(field, tmp_path):
    report = write_map_html(field, tmp_path / "map.html", max_nodes=120)
    data = page_data(report.path)
    assert report.concepts_drawn == len(data["nodes"]) == 120
    assert {n["label"] for n in data["nodes"]} <= {"Method", "Dataset", "Task", "Metric"}
    biggest = data["nodes"][0]
    assert biggest["papers"] == max(n["papers"] for n in data["nodes"])
    # every listed paper points into the papers table, every evidence into the sentences
    for n in data["nodes"]:
        for paper, kind, evidence in n["list"]:
            assert 0 <= paper < len(data["papers"]) and 0 <= kind < len(data["edgeTypes"])
            assert -1 <= evidence < len(data["evidence"])
    assert sum(len(n["list"]) + n["more"] for n in data["nodes"]) > 0
    assert data["years"] == [2019, 2024]


def test_the_page_is_offline_and_input_text_stays_data(tmp_path):
    g = nx.DiGraph()
    for i in range(3):
        g.add_node(f"paper:{i}", label="Paper", name=f"P{i}", title=f"{PAYLOAD} {i}")
        for c in ("BERT", PAYLOAD):
            g.add_node(f"Method:{c}", label="Method", name=c, aliases=[f"{c} alias"])
            g.add_edge(f"paper:{i}", f"Method:{c}", type="USES", evidence=PAYLOAD)
    report = write_map_html(g, tmp_path / "map.html", title=PAYLOAD)
    html = report.path.read_text(encoding="utf-8")
    assert (
        "<img src=x" not in html and html.count("</script>") == 4
    )  # data, vis, name_index.js, map.js
    assert not re.search(r'(src|href)="https?:', html)
    data = page_data(report.path)
    assert PAYLOAD in {n["name"] for n in data["nodes"]}
    assert data["evidence"] == [PAYLOAD]


def test_limits_and_labels_are_checked(field, tmp_path):
    with pytest.raises(ExportError, match="unknown label"):
        write_map_html(field, tmp_path / "m.html", labels=["Methods"])
    with pytest.raises(ExportError, match="max_nodes"):
        write_map_html(field, tmp_path / "m.html", max_nodes=0)
    report = write_map_html(field, tmp_path / "m.html", labels=["Dataset"])
    assert set(report.drawn_by_label) >= {"Dataset"} and report.drawn_by_label["Method"] == 0


def test_large_corpora_get_the_map():
    assert prefers_map(synthetic_field(MAP_MIN_PAPERS + 1))
    assert not prefers_map(synthetic_field(MAP_MIN_PAPERS))


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_the_map_as_an_image(field, tmp_path, suffix):
    path = write_map_image(field, tmp_path / f"map{suffix}", title="A field")
    head = path.read_bytes()[:8]
    if suffix == ".png":
        assert head == b"\x89PNG\r\n\x1a\n"
    else:
        root = ET.parse(path).getroot()
        texts = [t for t in root.iter() if t.tag.endswith("}g") and "text" in t.get("id", "")]
        assert texts, "the SVG holds the concept labels"


def test_an_image_needs_a_known_suffix(field, tmp_path):
    with pytest.raises(ExportError, match=r"\.png or \.svg"):
        write_map_image(field, tmp_path / "map.jpg")


def test_cli_view_picks_the_map_for_a_large_corpus(field, tmp_path):
    save_graph(field, tmp_path / "graph.json")
    out = tmp_path / "v.html"
    result = CliRunner().invoke(app, ["view", str(tmp_path / "graph.json"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "Drew a map of 300 concepts" in result.output
    assert "pk-cluster-list" in out.read_text(encoding="utf-8")
    result = CliRunner().invoke(
        app, ["view", str(tmp_path / "graph.json"), "-o", str(out), "--mode", "papers"]
    )
    assert result.exit_code == 0 and "pk-legend" in out.read_text(encoding="utf-8")


def test_cli_view_writes_an_image_and_a_neighbourhood(field, tmp_path):
    save_graph(field, tmp_path / "graph.json")
    png = tmp_path / "map.png"
    result = CliRunner().invoke(
        app, ["view", str(tmp_path / "graph.json"), "--format", "png", "-o", str(png)]
    )
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:4] == b"\x89PNG"
    name = max(
        (d for _, d in field.nodes(data=True) if d["label"] != "Paper"),
        key=lambda d: d["paper_count"],
    )["name"]
    around = tmp_path / "around.html"
    result = CliRunner().invoke(
        app, ["view", str(tmp_path / "graph.json"), "--around", name.upper(), "-o", str(around)]
    )
    assert result.exit_code == 0, result.output
    data = page_data(around)
    assert any(n["kg"]["name"] == name for n in data["nodes"])
    assert any(n["kg"]["label"] == "Paper" for n in data["nodes"])


def test_cli_view_says_in_one_line_when_a_concept_is_unknown(field, tmp_path):
    save_graph(field, tmp_path / "graph.json")
    result = CliRunner().invoke(
        app, ["view", str(tmp_path / "graph.json"), "--around", "no such thing at all"]
    )
    assert result.exit_code == 1
    assert "no concept is named 'no such thing at all'" in result.output
    assert "Traceback" not in result.output


def test_a_page_written_piece_by_piece_is_whole_or_not_there(field, tmp_path, monkeypatch):
    """The map is written as the template makes it (not held whole in memory, 25 MB
    at 100,000 papers); a failure half-way leaves the page there before."""
    from paperkg.export import html_map

    page = tmp_path / "graph.html"
    write_map_html(field, page)
    before = page.read_bytes()
    assert before.count(b"</html>") == 1

    def failing(data, *, title):
        yield "<!doctype html><html>"
        raise RuntimeError("the template failed")

    monkeypatch.setattr(html_map, "_render", failing)
    with pytest.raises(RuntimeError):
        write_map_html(field, page, title="another title")
    assert page.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["graph.html"]  # no temporary left
