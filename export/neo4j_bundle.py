"""Write a graph as a Neo4j bundle: CSV files for ``neo4j-admin database import`` + ``import.cypher``.

The folder holds

* ``nodes_<Label>.csv``: header ``id:ID,:LABEL,name,year:long,authors:string[],…``.
  All labels share one id space (the networkx node id, also stored as property
  ``id``), so a relationship file can point at any node.
* ``rels_<TYPE>.csv``: header ``:START_ID,:END_ID,:TYPE,start_label:IGNORE,
  end_label:IGNORE,…``. The two ``IGNORE`` columns are skipped by
  ``neo4j-admin`` and let ``import.cypher`` MATCH both ends by label.
* ``import.cypher``: constraints, indexes and ``LOAD CSV`` + ``MERGE`` statements
  for ``cypher-shell -f`` on a running server (files in its import folder).
* ``README.txt``: the exact commands.

Both ways give the same nodes, relationships and properties as
:func:`paperkg.export.neo4j_load.push_graph`: each value is what
:func:`~paperkg.export.neo4j_rows.neo4j_value` makes of it there, and nodes and
edges are checked by the same :func:`~paperkg.export.neo4j_rows.node_label` and
:func:`~paperkg.export.neo4j_rows.rel_pattern`, here one at a time.
Arrays use ``|`` as delimiter (``--array-delimiter='|'``); a ``|`` inside a list element is written as ``¦``
and counted in :attr:`BundleReport.replaced_delimiters`.
"""

from __future__ import annotations

import contextlib
import csv
import logging
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx

from ..atomic import atomic_directory
from ..errors import ExportError
from ..graph.schema import EDGE_TYPES, NODE_LABELS
from ..graph.validate import check_graph
from . import cypher
from .neo4j_rows import EDGE_META, NODE_META, neo4j_value, node_label, rel_pattern

logger = logging.getLogger(__name__)

ARRAY_DELIMITER = "|"
DELIMITER_STAND_IN = "¦"
LOAD_CSV_BATCH = 1000

#: Python type of a stored value -> neo4j-admin header type and the Cypher that converts a CSV cell
_SCALAR_TYPES: dict[type, tuple[str, str]] = {
    str: ("", "{v}"),
    int: ("long", "toInteger({v})"),
    float: ("double", "toFloat({v})"),
    bool: ("boolean", "toBoolean({v})"),
}


@dataclass
class BundleReport:
    """What :func:`write_neo4j_bundle` wrote."""

    outdir: Path
    #: nodes per label and relationships per type, as in the CSV files
    nodes: dict[str, int] = field(default_factory=dict)
    relationships: dict[str, int] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)
    replaced_delimiters: int = 0


@dataclass
class _Column:
    name: str
    kind: type  # str, int, float or bool
    is_list: bool = False

    @property
    def header(self) -> str:
        type_name = _SCALAR_TYPES[self.kind][0]
        if self.is_list:
            return f"{self.name}:{type_name or 'string'}[]"
        return f"{self.name}:{type_name}" if type_name else self.name

    def cypher(self) -> str:
        """Cypher that turns this column of a LOAD CSV ``row`` into the stored value."""
        cell = f"row.`{self.header}`"
        convert = _SCALAR_TYPES[self.kind][1]
        if self.is_list:
            split = f"split({cell}, '{ARRAY_DELIMITER}')"
            return split if self.kind is str else f"[x IN {split} | {convert.format(v='x')}]"
        return convert.format(v=cell)


def _kind(value: Any) -> tuple[type, bool] | None:
    if isinstance(value, list):
        return (type(value[0]), True)
    return (type(value), False) if type(value) in _SCALAR_TYPES else None


