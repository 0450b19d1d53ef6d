"""Benchmark check: does a synthetic corpus build a graph like a real one of its size?

    paperkg build ../shared/data/neurips2023/*.csv -o out/neurips
    python3 bench/synthetic_realism.py out/neurips/graph.json

Builds a synthetic corpus (:mod:`paperkg.extract.synthetic`, from the bundled
example's extracted mentions) with as many papers as the real graph has, and
prints the two graphs' shapes side by side: concepts, how many are in 10 and
100 papers or more, paper-concept and co-occurrence edges. Memory measured on
synthetic corpora (``bench/memory_steps.py``) means something only where these
are close.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def shape(graph) -> dict[str, int]:
    """The numbers of ``graph`` compared."""
    from paperkg.graph.schema import CO_OCCURS, PAPER, PAPER_EDGE_TYPES

    counts = [d["paper_count"] for _, d in graph.nodes(data=True) if d["label"] != PAPER]
    types = Counter(k for _, _, k in graph.edges(keys=True))
    return {
        "papers": sum(1 for _, d in graph.nodes(data=True) if d["label"] == PAPER),
        "concepts": len(counts),
        "concepts in 10+ papers": sum(c >= 10 for c in counts),
        "concepts in 100+ papers": sum(c >= 100 for c in counts),
        "paper-concept edges": sum(types[t] for t in PAPER_EDGE_TYPES),
        "co-occurrence edges": types[CO_OCCURS],
    }


def synthetic_graph(n: int, seed: int):
    """The graph a build of ``n`` synthetic papers makes (from their mentions, no NER)."""
    from paperkg.extract.corpus_terms import add_corpus_term_mentions, find_corpus_terms
    from paperkg.extract.extractor import extract_mentions
    from paperkg.extract.labels import unify_concept_labels, vote_labels
    from paperkg.extract.pipeline import load_pipeline
    from paperkg.extract.readers import read_inputs
    from paperkg.extract.resolve import resolve_concepts
    from paperkg.extract.specificity import drop_generic
    from paperkg.extract.synthetic import synthetic_corpus
    from paperkg.extract.titles import mark_title_proposals
    from paperkg.graph.builder import build_knowledge_graph

    example = read_inputs([REPO / "examples" / "iclr2025_abstracts.txt"]).papers
    results = list(synthetic_corpus(extract_mentions(load_pipeline(), example), n, seed=seed))
    results, _ = add_corpus_term_mentions(results, find_corpus_terms(results))
    results, _ = mark_title_proposals(results)
    results, _ = vote_labels(results)
    resolution = drop_generic(results, unify_concept_labels(resolve_concepts(results)))
    return build_knowledge_graph(results, resolution, min_cooccurrence=1 if n < 500 else 2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("graph", type=Path, help="graph.json of a real corpus")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    from paperkg.graph.io import load_graph

    real = shape(load_graph(args.graph))
    synthetic = shape(synthetic_graph(real["papers"], args.seed))
    print(f"| graph | {args.graph.parent.name} | synthetic | synthetic / real |")
    print("|---|---:|---:|---:|")
    for name, value in real.items():
        ratio = synthetic[name] / value if value else float("nan")
        print(f"| {name} | {value:,} | {synthetic[name]:,} | {ratio:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
