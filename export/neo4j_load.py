"""Load a paperkg graph into a running Neo4j through the official driver.

The caller owns the :class:`neo4j.Driver`::

    from neo4j import GraphDatabase
    from paperkg.export.neo4j_load import push_graph

    with GraphDatabase.driver("bolt://localhost:7687", auth=("neo4j", password)) as driver:
        report = push_graph(driver, graph, database="neo4j")

Loading is idempotent and incremental: nodes are MERGEd on their ``id``
(the networkx node id) and relationships on (start, type, end), and every
property is overwritten from the graph being pushed, so pushing the same build
twice changes nothing and pushing a bigger build adds the new papers and
updates concept counts without duplicates. Nothing is deleted unless
``prune=True`` (``paperkg push --prune``): then the database's paperkg part is
made equal to the graph: nodes of paperkg labels and relationships of paperkg
types that the graph lacks are deleted, and properties it lacks are removed.
Nodes of other labels are never touched.

Order of work: check the server (reachable, login, database, version >= 5),
create uniqueness constraints on every label's ``id`` and indexes on ``name``,
then send ``UNWIND $rows`` batches per label and per relationship pattern in
managed write transactions (``session.execute_write``), which the driver
retries on transient errors. The Cypher texts live in :mod:`.cypher`.

The rows come from :mod:`paperkg.export.neo4j_rows` (shared with the bulk
bundle, and free of the driver import).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import neo4j
import networkx as nx
from neo4j.exceptions import (
    AuthError,
    ClientError,
    ConfigurationError,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
)

from ..errors import ExportError
from ..graph.schema import NODE_LABELS
from . import cypher
from .neo4j_rows import DEFAULT_BATCH_SIZE, GraphRows, graph_rows

logger = logging.getLogger(__name__)

PASSWORD_ENV = "NEO4J_PASSWORD"
MIN_SERVER_MAJOR = 5
#: Bolt URI schemes (plain, TLS, TLS with a self-signed certificate; direct or routed)
URI_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


@dataclass
class PushReport:
    """What :func:`push_graph` sent and what the server says it changed."""

    server_version: str
    database: str | None
    #: rows sent per node label / relationship type (= the graph's counts)
    nodes: dict[str, int]
    relationships: dict[str, int]
    nodes_created: int = 0
    relationships_created: int = 0
    properties_set: int = 0
    constraints_added: int = 0
    indexes_added: int = 0
    #: only with ``prune=True``: what was in the database but not in the graph
    nodes_deleted: int = 0
    relationships_deleted: int = 0
    batches: int = 0
    seconds: float = 0.0


def _batches(rows: list[dict[str, Any]], size: int) -> Iterator[tuple[list[dict[str, Any]], int]]:
    for start in range(0, len(rows), size):
        batch = rows[start : start + size]
        yield batch, len(batch)


def rel_batches(
    rows: list[dict[str, Any]], size: int
) -> Iterator[tuple[list[dict[str, Any]], int]]:
    """Relationship rows grouped by start node for :data:`.cypher.MERGE_RELS`.

    Yields ``(groups, relationships)`` with at most ``size`` relationships per batch.

    >>> rows = [{"src": "a", "dst": d, "props": {}} for d in "xyz"]
    >>> [(len(groups), n) for groups, n in rel_batches(rows, 2)]
    [(1, 2), (1, 1)]
    """
    groups: dict[str, list[dict[str, Any]]] = {}
    count = 0
    for row in rows:
        groups.setdefault(row["src"], []).append({"dst": row["dst"], "props": row["props"]})
        count += 1
        if count == size:
            yield [{"src": src, "rels": rels} for src, rels in groups.items()], count
            groups, count = {}, 0
    if count:
        yield [{"src": src, "rels": rels} for src, rels in groups.items()], count


# --- talking to the server -----------------------------------------------------------------


def check_server_version(components: list[dict[str, Any]]) -> str:
    """Return the Neo4j version from ``CALL dbms.components()`` rows; refuse versions < 5.

    >>> check_server_version([{"name": "Neo4j Kernel", "versions": ["5.26.0"], "edition": "community"}])
    '5.26.0'
    """
    for component in components:
        if component.get("name") == "Neo4j Kernel" and component.get("versions"):
            version = str(component["versions"][0])
            break
    else:
        raise ExportError(
            f"cannot tell the Neo4j version from dbms.components() (got {components!r}); "
            f"paperkg needs Neo4j {MIN_SERVER_MAJOR} or newer"
        )
    try:
        major = int(version.split(".")[0])
    except ValueError:
        raise ExportError(
            f"cannot read the Neo4j version {version!r}; paperkg needs Neo4j {MIN_SERVER_MAJOR}+"
        ) from None
    if major < MIN_SERVER_MAJOR:
        raise ExportError(
            f"Neo4j {version} is too old: paperkg needs Neo4j {MIN_SERVER_MAJOR} or newer "
            "(e.g. Docker image neo4j:5); upgrade the server, or load the neo4j/ bundle by hand"
        )
    return version


def _first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]


#: what a server says to a user who may read but not write (a read-only role, a
#: read replica, a read session)
_NO_WRITE_CODES = frozenset(
    {"Neo.ClientError.Security.Forbidden", "Neo.ClientError.Statement.AccessMode"}
)


def translate_error(
    error: Exception, *, uri: str | None = None, database: str | None = None
) -> ExportError:
    """One clear :class:`ExportError` line for a driver error a user will meet."""
    where = f"Neo4j at {uri}" if uri else "the Neo4j server"
    if isinstance(error, AuthError):
        return ExportError(
            f"{where} refused the login: wrong user or password; "
            f"check --user and the {PASSWORD_ENV} environment variable"
        )
    if isinstance(error, ServiceUnavailable):
        detail = "" if uri else f" ({_first_line(error).rstrip(':')})"
        return ExportError(
            f"cannot reach {where}{detail}: "
            "is the server running, and are the host and Bolt port (usually 7687) right?"
        )
    if isinstance(error, ClientError) and error.code == "Neo.ClientError.Database.DatabaseNotFound":
        name = database or "(the default database)"
        return ExportError(
            f"database {name!r} does not exist on {where}; create it first "
            "(CREATE DATABASE, Enterprise and Aura only) or pass --database neo4j"
        )
    if isinstance(error, Neo4jError) and error.code in _NO_WRITE_CODES:
        name = database or "the default database"
        return ExportError(
            f"{where} does not let this user write to {name} ({_first_line(error)}); "
            "push with a user that may write and create constraints and indexes "
            "(the admin, or a role with WRITE and INDEX/CONSTRAINT MANAGEMENT), "
            "or load the neo4j/ bundle as such a user"
        )
    if isinstance(error, ConfigurationError) or (isinstance(error, ValueError) and uri):
        return _bad_uri(uri, _first_line(error))
    if isinstance(error, Neo4jError):
        return ExportError(f"{where} refused the load: {error.code}: {_first_line(error)}")
    return ExportError(f"talking to {where} failed: {_first_line(error)}")


def _bad_uri(uri: str | None, why: str) -> ExportError:
    return ExportError(
        f"cannot use {uri!r} as a Neo4j address ({why}); expected e.g. bolt://localhost:7687, "
        "neo4j://host:7687 or neo4j+s://xxxx.databases.neo4j.io (Aura)"
    )


def server_version(driver: neo4j.Driver, *, database: str | None = None) -> str:
    """The server's Neo4j version, after checking it answers, logs us in and has ``database``."""
    with driver.session(database=database) as session:
        # An auto-commit query: fails at once instead of being retried like execute_write.
        records = [r.data() for r in session.run(cypher.SERVER_COMPONENTS)]
    return check_server_version(records)


