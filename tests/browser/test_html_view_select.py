"""What the HTML view draws and leaves out (no browser needed)."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from paperkg.cli import app
from paperkg.errors import ExportError
from paperkg.export.html import PHYSICS_MAX_NODES, write_html
from paperkg.export.script_json import script_json_pieces
from paperkg.graph.io import save_graph


def drawn_ids(report) -> set[str]:
    html = report.path.read_text(encoding="utf-8")
    data = json.loads(
        re.search(r'id="pk-data" type="application/json">(.*?)</script>', html).group(1)
    )
    return {n["id"] for n in data["nodes"]}


def test_everything_is_drawn_by_default(tiny_graph, tmp_path):
    report = write_html(tiny_graph, tmp_path / "v.html")

    assert drawn_ids(report) == set(tiny_graph.nodes)
    assert (report.nodes_left_out, report.edges_left_out, report.reasons) == (0, 0, [])
    assert report.physics is True
    assert report.drawn_by_label == {"Paper": 3, "Method": 2, "Dataset": 2, "Task": 1, "Metric": 1}


def test_max_nodes_keeps_the_most_connected_concepts_with_their_papers(tiny_graph, tmp_path):
    report = write_html(tiny_graph, tmp_path / "v.html", max_nodes=4)

    # image classification and knowledge distillation have 2 papers each; the task has
    # more edges, so it comes first with both its papers, and the budget ends at the method
    assert drawn_ids(report) == {
        "Task:image classification",
        "paper:p1",
        "paper:p2",
        "Method:knowledge distillation",
    }
    assert report.nodes_drawn + report.nodes_left_out == tiny_graph.number_of_nodes()
    assert "max_nodes=4" in report.reasons[-1]
    assert any("Left out 5 nodes" in line for line in report.summary())


@pytest.mark.parametrize(
    ("labels", "min_papers", "expected"),
    [
        (["Method", "Dataset"], 0, {"Method:lads", "Method:knowledge distillation",
                                    "Dataset:cifar-10", "Dataset:imagenet-100"}),
        (["Task", "Paper"], 0, {"Task:image classification", "paper:p1", "paper:p2"}),
        (None, 2, {"Method:knowledge distillation", "Task:image classification",
                   "paper:p1", "paper:p2", "paper:p3"}),
    ],
)  # fmt: skip
def test_labels_and_min_papers_choose_what_is_drawn(
    tiny_graph, tmp_path, labels, min_papers, expected
):
    report = write_html(tiny_graph, tmp_path / "v.html", labels=labels, min_papers=min_papers)

    assert drawn_ids(report) == expected
    assert report.nodes_left_out == tiny_graph.number_of_nodes() - len(expected)
    assert report.reasons


def test_unknown_label_is_refused_with_the_choices(tiny_graph, tmp_path):
    with pytest.raises(ExportError, match="unknown node label.*Methods.*choose from Paper, Method"):
        write_html(tiny_graph, tmp_path / "v.html", labels=["Methods"])


def test_edge_budget_keeps_paper_edges_before_co_occurrence(tiny_graph, tmp_path):
    paper_edges = sum(1 for *_, t in tiny_graph.edges(data="type") if t != "CO_OCCURS_WITH")

    report = write_html(tiny_graph, tmp_path / "v.html", max_edges=paper_edges)

    assert report.edges_drawn == paper_edges
    assert report.edges_left_out == tiny_graph.number_of_edges() - paper_edges
    assert f"beyond max_edges={paper_edges}" in report.reasons[0]


def test_large_views_get_positions_and_no_physics(synthetic_graph, tmp_path):
    graph = synthetic_graph(PHYSICS_MAX_NODES + 50)
    report = write_html(graph, tmp_path / "v.html", max_nodes=10_000)

    assert report.physics is False
    html = report.path.read_text(encoding="utf-8")
    data = json.loads(re.search(r'type="application/json">(.*?)</script>', html).group(1))
    assert data["options"]["physics"]["enabled"] is False
    xs = {round(n["x"]) for n in data["nodes"]}
    assert len(xs) > len(data["nodes"]) / 4  # spread out, not piled on one spot


@pytest.mark.parametrize(
    "text",
    ["</script><script>alert(1)</script>", "<!-- x", "a & b", "line\u2028sep", "<img src=x>"],
)
def test_script_json_is_inert_inside_script_and_reads_back(text):
    encoded = "".join(script_json_pieces({"t": text}))

    assert "<" not in encoded and ">" not in encoded and "\u2028" not in encoded
    assert json.loads(encoded) == {"t": text}


def test_page_title_is_escaped(tiny_graph, tmp_path):
    report = write_html(tiny_graph, tmp_path / "v.html", title="<b>x</b>")

    assert "<title>&lt;b&gt;x&lt;/b&gt;</title>" in report.path.read_text(encoding="utf-8")


def test_cli_view_writes_the_page_and_says_what_was_left_out(tiny_graph, tmp_path):
    save_graph(tiny_graph, tmp_path / "graph.json")

    result = CliRunner().invoke(
        app,
        ["view", str(tmp_path / "graph.json"), "-o", str(tmp_path / "v.html"), "--max-nodes", "4"],
    )

    assert result.exit_code == 0, result.output
    assert "Drew 4 nodes" in result.output
    assert "Left out 5 nodes" in result.output
    assert (tmp_path / "v.html").stat().st_size > 100_000


def test_cli_view_reports_a_bad_label_in_one_line(tiny_graph, tmp_path):
    save_graph(tiny_graph, tmp_path / "graph.json")

    result = CliRunner().invoke(app, ["view", str(tmp_path / "graph.json"), "--labels", "Foo"])

    assert result.exit_code == 1
    assert "unknown node label(s) ['Foo']" in result.output
