"""`paperkg analyze` prints the analytics of a built graph."""

from typer.testing import CliRunner

from paperkg.cli import app
from paperkg.graph import save_graph


def test_analyze_prints_central_concepts_and_communities(example_graph, tmp_path):
    save_graph(example_graph, tmp_path / "graph.json")
    some_paper = next(n for n, d in example_graph.nodes(data=True) if d["label"] == "Paper")
    result = CliRunner().invoke(
        app, ["analyze", str(tmp_path), "--top", "3", "--paper", some_paper.removeprefix("paper:")]
    )
    assert result.exit_code == 0, result.output
    assert "Central concepts" in result.output
    assert "Largest communities" in result.output
    assert "Papers most similar to" in result.output


def test_analyze_a_missing_graph_is_one_clear_line(tmp_path):
    result = CliRunner().invoke(app, ["analyze", str(tmp_path / "nope")])
    assert result.exit_code == 1
    assert "paperkg build" in result.output
