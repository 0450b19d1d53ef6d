"""A forked call runs beside its caller, reports its failures, and never outlives it."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from paperkg.processes import ForkedCallFailed, fork_available, forked_call

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
