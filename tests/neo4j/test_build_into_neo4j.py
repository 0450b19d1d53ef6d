"""`paperkg build … --neo4j-uri` writes the files and loads the same graph into Neo4j."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from paperkg import load_graph
from paperkg.export.neo4j_load import database_counts

pytestmark = pytest.mark.neo4j


def test_build_loads_the_example_into_neo4j(empty_db, neo4j_server, tmp_path, repo_root):
    env = {**os.environ, "NEO4J_PASSWORD": neo4j_server.password}
    done = subprocess.run(
        [
            sys.executable, "-m", "paperkg.cli", "build", "examples/iclr2025_abstracts.txt",
            "-o", str(tmp_path), "--neo4j-uri", neo4j_server.uri,
        ],
        cwd=repo_root, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert neo4j_server.password not in done.stdout + done.stderr

    graph = load_graph(tmp_path)
    nodes, rels = database_counts(empty_db)
    assert nodes["Paper"] == 19
    assert sum(nodes.values()) == graph.number_of_nodes()
    assert sum(rels.values()) == graph.number_of_edges()


def test_build_without_a_password_says_how_to_give_one(neo4j_server, tmp_path, repo_root):
    env = {k: v for k, v in os.environ.items() if k != "NEO4J_PASSWORD"}
    done = subprocess.run(
        [
            sys.executable, "-m", "paperkg.cli", "build", "examples/iclr2025_abstracts.txt",
            "-o", str(tmp_path), "--neo4j-uri", neo4j_server.uri, "--no-html",
        ],
        cwd=repo_root, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 1
    assert "NEO4J_PASSWORD" in done.stderr
    assert (tmp_path / "graph.json").is_file()  # the files were written before the push
