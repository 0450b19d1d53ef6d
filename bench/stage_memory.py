"""Memory of a build, stage by stage: RSS as each build stage and output step starts.

    python3 bench/stage_memory.py [--papers 20000] [--versions REF,REF...]

A synthetic corpus of N papers (:func:`prepare`: recombined from the bundled
example, its mentions put in a cache first, so no NER runs) is built and written
in one fresh process per version (``api.build`` with ``on_step``, then
``api.write_outputs``), as ``paperkg build`` does; each row is the RSS when a
stage (``api.BUILD_STAGES``) or output step (``api.OUTPUT_STEPS``) starts and the
peak so far (a peak that rises between two rows is a transient of the first). Without ``--versions``, the paperkg that
``python3`` imports is measured; with it, each git ref is exported to a temporary
folder and measured there, one after the other on one machine, side by side.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # results.py, beside this file
from results import run_and_record  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def prepare(n: int, folder: Path, source=None) -> Path:
    """A synthetic corpus of ``n`` papers in ``folder`` and a cache (``folder/cache``)
    holding its mentions; ``source``: the bundled example's extraction, if already made."""
    from synthetic_corpus import synthetic_corpus, write_jsonl

    from paperkg.extract.nlp.cache import ExtractionCache, pipeline_identity
    from paperkg.extract.nlp.extractor import extract_mentions
    from paperkg.extract.nlp.model_names import resolve_model
    from paperkg.extract.nlp.pipeline import load_pipeline
    from paperkg.extract.readers import read_inputs
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


def rss_mb() -> int:
    """This process's resident memory now, in MB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) // 1024
    return -1


def peak_mb() -> int:
    """This process's peak resident memory so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def measure(n: int, folder: Path) -> None:
    """Build and write the ``n`` papers :func:`prepare` put in ``folder``; print a ``STEP``
    line (name, seconds, RSS) as each stage and output step starts, then the peak."""
    corpus = folder / f"synthetic{n}.jsonl"
    from paperkg.api import build, write_outputs

    started = time.perf_counter()

    def show(step: str) -> None:
        seconds = time.perf_counter() - started
        print(f"STEP\t{step}\t{seconds:.1f}\t{rss_mb()}\t{peak_mb()}", flush=True)

    result = build([corpus], cache_dir=folder / "cache", jobs=1, on_step=show)
    write_outputs(result.graph, folder / "out", on_step=show)
    show("(written)")


def measure_version(ref: str | None, n: int, folder: Path) -> dict[str, tuple[str, ...]]:
    """``step -> (seconds, RSS, peak RSS so far)`` (MB) of :func:`measure` in a fresh process importing the
    paperkg of git ``ref`` (exported into ``folder``), or the one ``python3`` imports."""
    env = dict(os.environ)
    if ref is not None:
        tree = folder / "tree" / "paperkg"
        tree.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(REPO), "archive", ref], capture_output=True,
                                 check=True).stdout  # fmt: skip
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        env["PYTHONPATH"] = str(tree.parent)
    for step in ("--prepare", "--measure"):  # the build's process does nothing else
        done = subprocess.run(
            [sys.executable, __file__, step, str(n), str(folder / "build")],
            capture_output=True, text=True, env=env, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            raise SystemExit(f"{ref or 'this tree'} {step} failed:\n{done.stderr[-3000:]}")
    rows = [line.split("\t")[1:] for line in done.stdout.splitlines() if line.startswith("STEP")]
    return {step: tuple(values) for step, *values in rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=20_000)
    parser.add_argument("--versions", help="git refs to measure side by side, comma-separated")
    parser.add_argument("--prepare", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--measure", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.prepare:
        prepare(int(args.prepare[0]), Path(args.prepare[1]))
        return 0
    if args.measure:
        measure(int(args.measure[0]), Path(args.measure[1]))
        return 0
    refs: list[str | None] = args.versions.split(",") if args.versions else [None]
    columns = {}
    for ref in refs:
        name = "this tree" if ref is None else f"{ref} ({_commit(ref)})"
        with tempfile.TemporaryDirectory(prefix="paperkg-stage-memory-") as tmp:
            columns[name] = measure_version(ref, args.papers, Path(tmp))
        print(f"measured {name}", flush=True)
    steps = list(dict.fromkeys(step for column in columns.values() for step in column))
    print(f"\n{args.papers:,} synthetic papers, mentions from the cache, built and written in "
          "one process per version: seconds, RSS and peak RSS so far as each step starts\n")  # fmt: skip
    print(f"| step | {' | '.join(columns)} |")
    print("|---|" + "---:|" * len(columns))
    for step in steps:
        cells = [column.get(step) for column in columns.values()]
        print(f"| {step} | " + " | ".join(f"{c[0]} s, {int(c[1]):,} / {int(c[2]):,} MB" if c
                                          else "" for c in cells) + " |")  # fmt: skip
    return 0


def _commit(ref: str) -> str:
    return subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", ref],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip


if __name__ == "__main__":
    if {"--prepare", "--measure"} & set(sys.argv):  # a version's process: not the table
        raise SystemExit(main())
    raise SystemExit(run_and_record("bench/stage_memory.py", main))
