"""Benchmark: each analysis of ``paperkg analyze`` on graphs of 10k, 100k and 1M edges.

    python3 bench/analytics.py                        # 10k, 100k and 1M edges
    python3 bench/analytics.py --edges 10000,100000   # a shorter run

The graphs are ``bench/synthetic_field.py`` fields (topics,
Zipf-skewed concept use, field-wide concepts, years), sized to about the number
of edges asked for. PageRank and betweenness run on networkx and on igraph
(``pip install 'paperkg[fast]'``) on the same graph in the same run, with the
largest difference between their scores beside the times. Betweenness is
estimated from :data:`~paperkg.graph.analytics.BETWEENNESS_SAMPLES` sources on
larger graphs, the same sources for both. Times are seconds, best of
``--repeat`` runs for the quick analyses. The table replaces this script's
section of ``bench/RESULTS.md`` (:mod:`results`).
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import time

from results import run_and_record
from synthetic_field import synthetic_field

from paperkg.export.field_analysis import analyse_field
from paperkg.graph import analytics

#: synthetic_field draws about this many edges per paper (measured at 1,000 papers)
EDGES_PER_PAPER = 11.2


def timed(fn, repeat: int = 1):
    """(best seconds, result) of ``repeat`` calls of ``fn``."""
    best, result = float("inf"), None
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def max_difference(a: dict, b: dict) -> float:
    return max((abs(a[k] - b[k]) for k in a), default=0.0)


def measure(edges: int, repeat: int, igraph: bool) -> dict[str, str]:
    papers = max(50, round(edges / EDGES_PER_PAPER))
    build_s, graph = timed(lambda: synthetic_field(papers, seed=0))
    co = analytics.cooccurrence_graph(graph)
    some_papers = analytics.base.papers(graph)[:: max(1, papers // 10)][:10]
    row = {
        "papers": f"{papers:,}",
        "edges": f"{graph.number_of_edges():,}",
        "concepts / co-occurrence edges": f"{len(co):,} / {co.number_of_edges():,}",
        "(synthetic graph drawn)": f"{build_s:.2f}",
    }
    t, _ = timed(lambda: analytics.cooccurrence_graph(graph), repeat)
    row["co-occurrence graph"] = f"{t:.2f}"
    t, pr_nx = timed(lambda: analytics.pagerank(co), repeat)
    row["PageRank, networkx"] = f"{t:.2f}"
    t, bc_nx = timed(lambda: analytics.betweenness(co))
    row["betweenness, networkx"] = f"{t:.2f}"
    if igraph:
        t, pr_ig = timed(lambda: analytics.pagerank(co, backend="igraph"), repeat)
        row["PageRank, igraph"] = f"{t:.2f} (max diff {max_difference(pr_nx, pr_ig):.0e})"
        t, bc_ig = timed(lambda: analytics.betweenness(co, backend="igraph"))
        row["betweenness, igraph"] = f"{t:.2f} (max diff {max_difference(bc_nx, bc_ig):.0e})"
    t, _ = timed(lambda: analytics.named_communities(graph, seed=0))
    row["communities (Louvain), named"] = f"{t:.2f}"
    t, _ = timed(
        lambda: [analytics.similar_papers_explained(graph, p) for p in some_papers], repeat
    )
    row["similar papers (per paper)"] = f"{t / max(len(some_papers), 1):.3f}"
    t, _ = timed(lambda: analytics.label_cooccurrence(graph, "Method", "Task"), repeat)
    row["Method × Task table"] = f"{t:.2f}"
    t, _ = timed(lambda: analytics.concept_trends(graph), repeat)
    row["trends"] = f"{t:.2f}"
    t, _ = timed(lambda: analytics.proposals_per_task(graph), repeat)
    row["proposals per task"] = f"{t:.2f}"
    t, _ = timed(lambda: analyse_field(graph))
    row["whole report analysis, networkx"] = f"{t:.2f}"
    if igraph:
        t, _ = timed(lambda: analyse_field(graph, backend="igraph"))
        row["whole report analysis, igraph"] = f"{t:.2f}"
    return row


def print_table(columns: dict[str, dict[str, str]]) -> None:
    names = list(columns)
    keys = list(next(iter(columns.values())))
    first = max(len(k) for k in keys)
    widths = [max(len(n), *(len(columns[n].get(k, "")) for k in keys)) for n in names]
    print("| " + "analysis (seconds)".ljust(first) + " | "
          + " | ".join(n.rjust(w) for n, w in zip(names, widths, strict=True)) + " |")  # fmt: skip
    print("|" + "-" * (first + 2) + "|" + "|".join("-" * (w + 1) + ":" for w in widths) + "|")
    for k in keys:
        cells = [columns[n].get(k, "").rjust(w) for n, w in zip(names, widths, strict=True)]
        print("| " + k.ljust(first) + " | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edges", default="10000,100000,1000000", help="graph sizes, in edges")
    parser.add_argument("--repeat", type=int, default=3, help="runs of the quick analyses")
    args = parser.parse_args()
    igraph = importlib.util.find_spec("igraph") is not None
    if igraph:
        import igraph as _  # noqa: F401 (imported once here, not inside the first timing)
    else:
        print("igraph is not installed (pip install 'paperkg[fast]'): networkx only")
    columns = {}
    for edges in (int(e) for e in args.edges.split(",")):
        label = f"{edges // 1000}k edges" if edges < 1_000_000 else f"{edges // 1_000_000}M edges"
        columns[label] = measure(edges, args.repeat, igraph)
        print(f"measured {label}", flush=True)
    print()
    print_table(columns)


if __name__ == "__main__":
    raise SystemExit(run_and_record("bench/analytics.py", main))
