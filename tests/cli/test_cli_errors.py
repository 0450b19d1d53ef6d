"""Every command says what went wrong in one line and exits 1: no traceback for a user's mistake."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from paperkg.cli import app


@pytest.fixture
def bad_gold(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"broken\n', encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "args, says",
    [
        (["build", "{tmp}/missing.txt", "-o", "{tmp}/out"], "missing.txt"),
        (["view", "{tmp}/missing.json"], "no such file"),
        (["analyze", "{tmp}/missing.json"], "no such file"),
        (["push", "{tmp}/missing", "--uri", "bolt://localhost:1"], "no such file"),
        (["eval", "{tmp}/bad.json", "-f", "scierc"], "not a JSON line"),
        (["train", "-o", "{tmp}/run", "--scierc", "{tmp}/nowhere"], "no train.json found"),
    ],
    ids=["build", "view", "analyze", "push", "eval", "train"],
)
def test_a_paperkg_error_is_one_red_line_and_exit_code_1(tmp_path, bad_gold, args, says):
    result = CliRunner().invoke(app, [a.format(tmp=tmp_path) for a in args])
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) <= 2 and lines[0].startswith("error: "), result.output  # rich may wrap
    assert says in " ".join(lines)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_train_with_annotations_but_not_their_papers_says_which_option_to_add(tmp_path):
    annotations = tmp_path / "annotations"
    annotations.mkdir()
    result = CliRunner().invoke(app, ["train", "-o", str(tmp_path / "run"),
                                      "--annotations", str(annotations)])  # fmt: skip
    assert result.exit_code == 2, result.output
    assert "--annotated-inputs" in result.output and "Traceback" not in result.output