def _write(tx: neo4j.ManagedTransaction, query: str, params: dict[str, Any]) -> Any:
    return tx.run(query, params).consume().counters


def push_graph(
    driver: neo4j.Driver,
    graph: nx.Graph,
    *,
    database: str | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: Callable[[int, int], None] | None = None,
    prune: bool = False,
) -> PushReport:
    """MERGE a paperkg graph into Neo4j, schema first, in ``UNWIND`` batches.

    Parameters
    ----------
    driver
        An open :class:`neo4j.Driver`; the caller closes it.
    graph
        A paperkg graph (see :mod:`paperkg.graph.schema`).
    database
        Target database; ``None`` means the user's home database.
    batch_size
        Rows per transaction.
    progress
        Called as ``progress(rows_done, rows_total)`` after every batch.
    prune
        Make the database's paperkg nodes and relationships equal to the graph:
        delete those the graph lacks (a node with all its relationships) and
        the properties it lacks. For a rebuilt corpus; a push of a part of a
        corpus with ``prune`` deletes the rest.

    Returns
    -------
    PushReport
        Rows sent per label and type, and what the server created.

    Raises
    ------
    ExportError
        The graph does not follow the schema, or the server is unreachable,
        refuses the login, lacks the database, is older than Neo4j 5 or
        rejects a write; always one line saying what to do.
    """
    if batch_size < 1:
        raise ExportError(f"batch size must be at least 1, got {batch_size}")
    rows = graph_rows(graph)
    started = time.perf_counter()
    try:
        version = server_version(driver, database=database)
        report = PushReport(
            server_version=version,
            database=database,
            nodes=rows.node_counts(),
            relationships=rows.rel_counts(),
        )
        with driver.session(database=database) as session:
            _create_schema(session, report)
            if prune:
                _delete_what_the_graph_lacks(session, rows, report, batch_size)
            _merge_rows(
                session, rows, report, batch_size=batch_size, prune=prune, progress=progress
            )
    except (DriverError, Neo4jError) as e:
        raise translate_error(e, database=database) from e
    report.seconds = time.perf_counter() - started
    logger.info(
        "pushed %d nodes and %d relationships in %d batches (%.2f s): %d nodes and %d "
        "relationships created",
        sum(report.nodes.values()),
        sum(report.relationships.values()),
        report.batches,
        report.seconds,
        report.nodes_created,
        report.relationships_created,
    )
    return report


