"""The outputs of a build replace the last build's in one atomic switch.

Each output's name in the output folder is a link into ``.paperkg-builds/current``,
and a build ends by renaming one link. The kill tests stop a real build with a real
SIGKILL before each change it makes to the file system, one after another, and read
the folder after each: every time, all of the last build or all of the new one.
"""

from __future__ import annotations

import os
import shutil
import signal
import threading
import time
from pathlib import Path

import pytest

from paperkg import output_switch
from paperkg.api import write_outputs
from paperkg.output_switch import BUILDS, staged_folder

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")

#: What a build does to the file system; the kill tests stop it before each call.
STEPS = [(os, "replace"), (os, "symlink"), (os, "unlink"), (os, "link"), (shutil, "rmtree")]


@pytest.fixture(scope="module")
def two_graphs(example_graph):
    """Two different graphs: the example's, and the example without its last paper."""
    papers = [n for n, data in example_graph.nodes(data=True) if data.get("label") == "Paper"]
    smaller = example_graph.copy()
    smaller.remove_node(papers[-1])
    return smaller, example_graph


@pytest.fixture
def last_build(two_graphs, tmp_path) -> Path:
    """An output folder holding a build of the first of :func:`two_graphs`."""
    write_outputs(two_graphs[0], tmp_path / "before")
    return tmp_path / "before"


def write_killed_at(graph, out: Path, step: int, html: bool = True) -> bool:
    """Write ``graph``'s outputs to ``out`` in a child process killed (SIGKILL) just
    before its ``step``-th file-system change; whether the kill came before the end."""
    pid = os.fork()
    if pid == 0:  # the child: count the changes, die at the chosen one
        calls = 0

        def counted(module, name):
            real = getattr(module, name)

            def call(*args, **kwargs):
                nonlocal calls
                calls += 1
                if calls == step:
                    os.kill(os.getpid(), signal.SIGKILL)
                return real(*args, **kwargs)

            setattr(module, name, call)

        for module, name in STEPS:
            counted(module, name)
        try:
            write_outputs(graph, out, html=html)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    return os.WIFSIGNALED(status)


def assert_killed_at_every_step_leaves_one_build(
    before: Path, graph, tmp_path, output_files, html: bool = True
):
    old = output_files(before)
    reference = write_outputs(graph, tmp_path / "reference", html=html)
    new = output_files(reference.paths[0].parent)
    assert old != new
    step = 0
    while True:
        step += 1
        out = tmp_path / f"killed{step}"
        shutil.copytree(before, out, symlinks=True)
        killed = write_killed_at(graph, out, step, html)
        seen = output_files(out)
        assert seen in (old, new), f"a mix of two builds after a kill at step {step}"
        if not killed:
            assert seen == new
            break
        write_outputs(graph, out, html=html)  # the next build completes, tidies up
        assert output_files(out) == new
        current = os.readlink(out / BUILDS / "current")
        assert {p.name for p in (out / BUILDS).iterdir()} == {".lock", "current", current}
        assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]
    assert step > 6  # the kills covered the four outputs written, the switch, the tidying


def test_outputs_are_links_into_the_current_build(example_graph, tmp_path, output_files):
    out = tmp_path / "out"
    first = write_outputs(example_graph, out)
    build = os.readlink(out / BUILDS / "current")
    write_outputs(example_graph, out)

    for path in first.paths:
        assert path.is_symlink() and os.readlink(path) == f"{BUILDS}/current/{path.name}"
    assert os.readlink(out / BUILDS / "current") != build
    assert not (out / BUILDS / build).exists()  # the last build's folder is removed
    assert "neo4j/nodes_Paper.csv" in output_files(out)


@needs_fork
def test_a_build_killed_before_any_step_leaves_the_last_outputs_or_the_new(
    last_build, two_graphs, tmp_path, output_files
):
    assert_killed_at_every_step_leaves_one_build(last_build, two_graphs[1], tmp_path, output_files)


@needs_fork
@pytest.mark.parametrize("html", [True, False], ids=["html", "no html"])
def test_real_files_of_an_earlier_version_are_adopted_at_no_moment_mixed(
    two_graphs, tmp_path, output_files, monkeypatch, html
):
    old_graph, new_graph = two_graphs
    before = tmp_path / "before"
    with monkeypatch.context() as m:  # an earlier version wrote real files
        m.setattr(output_switch, "_switch_to", lambda *args: (False, []))
        write_outputs(old_graph, before)
    assert not (before / "graph.json").is_symlink() and (before / "neo4j").is_dir()

    assert_killed_at_every_step_leaves_one_build(
        before, new_graph, tmp_path, output_files, html=html
    )
    assert (tmp_path / "killed1" / "neo4j").is_symlink()
    assert (tmp_path / "killed1" / "graph.html").exists() == html  # not the earlier one


def test_an_output_a_build_does_not_write_is_no_longer_shown(example_graph, tmp_path):
    out = tmp_path / "out"
    write_outputs(example_graph, out)
    write_outputs(example_graph, out, html=False)
    assert not (out / "graph.html").exists() and not (out / "graph.html").is_symlink()
    assert (out / "graph.json").is_file()


