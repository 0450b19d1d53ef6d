"""A build killed at any named step leaves the last build's outputs whole; the next completes.

Each kill is a real ``paperkg build`` in a child process run with
``PAPERKG_KILL_AT=<step>`` (:data:`paperkg.api.KILL_AT`): it kills itself with
SIGKILL on reaching that step, so every step is hit on every machine, however fast.
After the first build the extraction cache holds every paper, so a build takes
about two seconds.
"""

from __future__ import annotations

import csv
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from paperkg.api import CORPUS_STEPS, KILL_AT, OUTPUT_STEPS
from paperkg.graph.io import load_graph
from paperkg.output_switch import BUILDS

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iclr2025_abstracts.txt"


def run_build(corpus: Path, out: Path, *options: str, kill_at: str | None = None):
    """``paperkg build corpus -o out``, in a child process that dies at ``kill_at``."""
    env = {**os.environ, KILL_AT: kill_at} if kill_at else os.environ
    cmd = [sys.executable, "-m", "paperkg.cli", "build", str(corpus), "-o", str(out), "-j", "1"]
    return subprocess.run([*cmd, *options], env=env, capture_output=True, text=True)


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """A second corpus (the example without its last abstract), and an output folder
    of each corpus built by the command line: the last build, and the one expected."""
    folder = tmp_path_factory.mktemp("builds")
    smaller = folder / "smaller.txt"
    smaller.write_text(EXAMPLE.read_text(encoding="utf-8").rstrip().rsplit("\n\n", 1)[0])
    for corpus, out in ((EXAMPLE, "last"), (smaller, "expected")):
        assert run_build(corpus, folder / out).returncode == 0
    return smaller, folder / "last", folder / "expected"


def assert_outputs_whole(out: Path, html: bool = True) -> None:
    """Every output opens in its reader, and the Neo4j bundle's files belong together."""
    graph = load_graph(out / "graph.json")
    ET.parse(out / "graph.graphml")
    if html:
        assert (out / "graph.html").read_text(encoding="utf-8").rstrip().endswith("</html>")
    else:
        assert not (out / "graph.html").exists()
    ids = set()
    for nodes in (out / "neo4j").glob("nodes_*.csv"):
        with nodes.open(encoding="utf-8", newline="") as f:
            ids |= {row[0] for row in list(csv.reader(f))[1:]}
    assert len(ids) == graph.number_of_nodes()
    for rels in (out / "neo4j").glob("rels_*.csv"):
        with rels.open(encoding="utf-8", newline="") as f:
            assert all(row[0] in ids and row[1] in ids for row in list(csv.reader(f))[1:])


def assert_nothing_left_over(out: Path) -> None:
    """``.paperkg-builds`` holds the lock, ``current`` and its folder, nothing else."""
    current = os.readlink(out / BUILDS / "current")
    assert {p.name for p in (out / BUILDS).iterdir()} == {".lock", "current", current}


@pytest.mark.parametrize("step", [*CORPUS_STEPS, *OUTPUT_STEPS])
def test_a_build_killed_at_a_step_leaves_the_last_outputs_whole(
    builds, step, tmp_path, output_files
):
    smaller, last, expected = builds
    out = tmp_path / "out"
    shutil.copytree(last, out, symlinks=True)  # relative links: a whole copy

    killed = run_build(smaller, out, kill_at=step)

    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    assert output_files(out) == output_files(last)  # byte for byte
    assert_outputs_whole(out)
    assert run_build(smaller, out).returncode == 0  # the next build completes
    assert output_files(out) == output_files(expected)
    assert_outputs_whole(out)
    assert_nothing_left_over(out)


def test_a_killed_build_after_one_with_no_html_shows_no_html(builds, tmp_path, output_files):
    smaller, _, expected = builds
    out = tmp_path / "out"
    assert run_build(EXAMPLE, out, "--no-html").returncode == 0
    before = output_files(out)

    killed = run_build(smaller, out, kill_at="switching outputs")  # graph.html's link made

    assert killed.returncode == -signal.SIGKILL
    assert output_files(out) == before
    assert_outputs_whole(out, html=False)
    assert run_build(smaller, out).returncode == 0
    assert output_files(out) == output_files(expected)
    assert_nothing_left_over(out)


def test_a_killed_build_over_an_older_versions_files_leaves_them_whole(
    builds, tmp_path, output_files
):
    smaller, last, expected = builds
    out = tmp_path / "out"  # as a paperkg without links wrote it: real files and a folder
    shutil.copytree(last, out, ignore=shutil.ignore_patterns(BUILDS))

    killed = run_build(smaller, out, kill_at="switching outputs")

    assert killed.returncode == -signal.SIGKILL
    assert output_files(out) == output_files(last)
    assert not (out / "graph.json").is_symlink()
    assert run_build(smaller, out).returncode == 0  # the first switch: links from now on
    assert output_files(out) == output_files(expected)
    assert (out / "graph.json").is_symlink() and (out / "neo4j").is_symlink()
    assert_nothing_left_over(out)


def test_a_build_into_a_folder_another_build_is_writing_is_refused(builds, tmp_path, output_files):
    _, last, _ = builds
    out = tmp_path / "out"
    shutil.copytree(last, out, symlinks=True)

    with open(out / BUILDS / ".lock", "a") as lock:  # as a build writing now holds it
        fcntl.flock(lock, fcntl.LOCK_EX)
        refused = run_build(EXAMPLE, out)

    assert refused.returncode == 1
    message = " ".join(refused.stderr.split())  # one line, however wide the terminal
    assert f"another paperkg build is writing into {out}" in message
    assert "wait for it to end, or write into another folder" in message
    assert output_files(out) == output_files(last)
    assert_nothing_left_over(out)


def test_the_same_build_twice_writes_byte_identical_outputs(tmp_path, output_files):
    env = {**os.environ, "PYTHONHASHSEED": "1"}
    for run, seed in ((1, "1"), (2, "2")):
        env["PYTHONHASHSEED"] = seed  # set iteration order must not leak into any file
        cmd = [sys.executable, "-m", "paperkg.cli", "build", str(EXAMPLE), "-o"]
        subprocess.run([*cmd, str(tmp_path / f"run{run}"), "-j", "1"], env=env, check=True,
                       capture_output=True)  # fmt: skip
    first, second = output_files(tmp_path / "run1"), output_files(tmp_path / "run2")
    assert sorted(first) == sorted(second) and "neo4j/nodes_Paper.csv" in first
    for name, content in first.items():
        assert content == second[name], name