def _create_schema(session: neo4j.Session, report: PushReport) -> None:
    """Uniqueness constraints on every label's ``id`` and indexes on ``name``, before any
    MERGE (a MERGE without them scans every node of its label); waits until they are online."""
    for label in NODE_LABELS:
        counters = session.execute_write(_write, cypher.CREATE_CONSTRAINT[label], {})
        report.constraints_added += counters.constraints_added
        counters = session.execute_write(_write, cypher.CREATE_NAME_INDEX[label], {})
        report.indexes_added += counters.indexes_added
    session.run(cypher.AWAIT_INDEXES).consume()


def _merge_rows(
    session: neo4j.Session,
    rows: GraphRows,
    report: PushReport,
    *,
    batch_size: int,
    prune: bool,
    progress: Callable[[int, int], None] | None,
) -> None:
    """Send the nodes, then the relationships, in ``UNWIND`` batches of one write transaction
    each, counting what the server changed into ``report``; with ``prune``, the queries that
    also remove the properties the graph lacks."""
    total = sum(map(len, rows.nodes.values())) + sum(map(len, rows.rels.values()))
    merge_nodes = cypher.REPLACE_NODES if prune else cypher.MERGE_NODES
    merge_rels = cypher.REPLACE_RELS if prune else cypher.MERGE_RELS
    done = 0
    work = [
        (merge_nodes[label], _batches(node_rows, batch_size))
        for label, node_rows in rows.nodes.items()
    ]
    work += [
        (merge_rels[pattern], rel_batches(rel_rows, batch_size))
        for pattern, rel_rows in rows.rels.items()
    ]
    for query, batches in work:
        for batch, size in batches:
            counters = session.execute_write(_write, query, {"rows": batch})
            report.nodes_created += counters.nodes_created
            report.relationships_created += counters.relationships_created
            report.properties_set += counters.properties_set
            report.batches += 1
            done += size
            if progress is not None:
                progress(done, total)


