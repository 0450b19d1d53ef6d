"""A build killed at any moment leaves the previous outputs whole; the next one completes.

Real builds (``paperkg build`` in a child process) of 1,500 synthetic papers whose
mentions are in the extraction cache, so a build takes seconds and most of it is
the corpus steps and the writing, which is where a kill could tear a file.
"""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from paperkg.extract.cache import ExtractionCache, pipeline_identity
from paperkg.extract.extractor import extract_mentions
from paperkg.extract.model_names import resolve_model
from paperkg.extract.readers import read_inputs
from paperkg.extract.synthetic import synthetic_corpus, write_jsonl
from paperkg.graph.io import load_graph
from paperkg.records import PaperMentions

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iclr2025_abstracts.txt"


@pytest.fixture(scope="module")
def corpora(nlp, tmp_path_factory):
    """Two synthetic corpora (the second a changed first) and a cache holding both."""
    folder = tmp_path_factory.mktemp("killed")
    source = extract_mentions(nlp, read_inputs([EXAMPLE]).papers)
    cache = ExtractionCache(folder / "cache", identity=pipeline_identity(resolve_model(None)))
    paths = []
    for seed in (0, 1):
        path = folder / f"corpus{seed}.jsonl"
        made = list(synthetic_corpus(source, 1500, seed=seed))
        write_jsonl(path, made)
        papers = read_inputs([path]).papers
        cache.put_many([PaperMentions(p, r.mentions) for p, r in zip(papers, made, strict=True)])
        paths.append(path)
    return paths, folder / "cache"


def start_build(corpus: Path, out: Path, cache: Path) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "paperkg.cli", "build", str(corpus), "-o", str(out)]
    cmd += ["--cache-dir", str(cache), "-j", "1"]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def assert_outputs_whole(out: Path) -> None:
    """Every output opens in its reader, and the Neo4j bundle's files belong together."""
    graph = load_graph(out / "graph.json")
    ET.parse(out / "graph.graphml")
    assert (out / "graph.html").read_text(encoding="utf-8").rstrip().endswith("</html>")
    ids = set()
    for nodes in (out / "neo4j").glob("nodes_*.csv"):
        with nodes.open(encoding="utf-8", newline="") as f:
            ids |= {row[0] for row in list(csv.reader(f))[1:]}
    assert len(ids) == graph.number_of_nodes()
    for rels in (out / "neo4j").glob("rels_*.csv"):
        with rels.open(encoding="utf-8", newline="") as f:
            assert all(row[0] in ids and row[1] in ids for row in list(csv.reader(f))[1:])


def test_a_build_killed_at_any_moment_leaves_the_last_outputs_whole(
    corpora, tmp_path, output_files
):
    (first, second), cache = corpora
    out = tmp_path / "out"
    started = time.perf_counter()
    assert start_build(first, out, cache).wait() == 0
    seconds = time.perf_counter() - started
    before = output_files(out)

    kills = 0
    for fraction in (0.3, 0.5, 0.65, 0.75, 0.85, 0.92, 0.97):
        build = start_build(second, out, cache)
        time.sleep(seconds * fraction)
        if build.poll() is None:
            os.kill(build.pid, signal.SIGKILL)
            kills += 1
        build.wait()
        assert_outputs_whole(out)
    assert kills >= 4  # most of the kills landed while the build ran

    assert start_build(second, out, cache).wait() == 0
    assert_outputs_whole(out)
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]  # leftovers removed
    after = output_files(out)
    assert after.keys() == before.keys() and after != before


def test_the_same_build_twice_writes_byte_identical_outputs(tmp_path, output_files):
    env = {**os.environ, "PYTHONHASHSEED": "1"}
    for run, seed in ((1, "1"), (2, "2")):
        env["PYTHONHASHSEED"] = seed  # set iteration order must not leak into any file
        cmd = [sys.executable, "-m", "paperkg.cli", "build", str(EXAMPLE), "-o"]
        subprocess.run([*cmd, str(tmp_path / f"run{run}"), "-j", "1"], env=env, check=True,
                       capture_output=True)  # fmt: skip
    first, second = output_files(tmp_path / "run1"), output_files(tmp_path / "run2")
    assert sorted(first) == sorted(second) and "neo4j/nodes_Paper.csv" in first
    for name, content in first.items():
        assert content == second[name], name
