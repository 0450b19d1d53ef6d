"""The report folder: full CSV tables, PNG plots and one offline page that shows them."""

import csv
import re
from pathlib import Path

import matplotlib.image
import networkx as nx
import pytest
from typer.testing import CliRunner

from paperkg.cli import app
from paperkg.export.field_analysis import analyse_field
from paperkg.export.report import write_report
from paperkg.graph import analytics, save_graph
from paperkg.graph.synthetic import toy_field


def read_csv(path: Path) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def local_references(index: Path) -> list[str]:
    return re.findall(r'(?:src|href)="([^"#]+)"', index.read_text(encoding="utf-8"))


@pytest.fixture
def built(example_graph, tmp_path):
    """A build folder as `paperkg build` leaves it: graph.json beside graph.html."""
    save_graph(example_graph, tmp_path / "graph.json")
    (tmp_path / "graph.html").write_text("<!doctype html><title>map</title>")
    return tmp_path


def test_analyze_writes_tables_plots_and_a_page_linked_to_the_map(built, example_graph):
    result = CliRunner().invoke(app, ["analyze", str(built), "-o", str(built / "report")])
    assert result.exit_code == 0, result.output
    report = built / "report"
    assert "wrote the report" in result.output

    central = read_csv(report / "central_concepts.csv")
    methods = [row for row in central if row["label"] == "Method"]
    assert methods[0]["rank"] == "1"
    assert int(methods[0]["papers"]) == max(
        d.get("paper_count", 0) for _, d in example_graph.nodes(data=True) if d["label"] == "Method"
    )
    table = analytics.label_cooccurrence(example_graph, "Method", "Task", n_rows=20, n_columns=20)
    rows = read_csv(report / "method_task.csv")
    assert sum(int(r["papers"]) for r in rows) == sum(map(sum, table.counts))
    communities = read_csv(report / "communities.csv")
    assert communities and all(" · " in c["name"] or int(c["concepts"]) < 3 for c in communities)

    for png in ("top_concepts.png", "method_task.png", "communities.png", "map.png"):
        height, width, _ = matplotlib.image.imread(report / png).shape
        assert height > 200 and width > 200, png

    index = report / "index.html"
    references = local_references(index)
    assert "../graph.html" in references  # the map view, relative to the page
    for ref in references:
        assert (report / ref).exists(), ref
    assert {"top_concepts.png", "method_task.png", "central_concepts.csv"} <= set(references)
    assert "http" not in index.read_text()  # nothing to fetch: it opens offline


def test_a_corpus_over_several_years_gets_its_rising_and_falling_concepts(tmp_path):
    index = write_report(toy_field(), tmp_path / "report")
    trends = {row["name"]: float(row["slope"]) for row in read_csv(tmp_path / "report/trends.csv")}
    assert trends["BERT"] > 0 > trends["graph neural network"]
    assert (tmp_path / "report/trends.png").exists()
    assert "trends.png" in local_references(index)
    proposals = read_csv(tmp_path / "report/proposals.csv")
    assert {(p["task_name"], p["name"]) for p in proposals} >= {("question answering", "BERT")}


def test_a_corpus_of_one_year_says_why_it_has_no_trends(tmp_path):
    g = toy_field()
    for paper in analytics.base.papers(g):
        g.nodes[paper]["year"] = 2023
    index = write_report(g, tmp_path / "report", map_image=False)
    assert "No trends: all dated papers are from 2023" in index.read_text()
    assert not (tmp_path / "report/trends.png").exists()


def test_an_empty_graph_gives_a_report_that_says_so(tmp_path):
    save_graph(nx.DiGraph(), tmp_path / "graph.json")
    result = CliRunner().invoke(app, ["analyze", str(tmp_path), "-o", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "r/index.html").read_text()
    assert "0 papers; no concepts" in page and "No community" in page


HOSTILE = ["<script>alert(1)</script>", r"$\frac{a}{$ broken math", "tab\tand\x02control", "a & b"]


def test_names_are_text_in_the_page_the_tables_and_the_plots(tmp_path):
    g = toy_field()
    for node, name in zip(["Method:bert", "Task:question answering", "Dataset:cora",
                           "Method:graph neural network"], HOSTILE, strict=True):  # fmt: skip
        g.nodes[node]["name"] = name
    index = write_report(g, tmp_path / "report")
    page = index.read_text()
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "a &amp; b" in page
    names = {row["name"] for row in read_csv(tmp_path / "report/central_concepts.csv")}
    assert set(HOSTILE) <= names  # kept exactly, tab and control character included
    assert matplotlib.image.imread(tmp_path / "report/top_concepts.png").shape[0] > 200


def test_a_failed_report_leaves_the_previous_one_whole(tmp_path, monkeypatch):
    write_report(toy_field(), tmp_path / "report", map_image=False)
    before = {p.name: p.read_bytes() for p in (tmp_path / "report").iterdir()}

    def disk_full(*args, **kwargs):  # a full disk mid-report cannot be made for real here
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("paperkg.export.report_plots.plot_heat_map", disk_full)
    with pytest.raises(OSError):
        write_report(toy_field(), tmp_path / "report", map_image=False)
    after = {p.name: p.read_bytes() for p in (tmp_path / "report").iterdir()}
    assert after == before
    assert [p.name for p in tmp_path.iterdir()] == ["report"]  # no temporary left behind


def test_trends_missing_for_want_of_papers_say_so(tmp_path):
    index = write_report(toy_field(), tmp_path / "report", map_image=False,
                         analysis=analyse_field(toy_field()))  # fmt: skip
    assert "No trends" not in index.read_text()
    g = toy_field()
    for paper in list(analytics.base.papers(g))[2:]:
        g.remove_node(paper)  # two dated papers: every concept below the minimum
    index = write_report(g, tmp_path / "report2", map_image=False)
    assert "No trends: no concept is mentioned by enough dated papers (3)" in index.read_text()


def test_a_lone_surrogate_in_a_hand_made_graph_does_not_stop_the_report(tmp_path):
    g = toy_field()
    g.nodes["Method:bert"]["name"] = "BERT \ud800"
    write_report(g, tmp_path / "report", map_image=False)
    assert "BERT ?" in (tmp_path / "report/central_concepts.csv").read_text(encoding="utf-8")


def test_the_map_link_survives_a_folder_name_with_a_hash(tmp_path):
    folder = tmp_path / "runs #3"
    folder.mkdir()
    (folder / "graph.html").write_text("<!doctype html>")
    index = write_report(toy_field(), folder / "report", map_html=folder / "graph.html",
                         map_image=False)  # fmt: skip
    assert 'href="../graph.html"' in index.read_text()
    index = write_report(toy_field(), tmp_path / "report", map_html=folder / "graph.html",
                         map_image=False)  # fmt: skip
    assert 'href="../runs%20%233/graph.html"' in index.read_text()


def test_names_with_rich_markup_print_as_typed(tmp_path):
    g = toy_field()
    g.nodes["Method:graph neural network"]["name"] = "[bold]GNN[/bold] [/oops]"
    save_graph(g, tmp_path / "graph.json")
    result = CliRunner().invoke(app, ["analyze", str(tmp_path), "--top", "3"])
    assert result.exit_code == 0, result.output
    assert "[bold]GNN[/bold] [/oops]" in result.output
