"""Benchmark: batched UNWIND loading against one query per row, same server, same run.

    python3 bench/neo4j_load.py                     # starts the test Neo4j of tests/neo4j_server
    NEO4J_PASSWORD=... python3 bench/neo4j_load.py --uri bolt://localhost:7687   # reuse a server

Loads a synthetic paperkg graph of about 100k relationships with
:func:`paperkg.export.neo4j_load.push_graph` (constraints, then ``UNWIND $rows``
batches), then the same relationships one ``MERGE`` per transaction, the way
many loaders do it. The per-row path is timed on a sample (``--sample``) so the
run stays short; both rates are relationships per second. The database is
emptied before each phase: do not point this at a database you care about.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import os
import random
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import neo4j
import networkx as nx

from paperkg.export import cypher
from paperkg.export.neo4j_load import database_counts, push_graph
from paperkg.export.neo4j_rows import DEFAULT_BATCH_SIZE, graph_rows
from paperkg.graph.schema import CO_OCCURS, CONCEPT_LABELS, EDGE_TYPE_FOR_LABEL, PAPER, PROPOSES

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "neo4j_server"))
import neo4j_test_server  # noqa: E402

#: share of concepts per label in the synthetic graph
LABEL_SHARES = {"Method": 0.45, "Dataset": 0.2, "Task": 0.3, "Metric": 0.05}


def synthetic_graph(papers: int, concepts: int, per_paper: int, seed: int = 7) -> nx.DiGraph:
    """A paperkg-shaped graph: papers linked to ``per_paper`` concepts, plus co-occurrence."""
    rng = random.Random(seed)
    graph = nx.DiGraph()
    by_label: dict[str, list[str]] = {}
    for label in CONCEPT_LABELS:
        n = max(1, int(concepts * LABEL_SHARES[label]))
        ids = [f"{label}:synthetic {label.lower()} {i}" for i in range(n)]
        by_label[label] = ids
        for i, cid in enumerate(ids):
            name = f"{label} {i}"
            graph.add_node(
                cid,
                label=label,
                name=name,
                key=cid.split(":", 1)[1],
                aliases=[name, name.upper()],
                alias_counts={name: 2, name.upper(): 1},
                merge_reasons={name.upper(): "case"},
                paper_count=0,
                mention_count=0,
            )
    all_concepts = [c for ids in by_label.values() for c in ids]
    weights: dict[tuple[str, str], int] = {}
    for p in range(papers):
        pid = f"paper:synthetic-{p:06d}"
        graph.add_node(
            pid,
            label=PAPER,
            name=f"Synthetic paper {p}",
            title=f"Synthetic paper {p}",
            abstract=f"We propose method {p} and evaluate it carefully. " * 3,
            year=2015 + p % 10,
            venue="SYNTH",
            authors=[f"Author {rng.randrange(5000)}" for _ in range(3)],
            source=f"synthetic.txt#{p}",
        )
        chosen = rng.sample(all_concepts, per_paper)
        for i, cid in enumerate(chosen):
            label = graph.nodes[cid]["label"]
            etype = PROPOSES if i == 0 and label == "Method" else EDGE_TYPE_FOR_LABEL[label]
            sentence = f"Paper {p} mentions {graph.nodes[cid]['name']}."
            graph.add_edge(pid, cid, type=etype, evidence=sentence, count=1, weight=1)
            graph.nodes[cid]["paper_count"] += 1
            graph.nodes[cid]["mention_count"] += 1
        # co-occurrence of a few pairs per paper keeps the mix of edge types realistic
        for a, b in itertools.pairwise(chosen):
            pair = (min(a, b), max(a, b))
            weights[pair] = weights.get(pair, 0) + 1
    for (a, b), w in weights.items():
        graph.add_edge(a, b, type=CO_OCCURS, weight=w)
    return graph


def wipe(driver: neo4j.Driver, database: str | None) -> None:
    with driver.session(database=database) as session:
        session.run(
            "MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS"
        ).consume()


def _one(tx: neo4j.ManagedTransaction, query: str, params: dict) -> None:
    tx.run(query, params).consume()


def per_row_rels(
    driver: neo4j.Driver,
    graph: nx.DiGraph,
    sample: int,
    database: str | None,
    server_cpu=lambda: float("nan"),
) -> tuple[int, float, float]:
    """Nodes loaded batched, then ``sample`` relationships one MERGE per transaction."""
    nodes_only = nx.DiGraph()
    nodes_only.add_nodes_from(graph.nodes(data=True))
    push_graph(driver, nodes_only, database=database)
    rows = graph_rows(graph)
    work = [(pattern, row) for pattern, rel_rows in rows.rels.items() for row in rel_rows]
    random.Random(1).shuffle(work)
    work = work[:sample]
    cpu = server_cpu()
    started = time.perf_counter()
    with driver.session(database=database) as session:
        for (rel, start, end), row in work:
            params = {"src": row["src"], "dst": row["dst"], "props": row["props"]}
            session.execute_write(_one, cypher.MERGE_REL_ONE[(rel, start, end)], params)
    return len(work), time.perf_counter() - started, server_cpu() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uri", help="reuse this Neo4j (password from NEO4J_PASSWORD)")
    parser.add_argument("--user", default="neo4j")
    parser.add_argument("--database", default=None)
    parser.add_argument("--papers", type=int, default=12_000)
    parser.add_argument("--concepts", type=int, default=5_000)
    parser.add_argument("--per-paper", type=int, default=5)
    parser.add_argument("--sample", type=int, default=3_000, help="rows timed one by one")
    parser.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE)
    parser.add_argument("--repeat", type=int, default=3, help="timed batched loads (median shown)")
    args = parser.parse_args()

    graph = synthetic_graph(args.papers, args.concepts, args.per_paper)
    n_rels = graph.number_of_edges()
    print(f"synthetic graph: {graph.number_of_nodes():,} nodes, {n_rels:,} relationships")

    server = None
    with ExitStack() as stack:
        if args.uri:
            uri, auth = args.uri, (args.user, os.environ["NEO4J_PASSWORD"])
        else:
            workdir = Path(
                stack.enter_context(tempfile.TemporaryDirectory(prefix="paperkg-bench-"))
            )
            print("starting the Neo4j test server …", flush=True)
            server = stack.enter_context(
                neo4j_test_server.running_server(
                    workdir, heap="2g", quick_start=False, pagecache_mb=512
                )
            )
            uri, auth = server.uri, server.auth
        driver = stack.enter_context(
            neo4j.GraphDatabase.driver(uri, auth=auth, notifications_min_severity="OFF")
        )
        db = args.database

        # Warm up both paths (query plans, the JVM's JIT) with untimed runs: a fresh JVM
        # needs two or three full loads before it runs at speed.
        print("warming up …", flush=True)
        for _ in range(2):
            wipe(driver, db)
            push_graph(driver, graph, database=db, batch_size=args.batch_size)
        wipe(driver, db)
        per_row_rels(driver, graph, min(1000, args.sample), db)

        def server_cpu() -> float:
            return server.cpu_seconds() if server else float("nan")

        runs = []  # (seconds, server CPU seconds) of each timed batched load
        for _ in range(args.repeat):
            wipe(driver, db)
            cpu = server_cpu()
            report = push_graph(driver, graph, database=db, batch_size=args.batch_size)
            runs.append((report.seconds, server_cpu() - cpu))
            nodes, rels = database_counts(driver, database=db)
            assert sum(rels.values()) == n_rels, (rels, n_rels)
        runs.sort()
        batched_seconds, batched_cpu = runs[len(runs) // 2]  # the median run
        batched_rate = n_rels / batched_seconds

        wipe(driver, db)
        done, seconds, per_row_cpu = per_row_rels(driver, graph, args.sample, db, server_cpu)
        per_row_rate = done / seconds
        wipe(driver, db)

    speedup = batched_rate / per_row_rate
    rows = [
        ("batched UNWIND (push_graph)", n_rels, batched_seconds, batched_rate, batched_cpu),
        ("one query per row", done, seconds, per_row_rate, per_row_cpu),
    ]
    print()
    print(
        f"{'loader':<28} {'rels':>8} {'seconds':>8} {'rels/s':>8} {'speed-up':>9}"
        f" {'server CPU s':>13} {'rels/server-CPU-s':>18}"
    )
    for name, count, secs, rate, cpu_s in rows:
        print(
            f"{name:<28} {count:>8,} {secs:>8.2f} {rate:>8,.0f} {rate / per_row_rate:>8.1f}x"
            f" {cpu_s:>13.1f} {count / cpu_s if cpu_s else float('nan'):>18,.0f}"
        )
    has_rust = importlib.util.find_spec("neo4j._rust") is not None
    packer = "Rust" if has_rust else "pure Python (pip install neo4j-rust-ext: less client CPU)"
    print()
    print(
        f"batched (median of {args.repeat}; all runs "
        f"{', '.join(f'{n_rels / sec:,.0f}' for sec, _ in runs)} rels/s): "
        f"{batched_rate:,.0f} rels/s (target >= 20,000), "
        f"{speedup:.0f}x the per-row rate (target >= 50x); batch size {args.batch_size}; "
        f"push time includes schema and {sum(nodes.values()):,} nodes; "
        f"driver packstream: {packer}; {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.1f} at the end"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