def _delete_what_the_graph_lacks(
    session: neo4j.Session, rows: GraphRows, report: PushReport, batch_size: int
) -> None:
    """Delete paperkg nodes and relationships that are in the database but not in ``rows``."""
    for label in NODE_LABELS:
        ids = [r["id"] for r in rows.nodes.get(label, [])]
        counters = session.execute_write(_write, cypher.DELETE_NODES_NOT_IN[label], {"ids": ids})
        report.nodes_deleted += counters.nodes_deleted
        report.relationships_deleted += counters.relationships_deleted
    for pattern, query in cypher.LIST_RELS.items():
        wanted = {(r["src"], r["dst"]) for r in rows.rels.get(pattern, [])}
        stale = [
            {"src": r["src"], "dst": r["dst"]}
            for r in session.execute_read(lambda tx, q=query: list(tx.run(q)))
            if (r["src"], r["dst"]) not in wanted
        ]
        for batch, _ in _batches(stale, batch_size):
            counters = session.execute_write(_write, cypher.DELETE_RELS[pattern], {"rows": batch})
            report.relationships_deleted += counters.relationships_deleted


def open_driver(
    uri: str, *, user: str = "neo4j", password: str | None = None, database: str | None = None
) -> neo4j.Driver:
    """Open a driver and check the server answers; the password defaults to ``$NEO4J_PASSWORD``.

    The password is never logged. Close the driver when done (it is a context manager).
    """
    scheme = uri.split("://", 1)[0].lower() if "://" in uri else ""
    if scheme not in URI_SCHEMES:
        raise _bad_uri(uri, f"the scheme must be one of {', '.join(URI_SCHEMES)}")
    if password is None:
        password = os.environ.get(PASSWORD_ENV)
    if password is None:
        raise ExportError(
            f"no Neo4j password: set the {PASSWORD_ENV} environment variable "
            f"(e.g. export {PASSWORD_ENV}=...) for user {user!r}"
        )
    try:
        driver = neo4j.GraphDatabase.driver(uri, auth=(user, password), connection_timeout=15)
    except (DriverError, ValueError) as e:
        raise translate_error(e, uri=uri) from e
    try:
        driver.verify_connectivity()
    except (DriverError, Neo4jError) as e:
        driver.close()
        raise translate_error(e, uri=uri, database=database) from e
    return driver


def push_to_neo4j(
    graph: nx.Graph,
    *,
    uri: str,
    user: str = "neo4j",
    password: str | None = None,
    database: str | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: Callable[[int, int], None] | None = None,
    prune: bool = False,
) -> PushReport:
    """Open a driver on ``uri``, :func:`push_graph`, close it. For ``paperkg build --neo4j-uri``.

    The password defaults to the ``NEO4J_PASSWORD`` environment variable.
    """
    with open_driver(uri, user=user, password=password, database=database) as driver:
        try:
            return push_graph(
                driver,
                graph,
                database=database,
                batch_size=batch_size,
                progress=progress,
                prune=prune,
            )
        except ExportError as e:
            cause = e.__cause__
            if isinstance(cause, (DriverError, Neo4jError)):
                raise translate_error(cause, uri=uri, database=database) from cause
            raise


def database_counts(
    driver: neo4j.Driver, *, database: str | None = None
) -> tuple[dict[str, int], dict[str, int]]:
    """Node counts per label and relationship counts per type, as the database holds them now."""
    with driver.session(database=database) as session:
        nodes = {r["label"]: r["n"] for r in session.run(cypher.COUNT_NODES_BY_LABEL)}
        rels = {r["type"]: r["n"] for r in session.run(cypher.COUNT_RELS_BY_TYPE)}
    return nodes, rels
