"""Benchmark check: does a synthetic corpus build a graph like a real one of its size?

    paperkg build ../shared/data/neurips2023/*.csv -o out/neurips
    python3 bench/synthetic_realism.py out/neurips/graph.json

Builds a synthetic corpus (``bench/synthetic_corpus.py``, from the bundled
example's extracted mentions) with as many papers as the real graph has, and
prints the two graphs' shapes side by side: concepts, how many are in 10 and
100 papers or more, paper-concept and co-occurrence edges. Memory measured on
synthetic corpora (``bench/stage_memory.py``) means something only where these
are close.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # stage_memory, beside this file


def shape(graph) -> dict[str, int]:
    """The numbers of ``graph`` compared."""
    from paperkg.graph.schema import CO_OCCURS, PAPER, PAPER_EDGE_TYPES

    counts = [d["paper_count"] for _, d in graph.nodes(data=True) if d["label"] != PAPER]
    types = Counter(kind for _, _, kind in graph.edges(data="type"))
    return {
        "papers": sum(1 for _, d in graph.nodes(data=True) if d["label"] == PAPER),
        "concepts": len(counts),
        "concepts in 10+ papers": sum(c >= 10 for c in counts),
        "concepts in 100+ papers": sum(c >= 100 for c in counts),
        "paper-concept edges": sum(types[t] for t in PAPER_EDGE_TYPES),
        "co-occurrence edges": types[CO_OCCURS],
    }


def synthetic_graph(n: int):
    """The graph ``paperkg.api.build`` makes of ``n`` synthetic papers, their mentions put
    in a fresh cache first (no NER), as ``bench/stage_memory.py`` prepares them."""
    import tempfile

    from stage_memory import prepare

    from paperkg.api import build

    with tempfile.TemporaryDirectory(prefix="paperkg-realism-") as tmp:
        corpus = prepare(n, Path(tmp))
        return build([corpus], cache_dir=Path(tmp) / "cache", jobs=1).graph


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("graph", type=Path, help="graph.json of a real corpus")
    args = parser.parse_args()
    from paperkg.graph.io import load_graph

    real = shape(load_graph(args.graph))
    synthetic = shape(synthetic_graph(real["papers"]))
    print(f"| graph | {args.graph.parent.name} | synthetic | synthetic / real |")
    print("|---|---:|---:|---:|")
    for name, value in real.items():
        ratio = synthetic[name] / value if value else float("nan")
        print(f"| {name} | {value:,} | {synthetic[name]:,} | {ratio:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
