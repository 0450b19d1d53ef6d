"""Two versions of paperkg side by side, in one run on one machine: speed, memory, outputs.

    python3 bench/compare.py --before REF [--after REF] [--scale 100000] [--limit N]

Each version is checked out into a temporary git worktree with a virtual environment
of its own (the installed dependencies are shared, paperkg is the version's), and
every measured build runs as ``python -m paperkg.cli build`` in a fresh process of
that environment, the two versions one after the other for each row, so the
machine's drift hits both alike. Rows, on the NeurIPS 2023 abstracts in ``../shared``:

* ``first build, --jobs 2``: no cache (extraction included), and ``--jobs 1``;
* ``cached rebuild``: every paper from the extraction cache;
* ``rebuild, 1% new``: the cache holding all but 1% of the papers;
* ``N synthetic papers``: a whole build of N synthetic papers
  (``bench/synthetic_corpus.py``) whose mentions each version put in its own
  cache first: the corpus steps, the graph and the outputs at scale, and its peak RSS.

It ends with the ratios the issue's targets name and whether graph.json is the
same byte for byte (from format 1 to 2: the same but for the format fields, as
``graph_format_diff.py`` checks). Speed ratios, not seconds, travel between
machines; the CPU's model and flags (avx512_vnni: the int8 model runs ~2.5x
faster) are printed first.
"""

from __future__ import annotations

import argparse
import csv
import json
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))  # results.py, beside this file
DATA = REPO.parent / "shared" / "data" / "neurips2023"

#: run in a version's environment: put N synthetic papers and their mentions in its cache
SYNTHETIC = """
import sys
from pathlib import Path
try:  # extract/nlp/ since the stage folders; extract/ before
    from paperkg.extract.nlp.cache import ExtractionCache, pipeline_identity
    from paperkg.extract.nlp.extractor import extract_mentions
    from paperkg.extract.nlp.model_names import resolve_model
    from paperkg.extract.nlp.pipeline import load_pipeline
except ImportError:
    from paperkg.extract.cache import ExtractionCache, pipeline_identity
    from paperkg.extract.extractor import extract_mentions
    from paperkg.extract.model_names import resolve_model
    from paperkg.extract.pipeline import load_pipeline
from paperkg.extract.readers import read_inputs
from paperkg.records import PaperMentions
example, n, path, cache_dir, bench = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3]), sys.argv[4], sys.argv[5]
sys.path.append(bench)  # the generator of this checkout's bench/, the same for every version
from synthetic_corpus import synthetic_corpus, write_jsonl
source = extract_mentions(load_pipeline(None), read_inputs([example]).papers)
made = list(synthetic_corpus(source, n, seed=0))
write_jsonl(path, made)
cache = ExtractionCache(cache_dir, identity=pipeline_identity(resolve_model(None)))
results = [PaperMentions(p, r.mentions) for p, r in zip(read_inputs([path]).papers, made)]
if hasattr(cache, "put_many"):  # one transaction (a SQLite cache)
    cache.put_many(results)
else:  # one file per paper (older versions)
    for result in results:
        cache.put(result)
"""


def cpu() -> str:
    """The CPU's model and the flags that change the NER's speed."""
    info = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    model = next((ln.split(":", 1)[1].strip() for ln in info.splitlines()
                  if ln.startswith("model name")), platform.processor())  # fmt: skip
    flags = [f for f in ("avx2", "avx512f", "avx512_vnni") if f" {f}" in info]
    return f"{model}, {', '.join(flags) or 'no AVX flags'}"


class Version:
    """One version of paperkg, checked out with an environment of its own."""

    def __init__(self, ref: str, folder: Path) -> None:
        self.ref = ref
        self.commit = _git("rev-parse", "--short", ref)
        self.tree = folder / f"tree-{self.commit}"
        _git("worktree", "add", "--detach", str(self.tree), ref)
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages",
                        str(self.tree / ".venv")], check=True)  # fmt: skip
        self.python = self.tree / ".venv" / "bin" / "python"
        subprocess.run([str(self.python), "-m", "pip", "install", "-q", "--no-deps", "-e",
                        str(self.tree)], check=True)  # fmt: skip

    def build(self, inputs: list[Path], out: Path, *, jobs: int, cache: Path | None):
        """Seconds and peak RSS in MB (GNU time: the build and the workers it waited for)."""
        cmd = ["/usr/bin/time", "-f", "PEAK_KB %M", str(self.python), "-m", "paperkg.cli",
               "build", *map(str, inputs), "-o", str(out), "--jobs", str(jobs)]  # fmt: skip
        cmd += ["--cache-dir", str(cache)] if cache else ["--no-cache"]
        started = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=self.tree)
        seconds = time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"{self.ref}: {' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
        peak = [ln for ln in done.stderr.splitlines() if ln.startswith("PEAK_KB")]
        return seconds, int(peak[-1].split()[1]) / 1024 if peak else float("nan")

    def remove(self) -> None:
        _git("worktree", "remove", "--force", str(self.tree))


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True,
                          check=True).stdout.strip()  # fmt: skip