def test_without_links_the_outputs_are_moved_in_as_files(example_graph, tmp_path, monkeypatch):
    def refused(*args, **kwargs):
        raise OSError(1, "Operation not permitted")  # Windows without developer mode

    out = tmp_path / "out"
    monkeypatch.setattr(os, "symlink", refused)
    write_outputs(example_graph, out)
    write_outputs(example_graph, out)
    assert (out / "graph.json").is_file() and not (out / "graph.json").is_symlink()
    assert (out / "neo4j" / "nodes_Paper.csv").is_file()
    assert {p.name for p in (out / BUILDS).iterdir()} <= {".lock"}  # no build, no link


def test_a_user_file_in_the_output_folder_is_left_alone(example_graph, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.md").write_text("mine")
    write_outputs(example_graph, out)
    write_outputs(example_graph, out)
    assert (out / "notes.md").read_text() == "mine"


@needs_fork
def test_a_copy_made_through_the_links_builds_and_switches_as_safely(
    last_build, two_graphs, tmp_path, output_files
):
    copy = tmp_path / "copy"
    shutil.copytree(last_build, copy)  # follows links, as cp -rL: current is a real folder
    assert not (copy / BUILDS / "current").is_symlink()

    assert_killed_at_every_step_leaves_one_build(
        copy, two_graphs[1], tmp_path, output_files, html=False
    )
    assert not (tmp_path / "killed1" / "graph.html").exists()  # not the copy's


@needs_fork
def test_a_real_file_beside_a_current_build_is_adopted_at_no_moment_mixed(
    last_build, two_graphs, tmp_path, output_files
):
    graphml = last_build / "graph.graphml"
    content = graphml.read_bytes()
    graphml.unlink()
    graphml.write_bytes(content)  # a real file, as an earlier version run in between writes

    assert_killed_at_every_step_leaves_one_build(last_build, two_graphs[1], tmp_path, output_files)


def write_tagged(out: Path, tag: str, html: bool = True) -> None:
    """A small build: every output says ``tag``."""
    with staged_folder(out) as folder:
        (folder / "graph.json").write_text(tag)
        (folder / "neo4j").mkdir()
        (folder / "neo4j" / "nodes.csv").write_text(tag)
        if html:
            (folder / "graph.html").write_text(tag)


def one_build_shown(out: Path, output_files) -> str:
    seen = output_files(out)
    tags = set(seen.values())
    assert len(tags) == 1 and {"graph.json", "neo4j/nodes.csv"} <= set(seen), seen
    current = out / BUILDS / os.readlink(out / BUILDS / "current")
    assert ("graph.html" in seen) == (current / "graph.html").exists()
    return tags.pop().decode()


@needs_fork
def test_builds_at_once_in_processes_leave_one_whole_build(tmp_path, output_files):
    for round_ in range(40):
        out = tmp_path / f"out{round_}"
        write_tagged(out, "first")
        children = []
        for tag in ("a", "b", "c"):
            pid = os.fork()
            if pid == 0:
                try:
                    write_tagged(out, tag, html=tag != "b")
                finally:
                    os._exit(0)
            children.append(pid)
        assert all(os.waitpid(pid, 0)[1] == 0 for pid in children)
        assert one_build_shown(out, output_files) in {"a", "b", "c"}
        folders = [p for p in (out / BUILDS).iterdir() if p.name.startswith("build.")]
        assert len(folders) == 1  # the others' were removed, the current one kept


def test_builds_at_once_in_threads_leave_one_whole_build(tmp_path, output_files):
    out = tmp_path / "out"
    errors = []

    def builds(tag: str) -> None:
        try:
            for _ in range(30):
                write_tagged(out, tag)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=builds, args=(tag,)) for tag in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert one_build_shown(out, output_files) in {"a", "b"}


@needs_fork
def test_a_child_forked_while_the_lock_is_held_does_not_keep_it(tmp_path):
    out = tmp_path / "out"
    write_tagged(out, "first")
    with output_switch._locked(out / BUILDS):  # a thread switching when another forks
        child = os.fork()
        if child == 0:
            try:
                write_tagged(out, "child")  # waits for the lock: the parent's, not its own
            finally:
                os._exit(0)
    for _ in range(200):
        done, status = os.waitpid(child, os.WNOHANG)
        if done:
            break
        time.sleep(0.1)
    else:
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
        pytest.fail("the child waited for a lock only it held")
    assert status == 0


def test_a_users_files_in_neo4j_and_links_to_outputs_stay(example_graph, tmp_path):
    out = tmp_path / "out"
    write_outputs(example_graph, out)
    (out / "neo4j" / "notes.md").write_text("mine")
    (out / "latest.html").symlink_to(f"{BUILDS}/current/graph.html")
    write_outputs(example_graph, out, html=False)
    write_outputs(example_graph, out)
    assert (out / "neo4j" / "notes.md").read_text() == "mine"
    assert (out / "latest.html").read_text().rstrip().endswith("</html>")
