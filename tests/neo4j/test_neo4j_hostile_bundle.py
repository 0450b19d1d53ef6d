"""The neo4j/ bundle of a hostile corpus goes through Neo4j's own import tool whole."""

from __future__ import annotations

import shlex

import neo4j
import neo4j_test_server
import pytest

from paperkg.export.neo4j_load import database_counts
from paperkg.export.neo4j_rows import graph_rows
from paperkg.graph import load_graph

pytestmark = pytest.mark.neo4j


def test_neo4j_admin_imports_the_hostile_corpus_bundle(hostile_build, hostile_papers, tmp_path):
    out, _ = hostile_build
    rows = graph_rows(load_graph(out))
    readme = (out / "neo4j" / "README.txt").read_text()
    command = next(line.strip() for line in readme.splitlines() if "neo4j-admin database" in line)

    home = tmp_path / "home"
    done = neo4j_test_server.neo4j_admin(shlex.split(command)[1:], home=home, cwd=out / "neo4j")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]

    with neo4j_test_server.running_server(tmp_path, home=home, heap="512m") as server:
        with neo4j.GraphDatabase.driver(server.uri, auth=server.auth) as db:
            assert database_counts(db) == (rows.node_counts(), rows.rel_counts())
            records = db.execute_query("MATCH (p:Paper) RETURN p.id AS id, p.title AS title")
            titles = {r["id"]: r["title"] for r in records.records}
            assert set(titles) == hostile_papers
            assert titles["paper:cypher"] == "'}) DETACH DELETE n // and `backticks` and $param"
            assert titles["paper:ctrl"] == "Control\x02 characters\x1b in a title"  # as read
            assert len(titles["paper:long-title"]) == 10_000
