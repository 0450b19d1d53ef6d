"""Every Cypher text paperkg sends to Neo4j, in one place.

Data always travels as parameters (``$rows``, ``$id``, ``$props``). Labels and
relationship types cannot be parameters, so each query that needs one is
picked from a fixed dict built here from :mod:`paperkg.graph.schema`; nothing
read from a graph is ever formatted into query text.

Node property ``id`` holds the networkx node id. Concept-to-concept
co-occurrence is stored once per pair, so query it without a direction:
``(a)-[:CO_OCCURS_WITH]-(b)``.
"""

from __future__ import annotations

from ..graph.schema import (
    CO_OCCURS,
    CONCEPT_LABELS,
    IS_A,
    NODE_LABELS,
    PAPER,
    PAPER_EDGE_TYPES,
)

#: (relationship type, start label, end label) for every relationship a paperkg graph may hold
REL_PATTERNS: tuple[tuple[str, str, str], ...] = (
    *((rel, PAPER, label) for rel in PAPER_EDGE_TYPES for label in CONCEPT_LABELS),
    *((CO_OCCURS, a, b) for a in CONCEPT_LABELS for b in CONCEPT_LABELS),
    *((IS_A, label, label) for label in CONCEPT_LABELS),
)

# --- server checks -----------------------------------------------------------------------------

SERVER_COMPONENTS = (
    "CALL dbms.components() YIELD name, versions, edition RETURN name, versions, edition"
)

# --- schema: uniqueness constraints and name indexes, created before any MERGE ----------------

CREATE_CONSTRAINT: dict[str, str] = {
    label: (
        f"CREATE CONSTRAINT paperkg_{label.lower()}_id IF NOT EXISTS "
        f"FOR (n:{label}) REQUIRE n.id IS UNIQUE"
    )
    for label in NODE_LABELS
}

CREATE_NAME_INDEX: dict[str, str] = {
    label: f"CREATE INDEX paperkg_{label.lower()}_name IF NOT EXISTS FOR (n:{label}) ON (n.name)"
    for label in NODE_LABELS
}

AWAIT_INDEXES = "CALL db.awaitIndexes(300)"

# --- batched writes: one query per label / relationship pattern, rows as a parameter -----------

#: ``$rows``: list of ``{id, props}``
MERGE_NODES: dict[str, str] = {
    label: f"UNWIND $rows AS row MERGE (n:{label} {{id: row.id}}) SET n += row.props"
    for label in NODE_LABELS
}

#: ``$rows``: list of ``{src, rels: [{dst, props}, ...]}``, relationships grouped by start
#: node so each start node is looked up once per batch, not once per relationship
MERGE_RELS: dict[tuple[str, str, str], str] = {
    (rel, start, end): (
        "UNWIND $rows AS row "
        f"MATCH (a:{start} {{id: row.src}}) "
        "UNWIND row.rels AS rel "
        f"MATCH (b:{end} {{id: rel.dst}}) "
        f"MERGE (a)-[r:{rel}]->(b) SET r += rel.props"
    )
    for rel, start, end in REL_PATTERNS
}

# --- replacing a database's paperkg content (push --prune) ---------------------------------------

#: ``$rows`` as :data:`MERGE_NODES`; properties the row lacks are removed
REPLACE_NODES: dict[str, str] = {
    label: f"UNWIND $rows AS row MERGE (n:{label} {{id: row.id}}) SET n = row.props SET n.id = row.id"
    for label in NODE_LABELS
}

#: ``$rows`` as :data:`MERGE_RELS`; properties the row lacks are removed
REPLACE_RELS: dict[tuple[str, str, str], str] = {
    pattern: query.replace("SET r += rel.props", "SET r = rel.props")
    for pattern, query in MERGE_RELS.items()
}

#: ``$ids``: the ids of one label the pushed graph has; every other node of the label goes
DELETE_NODES_NOT_IN: dict[str, str] = {
    label: f"MATCH (n:{label}) WHERE NOT n.id IN $ids DETACH DELETE n" for label in NODE_LABELS
}

#: the (start id, end id) of every relationship of one paperkg pattern in the database
LIST_RELS: dict[tuple[str, str, str], str] = {
    (rel, start, end): f"MATCH (a:{start})-[:{rel}]->(b:{end}) RETURN a.id AS src, b.id AS dst"
    for rel, start, end in REL_PATTERNS
}

#: ``$rows``: list of ``{src, dst}``; deletes those relationships of one pattern
DELETE_RELS: dict[tuple[str, str, str], str] = {
    (rel, start, end): (
        "UNWIND $rows AS row "
        f"MATCH (a:{start} {{id: row.src}})-[r:{rel}]->(b:{end} {{id: row.dst}}) DELETE r"
    )
    for rel, start, end in REL_PATTERNS
}

# --- one row per round trip: only for bench/neo4j_load.py, to show what batching saves ---------

MERGE_REL_ONE: dict[tuple[str, str, str], str] = {
    (rel, start, end): (
        f"MATCH (a:{start} {{id: $src}}) MATCH (b:{end} {{id: $dst}}) "
        f"MERGE (a)-[r:{rel}]->(b) SET r += $props"
    )
    for rel, start, end in REL_PATTERNS
}

# --- reading back ------------------------------------------------------------------------------

COUNT_NODES_BY_LABEL = "MATCH (n) UNWIND labels(n) AS label RETURN label, count(*) AS n"
COUNT_RELS_BY_TYPE = "MATCH ()-[r]->() RETURN type(r) AS type, count(*) AS n"
