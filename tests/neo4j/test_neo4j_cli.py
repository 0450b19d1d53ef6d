"""`paperkg push` as a user runs it, and the one-line errors a user meets."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import neo4j_test_server
import pytest

from paperkg.errors import ExportError
from paperkg.export.neo4j_load import check_server_version, database_counts
from paperkg.graph.io import save_graph

pytestmark = pytest.mark.neo4j


def paperkg(*args, password=None):
    """Run the paperkg command line; NEO4J_PASSWORD is set only when ``password`` is given."""
    env = {k: v for k, v in os.environ.items() if k != "NEO4J_PASSWORD"}
    if password is not None:
        env["NEO4J_PASSWORD"] = password
    exe = shutil.which("paperkg")
    cmd = [exe] if exe else [sys.executable, "-m", "paperkg.cli"]
    return subprocess.run([*cmd, *args], env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture
def built(tmp_path, small_graph):
    """An output folder as `paperkg build` leaves it (graph.json)."""
    save_graph(small_graph, tmp_path / "graph.json")
    return tmp_path


def test_push_loads_the_build(empty_db, built, neo4j_server):
    done = paperkg("push", str(built), "--uri", neo4j_server.uri, password=neo4j_server.password)

    assert done.returncode == 0, done.stderr
    assert "created 11 nodes and 29 relationships" in done.stdout
    assert neo4j_server.password not in done.stdout + done.stderr
    nodes, rels = database_counts(empty_db)
    assert nodes == {"Paper": 3, "Method": 4, "Dataset": 2, "Task": 2}

    again = paperkg(
        "push", str(built), "--uri", neo4j_server.uri, "--database", "neo4j",
        password=neo4j_server.password,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert "created 0 nodes and 0 relationships" in again.stdout
    assert database_counts(empty_db) == (nodes, rels)


def test_push_prune_removes_what_a_rebuild_dropped(
    empty_db, tmp_path, small_graph_of, neo4j_server
):
    save_graph(small_graph_of(["p1", "p2", "p3"]), tmp_path / "graph.json")
    first = paperkg(
        "push", str(tmp_path), "--uri", neo4j_server.uri, password=neo4j_server.password
    )
    assert first.returncode == 0, first.stderr
    save_graph(small_graph_of(["p1", "p2"]), tmp_path / "graph.json")

    done = paperkg(
        "push", str(tmp_path), "--uri", neo4j_server.uri, "--prune",
        password=neo4j_server.password,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert "pruned 3 nodes" in done.stdout
    assert database_counts(empty_db)[0]["Paper"] == 2


def error_line(done) -> str:
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def test_wrong_password(built, neo4j_server):
    done = paperkg("push", str(built), "--uri", neo4j_server.uri, password="not-the-password")
    line = error_line(done)
    assert "refused the login" in line and "NEO4J_PASSWORD" in line
    assert "not-the-password" not in done.stdout + done.stderr


def test_unreachable_server(built):
    port = neo4j_test_server.free_port()  # nobody listens there
    done = paperkg("push", str(built), "--uri", f"bolt://127.0.0.1:{port}", password="x")
    line = error_line(done)
    assert f"cannot reach Neo4j at bolt://127.0.0.1:{port}" in line


def test_missing_database(built, neo4j_server):
    done = paperkg(
        "push", str(built), "--uri", neo4j_server.uri, "--database", "nosuchdb",
        password=neo4j_server.password,
    )  # fmt: skip
    line = error_line(done)
    assert "database 'nosuchdb' does not exist" in line and "--database neo4j" in line


def test_password_only_from_the_environment(built, neo4j_server):
    line = error_line(paperkg("push", str(built), "--uri", neo4j_server.uri))
    assert "NEO4J_PASSWORD" in line


def test_not_a_neo4j_uri(built):
    line = error_line(paperkg("push", str(built), "--uri", "http://localhost:7474", password="x"))
    assert "bolt://" in line


def test_missing_build(tmp_path, neo4j_server):
    line = error_line(
        paperkg("push", str(tmp_path), "--uri", neo4j_server.uri, password=neo4j_server.password)
    )
    assert "graph.json" in line


@pytest.mark.parametrize(
    "version, accepted",
    [
        ("5.26.30", True),
        ("5.27-aura", True),
        ("2025.01.0", True),
        ("4.4.41", False),
        ("3.5.0", False),
    ],
)
def test_server_version_check(version, accepted):
    components = [{"name": "Neo4j Kernel", "versions": [version], "edition": "community"}]
    if accepted:
        assert check_server_version(components) == version
    else:
        with pytest.raises(ExportError, match=f"Neo4j {version} is too old"):
            check_server_version(components)
