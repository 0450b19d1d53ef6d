"""A real Neo4j 5.26 for the whole test session, and small graphs to load into it.

The server is the Maven module ``tests/neo4j_server`` (built by install.sh, or
here on first use). Every test marked ``neo4j`` gets it; the database is
emptied before each test that asks for ``empty_db``.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import neo4j
import networkx as nx
import pytest

from paperkg.graph.builder import build_knowledge_graph
from paperkg.graph.schema import NODE_LABELS
from paperkg.records import ENTITY_LABELS, Concept, Mention, Paper, PaperMentions, Resolution

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "neo4j_server"))
import neo4j_test_server  # noqa: E402


@pytest.fixture(scope="session")
def neo4j_server(tmp_path_factory):
    """Connection info of a running Neo4j (uri, user, password, import_dir)."""
    if shutil.which("java") is None:
        reason = "java is not installed: the Neo4j tests need Java 17 (apt-get install openjdk-17-jdk-headless)"
        if os.environ.get("CI"):
            pytest.fail(reason + "; CI must run the Neo4j tests, not skip them")
        pytest.skip(reason)
    with neo4j_test_server.running_server(tmp_path_factory.mktemp("neo4j")) as server:
        yield server


@pytest.fixture(scope="session")
def driver(neo4j_server):
    with neo4j.GraphDatabase.driver(neo4j_server.uri, auth=neo4j_server.auth) as drv:
        yield drv


@pytest.fixture
def empty_db(driver):
    """The driver, on a database with no data and none of paperkg's constraints or indexes."""
    with driver.session() as session:  # IN TRANSACTIONS needs an auto-commit query
        session.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS").consume()
    for label in NODE_LABELS:
        driver.execute_query(f"DROP CONSTRAINT paperkg_{label.lower()}_id IF EXISTS")
        driver.execute_query(f"DROP INDEX paperkg_{label.lower()}_name IF EXISTS")
    return driver


# --- small graphs, built by paperkg's own graph builder from hand-written mentions ----------

#: paper id -> (title, authors, [(NER label, canonical key, surface text, proposed)])
SMALL_CORPUS = {
    "p1": (
        "LADS: label-efficient domain shift",
        ["Ada Lovelace", "Alan Turing"],
        [
            ("METHOD", "lads", "LADS", True),
            ("DATASET", "cifar-10", "CIFAR-10", False),
            ("DATASET", "cifar-100", "CIFAR-100", False),
            ("TASK", "image classification", "image classification", False),
        ],
    ),
    "p2": (
        "Distilling with SelKD",
        ["Grace Hopper"],
        [
            ("METHOD", "selkd", "SelKD", True),
            ("METHOD", "knowledge distillation", "knowledge distillation", False),
            ("METHOD", "knowledge distillation", "KD", False),
            ("DATASET", "cifar-100", "CIFAR100", False),
            ("TASK", "image classification", "image classification", False),
        ],
    ),
    "p3": (
        "Routing queries with EmbedLLM",
        [],
        [
            ("METHOD", "embedllm", "EmbedLLM", True),
            ("METHOD", "knowledge distillation", "knowledge distillation", False),
            ("TASK", "model routing", "model routing", False),
            ("DATASET", "cifar-10", "CIFAR-10", False),
        ],
    ),
}


def build_small_graph(paper_ids=("p1", "p2", "p3")) -> nx.DiGraph:
    """A paperkg graph of some papers of SMALL_CORPUS, made by graph.builder."""
    results, concept_of = [], []
    concepts: dict[str, Concept] = {}
    for pid in paper_ids:
        title, authors, mentions = SMALL_CORPUS[pid]
        sentence = f"In {title} we study things."
        paper = Paper(
            id=pid,
            abstract=sentence,
            text=sentence,
            source=f"small.txt#{pid}",
            title=title,
            year=2025,
            venue="ICLR",
            authors=list(authors),
        )
        records, ids = [], []
        for ner, key, text, proposed in mentions:
            label = ENTITY_LABELS[ner]
            cid = f"{label}:{key}"
            concept = concepts.setdefault(cid, Concept(id=cid, label=label, key=key, name=text))
            concept.aliases[text] = concept.aliases.get(text, 0) + 1
            if text.lower() != key:
                concept.merge_reasons[text] = "test alias"
            records.append(Mention(text, ner, 0, len(text), sentence, proposed))
            ids.append(cid)
        results.append(PaperMentions(paper=paper, mentions=records))
        concept_of.append(ids)
    return build_knowledge_graph(results, Resolution(concepts=concepts, concept_of=concept_of))


@pytest.fixture
def small_graph() -> nx.DiGraph:
    return build_small_graph()


@pytest.fixture
def small_graph_of():
    """``small_graph_of(["p1", "p2"])``: the small graph of some of its papers."""
    return build_small_graph