class _ColumnFinder:
    """The CSV columns of a file: every property key seen, typed by the values it had."""

    def __init__(self) -> None:
        self.seen: dict[str, set[tuple[type, bool] | None]] = {}

    def see(self, data: dict[str, Any], skip: tuple[str, ...]) -> None:
        """Note the kinds of the properties a node's or edge's ``data`` becomes.

        Text and numbers are stored as they are, so only lists and dicts are
        converted (:func:`~paperkg.export.neo4j_rows.neo4j_value`) to learn their kind:
        this pass costs a fraction of making the rows.
        """
        for key, value in data.items():
            if key in skip or key == "id":
                continue
            kind_of = type(value)
            if kind_of is str:
                if not value:
                    continue  # an empty string is not stored
                kind = (str, False)
            elif kind_of is int or kind_of is float or kind_of is bool:
                kind = (kind_of, False)
            elif value is None:
                continue
            elif kind_of is dict:
                kind = (str, False)  # stored as JSON text (neo4j_value)
            elif kind_of is list and _texts(value):
                if not any(value):
                    continue  # only empty strings: not stored
                kind = (str, True)  # aliases, authors, keywords: no need to convert them
            else:
                converted = neo4j_value(value)
                if converted is None:
                    continue
                kind = _kind(converted)
            kinds = self.seen.get(key)
            if kinds is None:
                kinds = self.seen[key] = set()
            kinds.add(kind)

    def columns(self) -> list[_Column]:
        columns = []
        for key in sorted(self.seen):
            kinds = self.seen[key]
            if len(kinds) == 1 and None not in kinds:
                kind, is_list = next(iter(kinds))
            elif kinds <= {(int, False), (float, False)}:
                kind, is_list = float, False
            else:
                logger.warning("property %r has mixed types %s; written as text", key, kinds)
                kind, is_list = str, False
            columns.append(_Column(key, kind, is_list))
        return columns


class _CellWriter:
    def __init__(self) -> None:
        self.replaced = 0

    def cell_of(self, value: Any, column: _Column) -> str:
        """The cell of an attribute's raw ``value``: ``cell(neo4j_value(value))``, with
        text and numbers (most values: 400,000 at 3,218 papers) and lists of text
        written at once."""
        kind = type(value)
        if kind is str:  # a column holding any text is a text column
            return value
        if value is None:
            return ""
        if kind is int:
            return str(value)
        if kind is float:
            return repr(value)
        if kind is list and column.is_list and column.kind is str and _texts(value):
            items = [item for item in value if item]
            cell = ARRAY_DELIMITER.join(items)
            if cell.count(ARRAY_DELIMITER) == len(items) - 1:  # none holds the delimiter
                return cell
        return self.cell(neo4j_value(value), column)

    def cell(self, value: Any, column: _Column) -> str:
        if value is None:
            return ""
        if column.is_list:
            items = []
            for item in value:
                text = _scalar(item)
                if ARRAY_DELIMITER in text:
                    self.replaced += 1
                    text = text.replace(ARRAY_DELIMITER, DELIMITER_STAND_IN)
                items.append(text)
            return ARRAY_DELIMITER.join(items)
        if column.kind is str:
            return value if isinstance(value, str) else str(value)
        return _scalar(value)


def _texts(values: list) -> bool:
    """Whether every item of ``values`` is a ``str`` (a list of names: the common case)."""
    return set(map(type, values)) == _ONLY_STR


_ONLY_STR = {str}


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def write_neo4j_bundle(
    graph: nx.Graph, outdir: str | Path, keep_from: str | Path | None = None
) -> BundleReport:
    """Write the CSV files, ``import.cypher`` and ``README.txt`` of ``graph`` into ``outdir``.

    An earlier bundle in ``outdir`` is replaced whole: the new one is written
    beside it and renamed in (:func:`~paperkg.atomic.atomic_directory`). Other files
    there (a user's own) are kept: those of ``keep_from`` instead, when the earlier
    bundle is there.

    Raises
    ------
    ExportError
        The graph does not follow :mod:`paperkg.graph.schema`, or ``outdir``
        cannot be written.
    """
    check_graph(graph)
    outdir = Path(outdir)
    report = BundleReport(outdir=outdir)
    writer = _CellWriter()
    try:
        with atomic_directory(outdir) as staging:
            _write_bundle(graph, staging, report, writer)
            _keep_users_files(Path(keep_from or outdir), staging)

    except OSError as e:
        raise ExportError(f"cannot write the Neo4j bundle to {outdir}: {e}") from e
    report.replaced_delimiters = writer.replaced
    if writer.replaced:
        logger.warning(
            "%d list element(s) contained the array delimiter %r; written with %r instead",
            writer.replaced,
            ARRAY_DELIMITER,
            DELIMITER_STAND_IN,
        )
    return report


