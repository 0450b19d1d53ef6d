"""A build killed with SIGKILL takes its extraction workers with it.

A real ``paperkg build --jobs 2 --no-cache`` runs in a child process; once both
extraction workers are busy (each has spent CPU time, so its pipeline is loaded and
it is extracting), the build alone is killed with SIGKILL, as a user, a scheduler or
the out-of-memory killer would. Every process the build had started must be gone
soon after.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from synthetic_corpus import synthetic_corpus, write_jsonl

from paperkg.extract.nlp.extractor import extract_mentions
from paperkg.extract.readers import read_inputs

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)"
)
EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "iclr2025_abstracts.txt"
#: CPU seconds a worker has spent when it is surely extracting (loading takes about 1 s)
BUSY_CPU_SECONDS = 2.0


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid``."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))) is not None:
            children.setdefault(int(stat[1]), []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _stat(pid: int) -> list[str] | None:
    """Fields 3 onwards of /proc/PID/stat (state, ppid, ...), None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return text.rsplit(")", 1)[1].split()


def alive(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] not in ("Z", "X")  # a zombie has ended


def cpu_seconds(pid: int) -> float:
    stat = _stat(pid)
    return 0.0 if stat is None else (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")


def test_a_build_killed_with_sigkill_leaves_no_process_running(nlp, tmp_path):
    source = extract_mentions(nlp, read_inputs([EXAMPLE]).papers)
    corpus = tmp_path / "corpus.jsonl"
    write_jsonl(corpus, list(synthetic_corpus(source, 2000, seed=3)))
    build = subprocess.Popen(
        [sys.executable, "-m", "paperkg.cli", "build", str(corpus), "-o", str(tmp_path / "out"),
         "--jobs", "2", "--no-cache"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    started: set[int] = set()
    try:
        deadline = time.monotonic() + 180
        while True:
            assert build.poll() is None, "the build ended before its workers were busy"
            assert time.monotonic() < deadline, "the build's workers never got busy"
            started = descendants(build.pid)
            busy = [p for p in started if cpu_seconds(p) > BUSY_CPU_SECONDS]
            if len(busy) >= 2:
                break
            time.sleep(0.2)
        build.send_signal(signal.SIGKILL)
        build.wait()
        started |= descendants(build.pid)
        deadline = time.monotonic() + 15
        while (running := [p for p in started if alive(p)]) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert running == [], f"still running after the build was killed: {running}"
    finally:
        for pid in started | descendants(build.pid) | {build.pid}:  # whatever a failure left
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
