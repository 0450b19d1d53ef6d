"""A forked call runs beside its caller, reports its failures, and never outlives it."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from paperkg.processes import (
    ForkedCallFailed,
    computed_aside,
    fork_available,
    forked_call,
    map_halves,
)

pytestmark = pytest.mark.skipif(not fork_available(), reason="needs fork (Linux)")


def _fail(message):
    raise PermissionError(message)


def _kill_myself():
    os.kill(os.getpid(), signal.SIGKILL)


def test_what_the_child_raises_is_raised_by_wait_with_its_traceback():
    with pytest.raises(PermissionError, match="neo4j/nodes.csv is read-only") as raised:
        with forked_call("neo4j/", _fail, "neo4j/nodes.csv is read-only") as wait:
            wait()
    assert "in _fail" in str(raised.value.__cause__)  # where it failed, in the child


def test_without_a_fork_the_call_runs_here(tmp_path, monkeypatch):
    """Out of memory for a fork (a fault that cannot be made real here): slower, not lost."""

    def no_fork(self):
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr("multiprocessing.process.BaseProcess.start", no_fork)
    path = tmp_path / "graph.json"

    with forked_call("graph.json", path.write_text, "{}") as wait:
        assert not path.exists()
        wait()

    assert path.read_text() == "{}"


def test_a_child_that_dies_without_a_word_is_a_clear_error():
    with pytest.raises(ForkedCallFailed, match=r"writing graph.json .*killed"):
        with forked_call("graph.json", _kill_myself) as wait:
            wait()


def test_a_failing_caller_does_not_wait_for_the_child(tmp_path):
    started = time.monotonic()
    with pytest.raises(ValueError):
        with forked_call("a slow file", time.sleep, 60):
            raise ValueError("the caller's own writer failed")
    assert time.monotonic() - started < 10  # the child was killed, not waited for


def test_the_child_dies_with_its_parent(tmp_path):
    """A killed build leaves no forked writer behind, still writing into its folder."""
    late = tmp_path / "written after the parent died"
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(f"""
                import pathlib, time
                from paperkg.processes import forked_call
                def write_late():
                    time.sleep(2)
                    pathlib.Path({str(late)!r}).write_text("orphan")
                with forked_call("late", write_late) as wait:
                    print("started", flush=True)
                    wait()
            """),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert parent.stdout.readline().strip() == "started"
    parent.kill()
    parent.wait()
    time.sleep(6)
    assert not late.exists()


def test_a_child_writes_around_a_stderr_whose_lock_a_thread_held_at_the_fork():
    """A progress display's stderr proxy, locked by its refresh thread at the fork,
    must not hang the child's first warning (nor the build waiting for it)."""
    script = textwrap.dedent("""
        import logging, sys, threading, warnings
        from paperkg.processes import forked_call

        class ProgressStderr:  # as rich's: every write takes the display's lock
            lock = threading.Lock()
            def write(self, text):
                with self.lock:
                    return sys.__stderr__.write(text)
            def flush(self):
                pass

        sys.stderr = ProgressStderr()
        ProgressStderr.lock.acquire()  # the refresh thread holds it at the fork
        def warn():
            logging.getLogger("paperkg").warning("2 list elements")
            warnings.warn("model trained with another spaCy version")  # to sys.stderr

        with forked_call("warnings", warn) as wait:
            wait()
        print("done", flush=True)
    """)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip() == "done"
    assert "2 list elements" in done.stderr
    assert "another spaCy version" in done.stderr


def _pids(items):
    return [(item, os.getpid()) for item in items]


def test_halves_are_computed_here_and_in_a_child_and_come_back_in_order():
    found = map_halves("pids", _pids, list(range(7)), fork=True)

    assert [item for item, _ in found] == list(range(7))
    here = [pid == os.getpid() for _, pid in found]
    assert here == [True] * 4 + [False] * 3


def test_without_fork_everything_is_computed_here():
    found = map_halves("pids", _pids, list(range(7)), fork=False)
    assert [pid for _, pid in found] == [os.getpid()] * 7


def test_a_child_that_fails_or_dies_costs_only_its_speed_up(caplog):
    parent = os.getpid()

    def failing_there(items):
        if os.getpid() != parent:
            raise MemoryError("no room")
        return [x * 2 for x in items]

    def killed_there(items):
        if os.getpid() != parent:
            _kill_myself()
        return [x * 2 for x in items]

    assert map_halves("doubling", failing_there, [1, 2, 3], fork=True) == [2, 4, 6]
    assert "MemoryError: no room" in caplog.text
    assert map_halves("doubling", killed_there, [1, 2, 3], fork=True) == [2, 4, 6]
    assert "exit code -9" in caplog.text


def test_a_failure_here_stops_the_child_at_once():
    parent = os.getpid()

    def slow_there(items):
        if os.getpid() != parent:
            time.sleep(60)
        raise PermissionError("this half failed")

    started = time.monotonic()
    with pytest.raises(PermissionError, match="this half failed"):
        map_halves("sleeping", slow_there, [1, 2], fork=True)
    assert time.monotonic() - started < 10


def test_a_forked_child_is_the_one_the_out_of_memory_killer_takes_first():
    def adj():
        with open("/proc/self/oom_score_adj") as f:
            return f.read().strip()

    with computed_aside("reading", adj, fork=True) as result:
        assert result() == "1000"
    assert adj() != "1000"  # not this process
