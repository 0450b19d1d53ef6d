"""A build's outputs are links into the current build, which one rename switches.

What a build leaves in its output folder, over each kind of folder it may find
there: its own earlier builds, a build without graph.html, the real files of an
older paperkg, a ``cp -rL`` copy, a user's files, another build that is running.
The kills are in ``test_interrupted_builds.py``.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path

import pytest

from paperkg.api import OUTPUT_NAMES, write_outputs
from paperkg.errors import OutputsBusyError
from paperkg.output_switch import BUILDS


def builds_kept(out: Path) -> set[str]:
    return {p.name for p in (out / BUILDS).iterdir()}


def test_outputs_are_relative_links_into_the_current_build(example_graph, tmp_path):
    out = tmp_path / "out"
    first = write_outputs(example_graph, out)
    last = os.readlink(out / BUILDS / "current")
    write_outputs(example_graph, out)

    assert [p.name for p in first.paths] == list(OUTPUT_NAMES)
    for path in first.paths:
        assert path.is_symlink() and os.readlink(path) == f"{BUILDS}/current/{path.name}"
    current = os.readlink(out / BUILDS / "current")
    assert current != last and builds_kept(out) == {".lock", "current", current}
    assert (out / "neo4j" / "nodes_Paper.csv").is_file()


def test_a_failed_build_leaves_the_last_outputs_and_no_folder(
    example_graph, tmp_path, output_files, monkeypatch
):
    out = tmp_path / "out"
    write_outputs(example_graph, out)
    before, kept = output_files(out), builds_kept(out)

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("paperkg.api.write_graphml", disk_full)
    with pytest.raises(OSError, match="No space"):
        write_outputs(example_graph, out)
    assert output_files(out) == before and builds_kept(out) == kept


def test_an_output_a_build_does_not_write_is_no_longer_shown(example_graph, tmp_path):
    out = tmp_path / "out"
    write_outputs(example_graph, out)
    write_outputs(example_graph, out, html=False)  # --no-html
    assert not os.path.lexists(out / "graph.html")
    assert (out / "graph.json").is_file()
    write_outputs(example_graph, out)
    assert (out / "graph.html").read_text(encoding="utf-8").rstrip().endswith("</html>")


@pytest.mark.parametrize("html", [True, False], ids=["html", "no html"])
def test_real_files_of_an_older_version_are_replaced_by_links(
    example_graph, tmp_path, output_files, html
):
    built = tmp_path / "built"
    write_outputs(example_graph, built)
    out = tmp_path / "out"  # as a paperkg without links wrote it: real files and a folder
    shutil.copytree(built, out, ignore=shutil.ignore_patterns(BUILDS))
    assert not (out / "neo4j").is_symlink()
    (out / "notes.md").write_text("mine")

    write_outputs(example_graph, out, html=html)

    names = ["graph.json", "graph.graphml", "neo4j"] + ["graph.html"] * html
    assert all((out / name).is_symlink() for name in names)
    assert os.path.lexists(out / "graph.html") == html  # not the older version's
    expected = {k: v for k, v in output_files(built).items() if html or k != "graph.html"}
    assert output_files(out) == {**expected, "notes.md": b"mine"}


def test_a_copy_made_through_the_links_builds_again(example_graph, tmp_path, output_files):
    built = tmp_path / "built"
    write_outputs(example_graph, built)
    copy = tmp_path / "copy"
    shutil.copytree(built, copy)  # follows links, as cp -rL: current is a real folder too
    assert not (copy / BUILDS / "current").is_symlink()

    write_outputs(example_graph, copy, html=False)

    assert (copy / BUILDS / "current").is_symlink() and (copy / "graph.json").is_symlink()
    assert not os.path.lexists(copy / "graph.html")
    assert len(builds_kept(copy)) == 3


def test_a_users_files_and_links_stay(example_graph, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.md").write_text("mine")
    write_outputs(example_graph, out)
    (out / "neo4j" / "notes.md").write_text("mine too")
    (out / "latest.html").symlink_to(f"{BUILDS}/current/graph.html")
    write_outputs(example_graph, out, html=False)
    write_outputs(example_graph, out)
    assert (out / "notes.md").read_text() == "mine"
    assert (out / "neo4j" / "notes.md").read_text() == "mine too"
    assert (out / "latest.html").read_text().rstrip().endswith("</html>")


def test_a_second_build_into_a_busy_folder_is_refused(example_graph, tmp_path, output_files):
    out = tmp_path / "out"
    write_outputs(example_graph, out)
    before, kept = output_files(out), builds_kept(out)

    with open(out / BUILDS / ".lock", "a") as lock:  # as a build writing now holds it
        fcntl.flock(lock, fcntl.LOCK_EX)
        with pytest.raises(OutputsBusyError) as refused:
            write_outputs(example_graph, out)

    assert str(refused.value) == (
        f"another paperkg build is writing into {out} (it holds {out / BUILDS / '.lock'}); "
        "wait for it to end, or write into another folder"
    )
    assert output_files(out) == before and builds_kept(out) == kept
    write_outputs(example_graph, out)  # once the lock is free, a build goes ahead
