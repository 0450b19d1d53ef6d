"""Work on more than one core: the cores there are, and a function run in a forked
copy of this process while the caller goes on.

Why the fork: a build's outputs (graph.json, GraphML, the map, the Neo4j bundle) are each
written by pure Python on one core, and a rebuild from the cache spends a fifth of
its time on them. A forked child already holds the finished graph (its pages are
shared until written to), so half the writers can run on a second core without
pickling the graph. Not where ``fork`` is missing or unsafe (Windows, macOS):
:func:`fork_available` says so and the caller writes everything itself.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterator
from typing import Any


def available_cores() -> int:
    """The cores this process may use (its CPU affinity on Linux).

    :func:`paperkg.extract.extractor.default_jobs` says the same for extraction;
    it stays there because that module is hashed into the extraction cache's key.
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def fork_available() -> bool:
    """Whether :func:`forked_call` may be used here (Linux: fork, and a child that
    dies with its parent)."""
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def die_with_parent(parent: int) -> None:
    """In a forked child of ``parent`` (its pid): have the kernel kill this process
    when the parent dies, so a killed build leaves no process behind, still
    writing into its staging folder or loading a model."""
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before prctl
        os._exit(1)


def _child(connection, parent: int, function: Callable[..., Any], args: tuple) -> None:
    die_with_parent(parent)
    try:
        function(*args)
    except BaseException as error:  # noqa: BLE001 - every failure goes back to the parent
        try:
            connection.send(error)
        except Exception:  # not picklable: its type and message are enough
            connection.send(RuntimeError(f"{type(error).__name__}: {error}"))
        connection.close()
        os._exit(1)
    connection.send(None)
    connection.close()


class ForkedCallFailed(RuntimeError):
    """The forked child ended without saying how (killed, or out of memory)."""


@contextlib.contextmanager
def forked_call(
    what: str, function: Callable[..., Any], *args: Any
) -> Iterator[Callable[[], None]]:
    """Start ``function(*args)`` in a forked child; the block gets ``wait``.

    ``wait()`` returns once the child is done and raises what the child raised (or
    :class:`ForkedCallFailed`, naming ``what``, if it died without a word). If the
    block raises, the child is killed first. The block must call ``wait`` to learn
    that the child succeeded.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "x.txt"
    >>> with forked_call("x.txt", path.write_text, "written by the child") as wait:
    ...     wait()
    >>> path.read_text()
    'written by the child'
    """
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(
        target=_child, args=(sender, os.getpid(), function, args), name=f"paperkg {what}"
    )
    process.start()
    sender.close()
    waited = False

    def wait() -> None:
        nonlocal waited
        waited = True
        try:
            outcome = receiver.recv()
        except EOFError:
            outcome = None
            process.join()
            if process.exitcode != 0:
                outcome = ForkedCallFailed(
                    f"the process writing {what} ended with exit code {process.exitcode}"
                    + (" (killed: out of memory?)" if process.exitcode == -signal.SIGKILL else "")
                )
        process.join()
        if outcome is not None:
            raise outcome

    try:
        yield wait
    finally:
        if not waited:
            process.kill()
        process.join()
        receiver.close()