def _keep_users_files(old: Path, new: Path) -> None:
    """Copy the files of the ``old`` bundle that a bundle does not write into ``new``."""
    for path in old.iterdir() if old.is_dir() else ():
        bundle = path.name.startswith(("nodes_", "rels_")) and path.name.endswith(".csv")
        if path.is_file() and not bundle and path.name not in ("import.cypher", "README.txt"):
            shutil.copy2(path, new / path.name)


def _write_bundle(graph, folder: Path, report: BundleReport, writer: _CellWriter) -> None:
    """Write the bundle's files into ``folder``; ``report`` names them at ``report.outdir``.

    Two passes over the graph, rows made one at a time: the first finds each
    file's columns, the second writes every file at once, a cell straight from
    each attribute (:meth:`_CellWriter.cell_of`), not through a row of converted
    properties (a third of the time). Memory stays that of
    the graph itself, whatever its size. Relationship files list their rows in
    graph order; ``import.cypher`` picks each pattern's rows by their labels.
    """
    node_finders: dict[str, _ColumnFinder] = {}
    rel_finders: dict[str, _ColumnFinder] = {}
    patterns: dict[tuple[str, str, str], None] = {}  # in order of first appearance
    # labels and patterns are checked in the second pass (node_label, rel_pattern)
    for _, data in graph.nodes(data=True):
        label = data.get("label")
        node_finders.setdefault(label, _ColumnFinder()).see(data, NODE_META)
        report.nodes[label] = report.nodes.get(label, 0) + 1
    nodes = dict(graph.nodes(data=True))  # a plain dict: looked up twice an edge
    for u, v, data in graph.edges(data=True):
        rel = data.get("type")
        rel_finders.setdefault(rel, _ColumnFinder()).see(data, EDGE_META)
        report.relationships[rel] = report.relationships.get(rel, 0) + 1
        patterns.setdefault((rel, nodes[u].get("label"), nodes[v].get("label")))
    report.nodes = {label: report.nodes[label] for label in NODE_LABELS if label in report.nodes}
    report.relationships = {
        rel: report.relationships[rel] for rel in EDGE_TYPES if rel in report.relationships
    }
    node_columns = {label: node_finders[label].columns() for label in report.nodes}
    rel_columns = {rel: rel_finders[rel].columns() for rel in report.relationships}

    with contextlib.ExitStack() as files:

        def csv_file(name: str, header: list[str]):
            f = files.enter_context(open(folder / name, "w", encoding="utf-8", newline=""))
            out = csv.writer(f)
            out.writerow(header)
            report.files.append(report.outdir / name)
            return out

        node_out = {
            label: csv_file(f"nodes_{label}.csv", ["id:ID", ":LABEL", *(c.header for c in columns)])
            for label, columns in node_columns.items()
        }
        header = [":START_ID", ":END_ID", ":TYPE", "start_label:IGNORE", "end_label:IGNORE"]
        rel_out = {
            rel: csv_file(f"rels_{rel}.csv", [*header, *(c.header for c in columns)])
            for rel, columns in rel_columns.items()
        }
        cell = writer.cell_of
        for node, data in graph.nodes(data=True):
            label = node_label(node, data)
            cells = [cell(data.get(c.name), c) for c in node_columns[label]]
            node_out[label].writerow([str(node), label, *cells])
        for src, dst, data in graph.edges(data=True):
            rel, start, end = rel_pattern(nodes, src, dst, data)
            cells = [cell(data.get(c.name), c) for c in rel_columns[rel]]
            rel_out[rel].writerow([str(src), str(dst), rel, start, end, *cells])

    script = folder / "import.cypher"
    script.write_text(_import_script(node_columns, rel_columns, list(patterns)), encoding="utf-8")
    readme = folder / "README.txt"
    readme.write_text(_readme(report), encoding="utf-8")
    report.files += [report.outdir / script.name, report.outdir / readme.name]


