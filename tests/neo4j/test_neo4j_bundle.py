"""The neo4j/ bundle gives the same graph as push: via import.cypher and via neo4j-admin import."""

from __future__ import annotations

import shlex
import shutil

import neo4j
import neo4j_test_server
import pytest

from paperkg.export.neo4j_bundle import write_neo4j_bundle
from paperkg.export.neo4j_load import database_counts, push_graph
from paperkg.export.neo4j_rows import graph_rows

pytestmark = pytest.mark.neo4j


def snapshot(driver):
    """Every node and relationship with its labels/type and properties, sorted."""
    nodes = driver.execute_query(
        "MATCH (n) RETURN labels(n) AS labels, properties(n) AS props ORDER BY n.id"
    ).records
    rels = driver.execute_query(
        "MATCH (a)-[r]->(b) RETURN a.id AS a, type(r) AS type, b.id AS b, properties(r) AS props "
        "ORDER BY a, type, b"
    ).records
    return [r.data() for r in nodes], [r.data() for r in rels]


def cypher_statements(script: str) -> list[str]:
    """Split a cypher-shell script into statements (``;`` ends a line), dropping comments."""
    lines = [line for line in script.splitlines() if not line.lstrip().startswith("//")]
    text = "\n".join(lines)
    return [s.strip() for s in text.split(";\n") if s.strip().rstrip(";")]


def run_import_script(driver, bundle, import_dir):
    for csv_file in bundle.glob("*.csv"):
        shutil.copy(csv_file, import_dir / csv_file.name)
    statements = cypher_statements((bundle / "import.cypher").read_text())
    with driver.session() as session:  # auto-commit, like cypher-shell
        for statement in statements:
            session.run(statement.rstrip(";")).consume()
    return statements


def test_bundle_files(tmp_path, small_graph):
    report = write_neo4j_bundle(small_graph, tmp_path / "neo4j")

    names = sorted(p.name for p in report.files)
    assert "import.cypher" in names and "README.txt" in names
    assert "nodes_Paper.csv" in names and "rels_CO_OCCURS_WITH.csv" in names
    header = (tmp_path / "neo4j" / "nodes_Paper.csv").read_text().splitlines()[0]
    assert header.startswith("id:ID,:LABEL,") and "authors:string[]" in header
    assert "year:long" in header
    readme = (tmp_path / "neo4j" / "README.txt").read_text()
    assert "neo4j-admin database import full neo4j" in readme
    assert report.nodes == {"Paper": 3, "Method": 4, "Dataset": 2, "Task": 2}


def test_import_script_loads_what_push_loads(empty_db, small_graph, tmp_path, neo4j_server):
    pushed = push_graph(empty_db, small_graph)
    expected = snapshot(empty_db)
    empty_db.execute_query("MATCH (n) DETACH DELETE n")

    report = write_neo4j_bundle(small_graph, tmp_path / "neo4j")
    statements = run_import_script(empty_db, tmp_path / "neo4j", neo4j_server.import_dir)

    assert any(s.startswith("LOAD CSV") for s in statements)
    assert report.nodes == pushed.nodes and report.relationships == pushed.relationships
    assert snapshot(empty_db) == expected


def test_import_script_is_idempotent(empty_db, small_graph, tmp_path, neo4j_server):
    write_neo4j_bundle(small_graph, tmp_path / "neo4j")
    run_import_script(empty_db, tmp_path / "neo4j", neo4j_server.import_dir)
    once = snapshot(empty_db)

    run_import_script(empty_db, tmp_path / "neo4j", neo4j_server.import_dir)

    assert snapshot(empty_db) == once


def test_awkward_values_survive_the_csv(empty_db, small_graph, tmp_path, neo4j_server):
    paper = small_graph.nodes["paper:p1"]
    paper["abstract"] = 'Line one, with "quotes";\nline two \\ back\\slash, $\\ell_p$ and 中文.'
    paper["authors"] = ["O'Brien, Pat", "Smith | Jones"]
    push_graph(empty_db, small_graph)
    pushed = empty_db.execute_query("MATCH (p:Paper {id: 'paper:p1'}) RETURN p").records[0]["p"]
    empty_db.execute_query("MATCH (n) DETACH DELETE n")

    report = write_neo4j_bundle(small_graph, tmp_path / "neo4j")
    run_import_script(empty_db, tmp_path / "neo4j", neo4j_server.import_dir)

    loaded = empty_db.execute_query("MATCH (p:Paper {id: 'paper:p1'}) RETURN p").records[0]["p"]
    assert loaded["abstract"] == pushed["abstract"]
    assert loaded["authors"] == ["O'Brien, Pat", "Smith ¦ Jones"]  # the array delimiter is replaced
    assert report.replaced_delimiters == 1


def test_neo4j_admin_import_with_the_readme_command(driver, small_graph, tmp_path, empty_db):
    """Run the README.txt command with Neo4j's own import tool, start a server on the result."""
    push_graph(empty_db, small_graph)
    expected = snapshot(empty_db)
    bundle = tmp_path / "neo4j"
    write_neo4j_bundle(small_graph, bundle)
    readme = (bundle / "README.txt").read_text()
    command = next(line.strip() for line in readme.splitlines() if "neo4j-admin database" in line)
    args = shlex.split(command)
    assert args[0] == "neo4j-admin"

    home = tmp_path / "imported-home"
    done = neo4j_test_server.neo4j_admin(args[1:], home=home, cwd=bundle)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "IMPORT DONE" in done.stdout

    with neo4j_test_server.running_server(tmp_path, home=home, heap="512m") as server:
        with neo4j.GraphDatabase.driver(server.uri, auth=server.auth) as imported:
            assert snapshot(imported) == expected


HOSTILE = [
    "'}) DETACH DELETE n //",
    "`) MATCH (m) DETACH DELETE m //",
    '"; DROP CONSTRAINT paperkg_paper_id; //',
    "$rows",
    "<script>alert('x')</script>",
    "a\\' OR 1=1 --",
]


def test_names_that_look_like_cypher_are_stored_as_data(
    empty_db, small_graph, tmp_path, neo4j_server
):
    method = next(n for n, d in small_graph.nodes(data=True) if d["label"] == "Method")
    small_graph.nodes[method]["aliases"] = HOSTILE
    small_graph.nodes["paper:p1"]["title"] = HOSTILE[0]
    small_graph.nodes["paper:p1"]["authors"] = HOSTILE[1:3]
    rows = graph_rows(small_graph)
    counts = rows.node_counts(), rows.rel_counts()

    for load in ("push", "bundle"):
        empty_db.execute_query("MATCH (n) DETACH DELETE n")
        if load == "push":
            push_graph(empty_db, small_graph)
        else:
            write_neo4j_bundle(small_graph, tmp_path / "neo4j")
            run_import_script(empty_db, tmp_path / "neo4j", neo4j_server.import_dir)
        assert database_counts(empty_db) == counts, load  # nothing deleted, nothing added
        records = empty_db.execute_query(
            "MATCH (m {id: $id}) RETURN m.aliases AS aliases", id=method
        ).records
        assert records[0]["aliases"] == HOSTILE, load
        paper = empty_db.execute_query("MATCH (p:Paper {id: 'paper:p1'}) RETURN p").records[0]["p"]
        assert paper["title"] == HOSTILE[0] and paper["authors"] == HOSTILE[1:3], load
