"""Two builds' outputs differ only in the graph format? graph.json, GraphML and neo4j/ compared.

graph.json format 2 made the graph a DiGraph: the file says ``"multigraph": false``
and ``"paperkg_format": 2``, and its edges lose the ``key`` that repeated their
``type`` in format 1; GraphML edges lose their ``id`` (the same key). Nothing else
should change: not a node, an edge, an attribute or an order. This script checks
that on two output folders of ``paperkg build`` (a format-1 build first)::

    python bench/graph_format_diff.py /tmp/nips-base /tmp/digraph-x

It compares the files record by record, in order, and the graphs ``load_graph``
makes of both; it prints what differs and exits 1 if anything differs beyond the
format fields.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import re
import sys
from pathlib import Path

#: the fields format 2 changed in graph.json's head: old value, new value
FORMAT_FIELDS = {"multigraph": (True, False), "paperkg_format": (1, 2)}

#: a GraphML edge element: format 1 ends it with id="<edge key>"
_EDGE_ID = re.compile(r'^(    <edge source=".*" target=".*") id="[^"]*">$')


def graph_json_differences(old_path: Path, new_path: Path) -> list[str]:
    """What differs between two graph.json files beyond the format fields and edge keys."""
    old = json.loads(old_path.read_text(encoding="utf-8"))
    new = json.loads(new_path.read_text(encoding="utf-8"))
    problems = []
    format_of = {"multigraph": (old["multigraph"], new["multigraph"])}
    format_of["paperkg_format"] = (old["graph"]["paperkg_format"], new["graph"]["paperkg_format"])
    for field, (was, now) in format_of.items():
        if (was, now) != FORMAT_FIELDS[field]:
            problems.append(f"{field}: {was!r} -> {now!r}, expected {FORMAT_FIELDS[field]}")
    rest = {k: v for k, v in old["graph"].items() if k != "paperkg_format"}
    if rest != {k: v for k, v in new["graph"].items() if k != "paperkg_format"}:
        problems.append("graph attributes differ beyond paperkg_format")
    if old["directed"] != new["directed"]:
        problems.append("directed differs")
    problems += _records("node", old["nodes"], new["nodes"])
    keyless = []
    for i, edge in enumerate(old["edges"], start=1):
        edge = dict(edge)
        if edge.pop("key", None) != edge.get("type"):
            problems.append(f"old edge #{i}: its key is not its type")
        keyless.append(edge)
    problems += _records("edge", keyless, new["edges"])
    return problems


def _records(kind: str, old: list[dict], new: list[dict]) -> list[str]:
    """Records that differ, compared in order with their attributes in order."""
    problems = []
    if len(old) != len(new):
        problems.append(f"{len(old)} {kind}s before, {len(new)} after")
    for i, (a, b) in enumerate(zip(old, new, strict=False), start=1):
        if list(a.items()) != list(b.items()):
            fields = [k for k in dict.fromkeys([*a, *b]) if a.get(k, ...) != b.get(k, ...)]
            what = ", ".join(fields) if fields else "the order of its attributes"
            problems.append(f"{kind} #{i} ({a.get('id', a.get('source'))!r}) differs in {what}")
            if len(problems) > 20:
                break
    return problems


def loaded_differences(old_path: Path, new_path: Path) -> list[str]:
    """The two files as graphs: ``paperkg.load_graph`` reads format 1 as the same DiGraph."""
    from paperkg import load_graph

    old, new = load_graph(old_path), load_graph(new_path)
    problems = []
    if list(old.nodes(data=True)) != list(new.nodes(data=True)):
        problems.append("loaded graphs: nodes or their attributes differ")
    if list(old.edges(data=True)) != list(new.edges(data=True)):
        problems.append("loaded graphs: edges or their attributes differ")
    return problems


def graphml_differences(old_path: Path, new_path: Path) -> list[str]:
    """Lines that differ once format 1's edge ids are taken out."""
    old = old_path.read_text(encoding="utf-8").splitlines()
    new = new_path.read_text(encoding="utf-8").splitlines()
    problems = []
    if not all(_EDGE_ID.match(line) for line in old if line.startswith("    <edge ")):
        problems.append("some format-1 GraphML edge has no id")
    without_ids = [_EDGE_ID.sub(r"\1>", line) for line in old]
    if len(without_ids) != len(new):
        problems.append(f"GraphML: {len(old)} lines before, {len(new)} after")
    problems += [
        f"GraphML line {i}: {a!r} / {b!r}"
        for i, (a, b) in enumerate(zip(without_ids, new, strict=False), start=1)
        if a != b
    ][:20]
    return problems


def neo4j_differences(old: Path, new: Path) -> list[str]:
    """Files of the two Neo4j bundles that are not byte for byte the same."""
    compared = filecmp.dircmp(old, new)
    problems = [f"neo4j/{name} differs" for name in compared.diff_files]
    problems += [f"neo4j/{name} only before" for name in compared.left_only]
    problems += [f"neo4j/{name} only after" for name in compared.right_only]
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, help="output folder of a format-1 build")
    parser.add_argument("new", type=Path, help="output folder of a format-2 build")
    args = parser.parse_args(argv)
    checks = {
        "graph.json": lambda: graph_json_differences(
            args.old / "graph.json", args.new / "graph.json"
        ),
        "graph.json loaded": lambda: loaded_differences(
            args.old / "graph.json", args.new / "graph.json"
        ),
        "graph.graphml": lambda: graphml_differences(
            args.old / "graph.graphml", args.new / "graph.graphml"
        ),
        "neo4j/": lambda: neo4j_differences(args.old / "neo4j", args.new / "neo4j"),
    }
    data = json.loads((args.new / "graph.json").read_text(encoding="utf-8"))
    print(f"{len(data['nodes']):,} nodes, {len(data['edges']):,} edges")
    failed = False
    for name, check in checks.items():
        problems = check()
        failed = failed or bool(problems)
        verdict = "no difference beyond the format" if not problems else "DIFFERS"
        print(f"{name:18} {verdict}")
        for problem in problems:
            print(f"  {problem}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