def _props_map(columns: list[_Column]) -> str:
    return "{" + ", ".join(f"`{c.name}`: {c.cypher()}" for c in columns) + "}"


def _import_script(
    node_columns: dict[str, list[_Column]],
    rel_columns: dict[str, list[_Column]],
    patterns: list[tuple[str, str, str]],
) -> str:
    lines = [
        "// paperkg graph for a running Neo4j 5: copy the CSV files of this folder into the",
        "// server's import folder, then run",
        "//   cypher-shell -a bolt://localhost:7687 -u neo4j -d neo4j -f import.cypher",
        "// (password from NEO4J_PASSWORD). Safe to run again: every write is a MERGE.",
        "",
    ]
    for label in NODE_LABELS:
        lines.append(cypher.CREATE_CONSTRAINT[label] + ";")
        lines.append(cypher.CREATE_NAME_INDEX[label] + ";")
    lines += [cypher.AWAIT_INDEXES + ";", ""]
    for label, columns in node_columns.items():
        lines += [
            f"LOAD CSV WITH HEADERS FROM 'file:///nodes_{label}.csv' AS row",
            "CALL {",
            "  WITH row",
            f"  MERGE (n:{label} {{id: row.`id:ID`}})",
            f"  SET n += {_props_map(columns)}",
            f"}} IN TRANSACTIONS OF {LOAD_CSV_BATCH} ROWS;",
            "",
        ]
    for rel, start, end in patterns:
        lines += [
            f"LOAD CSV WITH HEADERS FROM 'file:///rels_{rel}.csv' AS row",
            f"WITH row WHERE row.`start_label:IGNORE` = '{start}'"
            f" AND row.`end_label:IGNORE` = '{end}'",
            "CALL {",
            "  WITH row",
            f"  MATCH (a:{start} {{id: row.`:START_ID`}})",
            f"  MATCH (b:{end} {{id: row.`:END_ID`}})",
            f"  MERGE (a)-[r:{rel}]->(b)",
            f"  SET r += {_props_map(rel_columns[rel])}",
            f"}} IN TRANSACTIONS OF {LOAD_CSV_BATCH} ROWS;",
            "",
        ]
    return "\n".join(lines)


def _readme(report: BundleReport) -> str:
    nodes = " ".join(f"--nodes=nodes_{label}.csv" for label in report.nodes)
    rels = " ".join(f"--relationships=rels_{rel}.csv" for rel in report.relationships)
    counts = ", ".join(f"{n} {label}" for label, n in report.nodes.items())
    rel_counts = ", ".join(f"{n} {rel}" for rel, n in report.relationships.items())
    return f"""paperkg graph as a Neo4j bundle
===============================

Nodes: {counts or "none"}
Relationships: {rel_counts or "none"}

Three ways to get it into Neo4j 5 (all give the same graph):

1. Bulk import into a new, empty database (server stopped, or the database
   dropped), run from inside this folder:

   neo4j-admin database import full neo4j --overwrite-destination --array-delimiter="{ARRAY_DELIMITER}" --multiline-fields=true {nodes} {rels}

   Then start Neo4j and create the constraints and indexes: run the CREATE
   lines at the top of import.cypher (or the whole script: it only MERGEs).

2. Into a running server: copy the CSV files into its import folder
   (Desktop: "Open folder > Import"; Docker: mount a folder on /import),
   then

   cypher-shell -a bolt://localhost:7687 -u neo4j -d neo4j -f import.cypher

   cypher-shell asks for the password, or reads it from NEO4J_PASSWORD.

3. Straight from the build, no files: NEO4J_PASSWORD=... paperkg push OUTDIR --uri bolt://localhost:7687

Arrays are separated by "{ARRAY_DELIMITER}"; dicts such as alias_counts are JSON text.
"""
