"""Database faults against a real Neo4j: the server lost in the middle of a push."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import neo4j
import neo4j_test_server
import pytest
from synthetic_field import synthetic_field

from paperkg.export.neo4j_load import database_counts, translate_error
from paperkg.export.neo4j_rows import graph_rows
from paperkg.graph.io import save_graph

pytestmark = pytest.mark.neo4j


def push_command(build, uri, password):
    env = {**os.environ, "NEO4J_PASSWORD": password}
    cmd = [sys.executable, "-m", "paperkg.cli", "push", str(build), "--uri", uri]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_server_lost_mid_push_is_one_line_and_a_rerun_completes_exactly(tmp_path):
    graph = synthetic_field(6000, seed=4)
    save_graph(graph, tmp_path / "build" / "graph.json")
    home = tmp_path / "neo4j-home"  # one database, across a crash and a restart

    with neo4j_test_server.running_server(tmp_path / "first", home=home) as server:
        push = push_command(tmp_path / "build", server.uri, server.password)
        with neo4j.GraphDatabase.driver(server.uri, auth=server.auth) as driver:
            deadline = time.monotonic() + 60
            while not sum(database_counts(driver)[0].values()) and time.monotonic() < deadline:
                time.sleep(0.1)
        assert push.poll() is None, "the push ended before the server could be stopped"
        os.kill(server.pid, signal.SIGKILL)  # the server dies mid-push, as on a crash
        stdout, stderr = push.communicate(timeout=120)

    assert push.returncode == 1
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    assert "Traceback" not in stdout + stderr
    assert server.password not in stdout + stderr

    with neo4j_test_server.running_server(tmp_path / "second", home=home) as server:
        rerun = push_command(tmp_path / "build", server.uri, server.password)
        _, stderr = rerun.communicate(timeout=300)
        assert rerun.returncode == 0, stderr
        with neo4j.GraphDatabase.driver(server.uri, auth=server.auth) as driver:
            rows = graph_rows(graph)
            expected = rows.node_counts(), rows.rel_counts()
            assert database_counts(driver) == expected  # exact: no duplicates


def test_a_user_who_may_not_write_gets_one_line_saying_what_to_use(driver):
    # Community Edition has no read-only roles; the server's own refusal of a write
    # in a read session is the same kind of error, made real here
    with driver.session(default_access_mode=neo4j.READ_ACCESS) as session:
        with pytest.raises(neo4j.exceptions.Neo4jError) as refused:
            session.run("CREATE (:Probe)").consume()

    error = translate_error(refused.value, uri="bolt://db:7687", database="neo4j")

    message = str(error)
    assert "does not let this user write to neo4j" in message and "\n" not in message
    assert "a user that may write" in message
