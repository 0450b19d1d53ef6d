"""push_graph against a real Neo4j: schema, idempotency, increments, property types."""

from __future__ import annotations

import json

import pytest

from paperkg.export import cypher
from paperkg.export.neo4j_load import database_counts, push_graph, rel_batches
from paperkg.export.neo4j_rows import graph_rows
from paperkg.graph.schema import NODE_LABELS

pytestmark = pytest.mark.neo4j


def test_push_writes_every_node_and_relationship(empty_db, small_graph):
    report = push_graph(empty_db, small_graph, batch_size=3)

    nodes, rels = database_counts(empty_db)
    assert nodes == {"Paper": 3, "Method": 4, "Dataset": 2, "Task": 2}
    assert sum(rels.values()) == small_graph.number_of_edges()
    assert rels["PROPOSES"] == 3
    assert report.nodes == nodes and report.relationships == rels
    assert report.nodes_created == small_graph.number_of_nodes()
    assert report.relationships_created == small_graph.number_of_edges()
    assert report.server_version.startswith("5.")
    assert report.batches > len(nodes)  # batch_size=3 splits the work


def test_pushing_twice_changes_nothing(empty_db, small_graph):
    push_graph(empty_db, small_graph)
    before = database_counts(empty_db)

    again = push_graph(empty_db, small_graph)

    assert database_counts(empty_db) == before
    assert again.nodes_created == 0 and again.relationships_created == 0
    assert again.constraints_added == 0


def test_pushing_a_bigger_build_adds_papers_and_updates_counts(empty_db, small_graph_of):
    push_graph(empty_db, small_graph_of(["p1", "p2"]))
    kd = "MATCH (m:Method {id: 'Method:knowledge distillation'}) RETURN m.paper_count AS n"
    assert empty_db.execute_query(kd).records[0]["n"] == 1

    report = push_graph(empty_db, small_graph_of(["p1", "p2", "p3"]))

    nodes, rels = database_counts(empty_db)
    assert nodes["Paper"] == 3
    assert report.nodes_created == 3  # p3, EmbedLLM, model routing
    assert empty_db.execute_query(kd).records[0]["n"] == 2
    weight = empty_db.execute_query(
        "MATCH (:Dataset {name: 'CIFAR-10'})-[r:CO_OCCURS_WITH]-(:Method {name: 'knowledge distillation'}) "
        "RETURN r.weight AS w"
    )
    assert [r["w"] for r in weight.records] == [1]
    assert sum(rels.values()) == small_graph_of().number_of_edges()


def test_pushing_without_prune_never_deletes(empty_db, small_graph_of):
    push_graph(empty_db, small_graph_of(["p1", "p2", "p3"]))

    report = push_graph(empty_db, small_graph_of(["p1", "p2"]))

    assert database_counts(empty_db)[0]["Paper"] == 3
    assert report.nodes_deleted == 0 and report.relationships_deleted == 0


def test_prune_makes_the_database_equal_to_a_smaller_build(empty_db, small_graph_of):
    bigger = small_graph_of(["p1", "p2", "p3"])
    bigger.nodes["paper:p1"]["doi"] = "10.1/old"  # a property the rebuild no longer has
    push_graph(empty_db, bigger)
    empty_db.execute_query("CREATE (:Note {id: 'mine', text: 'not paperkg'})")
    smaller = small_graph_of(["p1", "p2"])

    report = push_graph(empty_db, smaller, prune=True, batch_size=2)

    nodes, rels = database_counts(empty_db)
    assert nodes == {**push_graph(empty_db, smaller).nodes, "Note": 1}
    assert sum(rels.values()) == smaller.number_of_edges()
    assert report.nodes_deleted == 3  # p3, EmbedLLM, model routing
    assert report.relationships_deleted > 0
    p1 = empty_db.execute_query("MATCH (p:Paper {id: 'paper:p1'}) RETURN p").records[0]["p"]
    assert "doi" not in p1 and p1["id"] == "paper:p1"
    again = push_graph(empty_db, smaller, prune=True)
    assert (again.nodes_deleted, again.relationships_deleted, again.nodes_created) == (0, 0, 0)


def test_properties_keep_their_types(empty_db, small_graph):
    push_graph(empty_db, small_graph)

    paper = empty_db.execute_query("MATCH (p:Paper {id: 'paper:p1'}) RETURN p").records[0]["p"]
    assert paper["authors"] == ["Ada Lovelace", "Alan Turing"]
    assert paper["year"] == 2025
    assert "keywords" not in paper  # empty list dropped, like None
    assert "label" not in paper  # the label is the Neo4j label
    kd = empty_db.execute_query(
        "MATCH (m:Method {id: 'Method:knowledge distillation'}) RETURN m"
    ).records[0]["m"]
    assert kd["aliases"] == ["knowledge distillation", "KD"]
    assert json.loads(kd["alias_counts"]) == {"knowledge distillation": 2, "KD": 1}
    assert json.loads(kd["merge_reasons"]) == {"KD": "test alias"}
    uses = empty_db.execute_query(
        "MATCH (:Paper {id: 'paper:p2'})-[r:USES]->(:Method {name: 'knowledge distillation'}) RETURN r"
    ).records[0]["r"]
    assert uses["count"] == 2 and uses["evidence"].startswith("In Distilling")
    assert "type" not in uses


def test_schema_comes_first(empty_db, small_graph):
    report = push_graph(empty_db, small_graph)

    constraints = empty_db.execute_query(
        "SHOW CONSTRAINTS YIELD type, labelsOrTypes, properties RETURN *"
    ).records
    unique_ids = {
        r["labelsOrTypes"][0]
        for r in constraints
        if r["type"] == "UNIQUENESS" and r["properties"] == ["id"]
    }
    assert unique_ids == set(NODE_LABELS)
    indexes = empty_db.execute_query(
        "SHOW INDEXES YIELD labelsOrTypes, properties, state RETURN *"
    ).records
    name_indexes = {r["labelsOrTypes"][0] for r in indexes if r["properties"] == ["name"]}
    assert name_indexes == set(NODE_LABELS)
    assert report.constraints_added == len(NODE_LABELS)


def test_batched_loads_use_the_constraint_index(empty_db, small_graph):
    push_graph(empty_db, small_graph)
    uses = graph_rows(small_graph).rels[("USES", "Paper", "Method")]
    ((groups, _),) = rel_batches(uses, 100)
    plan = empty_db.execute_query(
        "EXPLAIN " + cypher.MERGE_RELS[("USES", "Paper", "Method")], rows=groups
    ).summary.plan
    seeks = json.dumps(plan).count("NodeUniqueIndexSeek")
    assert seeks == 2  # both ends found through the uniqueness constraints' indexes
