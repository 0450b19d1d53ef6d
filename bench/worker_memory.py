"""Memory of one extraction worker as it extracts more and more papers.

Issue 16 asks that extraction's memory stay flat as a corpus grows. The
throughput benchmark compares builds of 1,000 and 3,000 synthetic papers; this
runs what one ``--jobs`` worker runs (:mod:`paperkg.extract.nlp.workers`: the pipeline
loaded once, then chunks of papers) over a longer synthetic corpus in this one
process, and prints its resident memory every few chunks, so a growth that only
stops late (spaCy's vocabulary, onnxruntime's buffers, the C heap) shows.

Run: ``python3 bench/worker_memory.py [--papers 10000] [--every 1024]``
(about 25 papers a second on one core).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def resident_mb() -> int:
    """This process's resident memory (``VmRSS``), MB (MiB)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) // 1024
    raise RuntimeError("no VmRSS in /proc/self/status (Linux only)")


def write_corpus(path: Path, papers: int) -> None:
    """The synthetic corpus, recombined from the bundled example's extracted mentions."""
    from synthetic_corpus import synthetic_corpus, write_jsonl

    from paperkg.extract.nlp.extractor import extract_mentions
    from paperkg.extract.nlp.pipeline import load_pipeline
    from paperkg.extract.readers import read_inputs

    example = read_inputs([REPO / "examples" / "iclr2025_abstracts.txt"]).papers
    source = extract_mentions(load_pipeline(), example)
    write_jsonl(path, synthetic_corpus(source, papers, seed=1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--every", type=int, default=1024, help="papers between rows")
    parser.add_argument("--write-corpus", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.write_corpus:  # in a child: this process holds only what a worker holds
        write_corpus(args.write_corpus, args.papers)
        return 0

    from paperkg.extract.nlp import workers
    from paperkg.extract.readers import read_inputs

    with tempfile.TemporaryDirectory(prefix="paperkg-worker-") as folder:
        corpus = Path(folder) / "synthetic.jsonl"
        command = [sys.executable, __file__, "--papers", str(args.papers)]
        subprocess.run([*command, "--write-corpus", str(corpus)], check=True)
        papers = read_inputs([corpus]).papers

    workers.load_worker(None)  # first: it decides whether spaCy brings PyTorch
    from paperkg.extract.nlp.extractor import _CHUNK

    print(f"one extraction worker, {len(papers):,} synthetic papers, chunks of {_CHUNK}")
    print(f"{'papers':>8} {'seconds':>8} {'RSS MB':>7}")
    print(f"{0:>8} {0.0:>8.1f} {resident_mb():>7,}", flush=True)
    started = time.perf_counter()
    done = 0
    for i in range(0, len(papers), _CHUNK):
        workers.extract_chunk(papers[i : i + _CHUNK])
        before, done = done, min(i + _CHUNK, len(papers))
        if done // args.every > before // args.every or done == len(papers):
            seconds = time.perf_counter() - started
            print(f"{done:>8,} {seconds:>8.1f} {resident_mb():>7,}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
