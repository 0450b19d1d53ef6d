"""The build is a list of named stages, run in order by one loop that names and times each."""

import json
import os
import signal
import subprocess
import sys
from dataclasses import replace

import pytest

from paperkg.api import BUILD_STAGES, build
from paperkg.stages import KILL_AT, BuildOptions, Corpus, Stage, run_stages


def test_stages_run_in_order_each_named_and_timed():
    def add(word):
        return lambda corpus: replace(corpus, paths=[*corpus.paths, word])

    stages = [Stage("first", add("a")), Stage("second", add("b")), Stage("third", add("c"))]
    named = []

    corpus = run_stages(stages, Corpus([], BuildOptions()), named.append)

    assert corpus.paths == ["a", "b", "c"]
    assert named == ["first", "second", "third"]
    assert list(corpus.seconds) == named and all(s >= 0 for s in corpus.seconds.values())


def test_a_stage_the_options_switch_off_is_neither_run_nor_named():
    stages = [
        Stage("kept", lambda c: replace(c, from_cache=1)),
        Stage("off", lambda c: replace(c, from_cache=99), wanted=lambda o: o.corpus_terms),
    ]

    corpus = run_stages(stages, Corpus([], BuildOptions(corpus_terms=False)))

    assert corpus.from_cache == 1 and list(corpus.seconds) == ["kept"]


def test_a_build_reports_the_seconds_of_every_stage(tmp_path):
    data = tmp_path / "a.jsonl"
    data.write_text('{"id": "a", "abstract": "We fine-tune BERT on SQuAD."}\n')

    result = build([data], cache_dir=None)

    assert list(result.seconds) == [stage.name for stage in BUILD_STAGES]


@pytest.mark.parametrize("stage", [stage.name for stage in BUILD_STAGES])
def test_a_build_asked_to_die_at_a_stage_dies_there_and_writes_nothing(tmp_path, stage):
    data = tmp_path / "a.jsonl"
    data.write_text(json.dumps({"id": "a", "abstract": "We fine-tune BERT on SQuAD."}) + "\n")
    out = tmp_path / "out"

    done = subprocess.run(
        [sys.executable, "-m", "paperkg.cli", "build", str(data), "-o", str(out), "--no-cache"],
        env={**os.environ, KILL_AT: stage},
        capture_output=True,
    )

    assert done.returncode == -signal.SIGKILL
    assert not (out / "graph.json").exists()
