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


def test_what_the_child_raises_is_raised_by_wait():
    with pytest.raises(PermissionError, match="neo4j/nodes.csv is read-only"):
        with forked_call("neo4j/", _fail, "neo4j/nodes.csv is read-only") as wait:
            wait()


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
                    time.sleep(3)
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
    time.sleep(4)
    assert not late.exists()
