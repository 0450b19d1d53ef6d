"""Benchmark: peak memory after each step of a build, on synthetic corpora read from the cache.

    python3 bench/memory_steps.py                      # 20,000 papers
    python3 bench/memory_steps.py --papers 20000,100000
    python3 bench/memory_steps.py --papers 100000 --rebuild   # and a second build after it

For each size, writes a synthetic corpus (:mod:`paperkg.extract.synthetic`, from
the bundled example's extracted mentions) and puts its mentions in a fresh
extraction cache, then builds it in a new process that prints, after each step
of :func:`paperkg.api.build` and :func:`paperkg.api.write_outputs`, its seconds,
resident memory and peak resident memory (``VmRSS``/``VmHWM``). The sizes are
printed side by side in one table. Where the peak rises is where memory grows
with the corpus. With ``--rebuild``, each size is built a second time in a new
process, with the same cache (which now holds the first build's name memos, see
:mod:`paperkg.extract.resolve.name_memos`): the rebuild a user waits for.
"""

from __future__ import annotations

import argparse
import functools
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
STEPS = [
    "read_inputs", "_extract", "find_corpus_terms", "add_corpus_term_mentions",
    "mark_title_proposals", "vote_labels", "resolve_concepts", "unify_concept_labels",
    "drop_generic", "load_name_memos", "save_name_memos", "build_knowledge_graph", "save_graph", "write_graphml",
    "write_map_html", "write_html", "write_neo4j_bundle", "largest_child_process",
]  # fmt: skip


def prepare(n: int, folder: Path, source=None) -> Path:
    """A synthetic corpus of ``n`` papers in ``folder`` and a cache (``folder/cache``)
    holding its mentions; ``source``: the bundled example's extraction, if already made."""
    from paperkg.extract.cache import ExtractionCache, pipeline_identity
    from paperkg.extract.extractor import extract_mentions
    from paperkg.extract.pipeline import load_pipeline, resolve_model
    from paperkg.extract.readers import read_inputs
    from paperkg.extract.synthetic import synthetic_corpus, write_jsonl
    from paperkg.records import PaperMentions

    if source is None:
        example = read_inputs([REPO / "examples" / "iclr2025_abstracts.txt"]).papers
        source = extract_mentions(load_pipeline(), example)
    folder.mkdir(parents=True, exist_ok=True)
    corpus = folder / f"synthetic{n}.jsonl"
    write_jsonl(corpus, synthetic_corpus(source, n, seed=0))
    cache = ExtractionCache(folder / "cache", identity=pipeline_identity(resolve_model(None)))
    papers = read_inputs([corpus]).papers
    made = synthetic_corpus(source, n, seed=0)
    cache.put_many([PaperMentions(p, m.mentions) for p, m in zip(papers, made, strict=True)])
    return corpus


def _memory() -> tuple[int, int]:
    """(resident, peak resident) MB of this process."""
    values = {}
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(("VmRSS", "VmHWM")):
                key, value = line.split(":")
                values[key] = int(value.split()[0]) // 1024
    return values["VmRSS"], values["VmHWM"]


def measure(corpus: Path, cache: Path, out: Path) -> None:
    """Build ``corpus`` from ``cache`` and print ``step seconds rss peak`` per step."""
    import paperkg.api as api

    def timed(name, function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            started = time.perf_counter()
            result = function(*args, **kwargs)
            rss, peak = _memory()
            print(f"STEP {name} {time.perf_counter() - started:.2f} {rss} {peak}", flush=True)
            return result

        return wrapper

    for name in STEPS:
        if hasattr(api, name):
            setattr(api, name, timed(name, getattr(api, name)))
    result = api.build([corpus], cache_dir=cache, jobs=2)
    api.write_outputs(result.graph, out, jobs=2)
    # the forked processes (standby extractor, second writer): the largest one's peak
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    print(f"STEP largest_child_process 0 {children} {children}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", default="20000", help="corpus sizes, comma-separated")
    parser.add_argument("--rebuild", action="store_true", help="build each size twice")
    parser.add_argument("--measure", nargs=3, metavar=("CORPUS", "CACHE", "OUT"),
                        help=argparse.SUPPRESS)  # fmt: skip
    args = parser.parse_args()
    if args.measure:
        measure(*map(Path, args.measure))
        return 0
    columns: dict[str, dict[str, str]] = {}
    for n in (int(x) for x in args.papers.split(",")):
        with tempfile.TemporaryDirectory(prefix="paperkg-memory-") as tmp:
            folder = Path(tmp)
            corpus = prepare(n, folder)
            for build in ["", ", rebuilt"] if args.rebuild else [""]:
                done = subprocess.run(
                    [sys.executable, __file__, "--measure", str(corpus), str(folder / "cache"),
                     str(folder / "out")],
                    capture_output=True, text=True, check=True,
                )  # fmt: skip
                column = columns[f"{n:,} papers{build}"] = {}
                for line in done.stdout.splitlines():
                    if line.startswith("STEP "):
                        _, name, seconds, rss, peak = line.split()
                        column[name] = f"{float(seconds):.1f} s, {int(rss):,} / {int(peak):,} MB"
                print(f"measured {n:,} papers{build}", flush=True)
    steps = [s for s in STEPS if any(s in c for c in columns.values())]
    print(f"\n| step (seconds, RSS after / peak RSS so far) | {' | '.join(columns)} |")
    print("|---|" + "---:|" * len(columns))
    for step in steps:
        print(f"| {step} | " + " | ".join(c.get(step, "") for c in columns.values()) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
