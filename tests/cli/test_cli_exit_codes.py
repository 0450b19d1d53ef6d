"""`paperkg build` exit codes: 0 all built, 3 built with records skipped, 1 nothing built."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from paperkg.cli import app
from paperkg.cli.build import EXIT_SKIPPED, skip_kind

GOOD = {"id": "p1", "abstract": "We train BERT on SQuAD for question answering."}


@pytest.fixture
def mixed(tmp_path):
    path = tmp_path / "mixed.jsonl"
    lines = [json.dumps(GOOD), "{broken", json.dumps({"id": "p3", "abstract": ""}), "[1, 2"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(*args):
    return CliRunner().invoke(app, [*map(str, args), "--no-html", "-j", "1"])


def test_every_record_built_is_exit_0(tmp_path):
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps(GOOD) + "\n", encoding="utf-8")

    assert run("build", good, "-o", tmp_path / "out").exit_code == 0


def test_skipped_records_still_build_and_exit_3_with_counts_by_kind(tmp_path, mixed):
    result = run("build", mixed, "-o", tmp_path / "out")

    assert result.exit_code == EXIT_SKIPPED == 3, result.output
    assert (tmp_path / "out" / "graph.json").is_file()
    assert "skipped records: 2 invalid JSON, 1 no abstract" in result.output
    assert f"{mixed}#2" in result.output and f"{mixed}#4" in result.output


def test_strict_fails_at_the_first_bad_record_and_keeps_the_last_outputs(tmp_path, mixed):
    out = tmp_path / "out"
    out.mkdir()
    (out / "graph.json").write_text('{"earlier": "build"}', encoding="utf-8")

    result = run("build", mixed, "-o", out, "--strict")

    assert result.exit_code == 1
    assert f"{mixed}#2" in result.output and "Traceback" not in result.output
    assert (out / "graph.json").read_text(encoding="utf-8") == '{"earlier": "build"}'


def test_a_skip_kind_drops_the_particulars():
    assert skip_kind("invalid JSON (Expecting value: line 1 column 2)") == "invalid JSON"
    assert skip_kind("duplicate id 'p1' (first read from a.csv#2)") == "duplicate id"


def test_the_installed_command_exits_with_the_codes_of_a_build(tmp_path, mixed):
    command = [sys.executable, "-m", "paperkg.cli", "build", "--no-html", "-j", "1"]
    skipped = subprocess.run([*command, mixed, "-o", tmp_path / "out"], capture_output=True)
    missing = subprocess.run([*command, tmp_path / "nothing.txt"], capture_output=True, text=True)

    assert skipped.returncode == EXIT_SKIPPED and b"wrote " in skipped.stdout
    assert missing.returncode == 1 and "nothing.txt" in missing.stderr
