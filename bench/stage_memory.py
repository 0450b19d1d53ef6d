"""Memory of a build, stage by stage: RSS as each of ``api.BUILD_STAGES`` starts.

    python3 bench/stage_memory.py [--papers 20000]

A synthetic corpus of N papers (:func:`memory_steps.prepare`: recombined from the
bundled example, its mentions put in a cache first, so no NER runs) is built in
this process with the stage runner's ``on_step``; each line is the RSS and the peak
so far when a stage starts. What a stage adds stays until the build ends: the
per-mention objects, the mention table, the resolution and the graph are alive
together, which is where the memory of a large build goes.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # memory_steps, results
from results import run_and_record  # noqa: E402


def rss_mb() -> int:
    """This process's resident memory now, in MB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) // 1024
    return -1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=20_000)
    parser.add_argument("--folder", type=Path, default=Path("/tmp/paperkg-stage-memory"))
    args = parser.parse_args()
    corpus = args.folder / f"synthetic{args.papers}.jsonl"
    if not corpus.exists():
        sys.exit(f"run once to prepare {corpus}: python3 -c 'import sys; sys.path.insert(0, "
                 f"\"bench\"); from memory_steps import prepare; from pathlib import Path; "
                 f"prepare({args.papers}, Path(\"{args.folder}\"))'")  # fmt: skip
    from paperkg.api import build

    started = time.perf_counter()

    def show(stage: str) -> None:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        print(f"{time.perf_counter() - started:6.1f} s  {stage:36} RSS {rss_mb():5} MB  "
              f"peak {peak:5} MB", flush=True)  # fmt: skip

    print(f"{args.papers:,} synthetic papers, mentions from the cache, one process")
    build([corpus], cache_dir=args.folder / "cache", jobs=1, on_step=show)
    show("(built)")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_and_record("bench/stage_memory.py", main))