def neurips_files(folder: Path, limit: int) -> tuple[Path, Path]:
    """The corpus as one CSV (the first ``limit`` papers, 0 = all), and the same less 1%."""
    from paperkg.extract.readers import read_inputs

    papers = read_inputs(sorted(DATA.glob("*.csv"))).papers
    papers = papers[:limit] if limit else papers
    held = set(random.Random(1).sample(range(len(papers)), max(1, len(papers) // 100)))
    paths = (folder / "all.csv", folder / "less1.csv")
    for path, keep in zip(paths, (lambda i: True, lambda i: i not in held), strict=True):
        with path.open("w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(["paper_id", "title", "abstract"])
            for i, p in enumerate(papers):
                if keep(i):
                    writer.writerow([p.id, p.title or "", p.abstract])
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="git ref of the version to compare to")
    parser.add_argument("--after", default="HEAD", help="git ref of the new version")
    parser.add_argument("--limit", type=int, default=0, help="first N NeurIPS papers (0 = all)")
    parser.add_argument("--scale", type=int, default=100_000, help="synthetic papers (0 = none)")
    parser.add_argument("--keep", type=Path, help="keep the builds in this folder")
    args = parser.parse_args(argv)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="paperkg-compare-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"CPU: {cpu()}; {platform.python_implementation()} {platform.python_version()}")
    versions = [Version(args.before, folder), Version(args.after, folder)]
    try:
        rows = measure(versions, folder, args.limit, args.scale)
    finally:
        for version in versions:
            version.remove()
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(rows, indent=1))
    return 0


def measure(versions: list[Version], folder: Path, limit: int, scale: int) -> dict:
    """Every row for both versions, one version after the other per row."""
    everything, less1 = neurips_files(folder, limit)
    head = f"{'row':28}" + "".join(f"{v.ref + ' (' + v.commit + ')':>26}" for v in versions)
    print(head)
    rows: dict[str, list] = {}

    def row(name: str, run) -> None:
        rows[name] = [run(v, folder / f"{name.replace(' ', '_')}-{v.commit}") for v in versions]
        cells = "".join(f"{s:17.1f} s {p:5.0f} MB" for s, p in rows[name])
        print(f"{name:28}{cells}", flush=True)

    cache = {v.commit: folder / f"cache-{v.commit}" for v in versions}
    row("first build, --jobs 2", lambda v, out: v.build([everything], out, jobs=2, cache=None))
    row("first build, --jobs 1", lambda v, out: v.build([everything], out, jobs=1, cache=None))
    for v in versions:  # the cache of all but 1%, then of everything
        v.build([less1], folder / f"fill-{v.commit}", jobs=2, cache=cache[v.commit])
    row("rebuild, 1% new", lambda v, out: v.build([everything], out, jobs=2,
                                                  cache=cache[v.commit]))  # fmt: skip
    row("cached rebuild", lambda v, out: v.build([everything], out, jobs=2,
                                                 cache=cache[v.commit]))  # fmt: skip
    graphs = [folder / f"cached_rebuild-{v.commit}" / "graph.json" for v in versions]
    same = [path.read_bytes() for path in graphs]
    if scale:
        for v in versions:
            corpus = folder / f"synthetic-{v.commit}.jsonl"
            subprocess.run([str(v.python), "-c", SYNTHETIC, str(REPO / "examples" /
                            "iclr2025_abstracts.txt"), str(scale), str(corpus),
                            str(cache[v.commit]), str(REPO / "bench")], check=True)  # fmt: skip
        row(
            f"{scale:,} synthetic papers",
            lambda v, out: v.build(
                [folder / f"synthetic-{v.commit}.jsonl"], out, jobs=2, cache=cache[v.commit]
            ),
        )
    full = [s for s, _ in rows["first build, --jobs 2"]]
    print("ratios (before / after):")
    for i, v in enumerate(versions):
        print(f"  {v.ref}: --jobs 2 is {rows['first build, --jobs 1'][i][0] / full[i]:.2f}x "
              f"--jobs 1; cached rebuild {rows['cached rebuild'][i][0] / full[i]:.3f} and 1% new "
              f"{rows['rebuild, 1% new'][i][0] / full[i]:.3f} of a first build")  # fmt: skip
    print(f"  first build after / before: {full[1] / full[0]:.2f}")
    print(f"  NeurIPS graph.json byte-identical: {same[0] == same[1]}")
    if same[0] != same[1]:  # graph.json format 1 -> 2 changes only its format fields
        from graph_format_diff import graph_json_differences

        differences = graph_json_differences(*graphs)
        print(f"  beyond the format (1 -> 2): {'; '.join(differences[:5]) or 'no difference'}")
    return {"cpu": cpu(), "rows": rows, "graph_json_identical": same[0] == same[1]}


if __name__ == "__main__":
    from results import run_and_record

    sys.exit(run_and_record("bench/compare.py", main))
