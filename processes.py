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
import logging
import multiprocessing
import os
import signal
import sys
import traceback
from collections.abc import Callable, Iterator
from typing import Any

log = logging.getLogger(__name__)


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


def become_forked_child(parent: int) -> None:
    """What a child forked from a build does first: die with ``parent``, and write
    to the real stdout and stderr with plain logging.

    The parent may be showing a progress display (rich replaces ``sys.stderr``
    with a proxy whose locks its refresh thread takes) or run in a notebook
    (whose streams go through threads); a lock held by a thread at the fork stays
    held in the child for good, and its first warning would hang it.
    """
    die_with_parent(parent)
    _killed_first()
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    root = logging.getLogger()
    root.handlers = [logging.StreamHandler(sys.__stderr__)]


def _killed_first() -> None:
    """Have the kernel's out-of-memory killer choose this process before the build:
    a forked child shows nearly the build's memory (the pages it shares), and its
    death costs a speed-up or names the output it was writing, where the build's
    would lose everything."""
    try:
        with open("/proc/self/oom_score_adj", "w") as adj:
            adj.write("1000")
    except OSError:  # not Linux, or not allowed: the kernel's own choice
        pass


class ForkedCallFailed(RuntimeError):
    """The forked child ended without saying how (killed, or out of memory), or its
    error could not be brought back."""


class _RemoteTraceback(Exception):
    """The child's traceback, chained to the error it raised."""

    def __str__(self) -> str:
        return self.args[0]


def _child(connection, parent: int, function: Callable[..., Any], args: tuple) -> None:
    become_forked_child(parent)
    try:
        function(*args)
    except BaseException as error:  # noqa: BLE001 - every failure goes back to the parent
        trace = "".join(traceback.format_exception(error))
        try:
            connection.send((error, trace))
        except Exception:  # not picklable: its type and message are enough
            connection.send((RuntimeError(f"{type(error).__name__}: {error}"), trace))
        connection.close()
        os._exit(1)
    connection.send(None)
    connection.close()


def _forked(target: Callable, function: Callable, args: tuple, what: str, doing: str):
    """Start ``target(connection, parent, function, args)`` in a forked child:
    ``(process, receiver)``, or ``(None, None)`` with a warning if it cannot start
    (the caller then does ``doing`` itself)."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(
        target=target, args=(sender, os.getpid(), function, args), name=f"paperkg {what}"
    )
    try:
        process.start()
    except OSError as error:
        log.warning("cannot start a second process (%s); %s in this one", error, doing)
        sender.close()
        receiver.close()
        return None, None
    sender.close()
    return process, receiver


def _how_it_ended(process) -> str:
    """``"ended with exit code N"``, and a guess when it was killed."""
    killed = " (killed: out of memory?)" if process.exitcode == -signal.SIGKILL else ""
    return f"ended with exit code {process.exitcode}{killed}"


@contextlib.contextmanager
def forked_call(
    what: str, function: Callable[..., Any], *args: Any
) -> Iterator[Callable[[], None]]:
    """Start ``function(*args)`` in a forked child; the block gets ``wait``.

    ``wait()`` returns once the child is done and raises what the child raised
    (chained to the child's traceback), or :class:`ForkedCallFailed`, naming
    ``what``, if it died without a word. If the block raises, or ``wait`` is
    interrupted, the child is killed. The block must call ``wait`` to learn that
    the child succeeded. If this process cannot fork (out of memory), ``wait``
    runs ``function`` here instead: slower, not lost.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "x.txt"
    >>> with forked_call("x.txt", path.write_text, "written by the child") as wait:
    ...     wait()
    >>> path.read_text()
    'written by the child'
    """
    process, receiver = _forked(_child, function, args, what, f"writing {what}")
    if process is None:
        yield lambda: function(*args)
        return
    finished = False

    def wait() -> None:
        nonlocal finished
        try:
            outcome = receiver.recv()
        except EOFError:
            outcome = None
            process.join()
            if process.exitcode != 0:
                outcome = (
                    ForkedCallFailed(f"the process writing {what} {_how_it_ended(process)}"),
                    None,
                )
        except Exception as error:  # the child's error came back but cannot be rebuilt here
            outcome = (ForkedCallFailed(f"the process writing {what} failed: {error!r}"), None)
        process.join()
        finished = True
        if outcome is not None:
            error, trace = outcome
            if trace:
                raise error from _RemoteTraceback(trace)
            raise error

    try:
        yield wait
    finally:
        if not finished:
            process.kill()
        process.join()
        receiver.close()


def map_halves(what: str, function: Callable[[list], list], items: list, *, fork: bool) -> list:
    """``function(items)`` (a list with one result per item), the second half of the
    items computed by a forked child while this process computes the first half.

    For a corpus step's per-paper loop that reads the corpus and returns compact
    results (a few integers a paper): the child holds the corpus already, and only
    its results are pickled back. The same list comes back as from
    ``function(items)``, in order. ``fork``: as for :func:`computed_aside`.

    >>> map_halves("squares", lambda xs: [x * x for x in xs], [1, 2, 3], fork=True)
    [1, 4, 9]
    """
    if len(items) < 2:
        return function(items)
    half = (len(items) + 1) // 2
    with computed_aside(what, function, items[half:], fork=fork) as second:
        first = function(items[:half])
        return first + second()


@contextlib.contextmanager
def computed_aside(
    what: str, function: Callable[..., Any], *args: Any, fork: bool
) -> Iterator[Callable[[], Any]]:
    """Start ``function(*args)`` in a forked child; the block gets ``result()``, which
    waits for it and returns what it returned.

    For a pure function of what this process holds (the child has it all already)
    whose answer is small to pickle back, computed while this process does other
    work: ``function`` must not change what it reads, and what it changes in the
    child stays there. Without ``fork`` (one core, or a caller's own process: see
    :func:`paperkg.api._second_core`), without fork on this platform, or if the
    child cannot start, fails or dies, ``result()`` computes it here: slower, not
    lost. If the block raises, the child is killed.

    >>> with computed_aside("a sum", sum, [1, 2, 3], fork=True) as result:
    ...     result()
    6
    """
    if not fork or not fork_available():
        yield lambda: function(*args)
        return
    process, receiver = _forked(_aside_child, function, args, what, what)
    if process is None:
        yield lambda: function(*args)
        return
    received = False

    def result() -> Any:
        nonlocal received
        try:
            ok, answer = receiver.recv()
        except EOFError:  # killed (out of memory?) before it answered
            process.join()
            ok, answer = False, f"it {_how_it_ended(process)}"
        received = True
        if not ok:
            log.warning("the second process for %s failed (%s); %s in this one", what, answer, what)
            return function(*args)
        return answer

    try:
        yield result
    finally:
        if not received:
            process.kill()  # the block failed or did not ask: the answer is not wanted
        process.join()
        receiver.close()


def _aside_child(connection, parent: int, function: Callable, args: tuple) -> None:
    """:func:`computed_aside`'s child: the answer, or the reason it failed."""
    import gc

    gc.disable()  # a collection would touch, and so copy, every page of the parent's heap
    become_forked_child(parent)
    try:
        answer = (True, function(*args))
    except BaseException as error:  # noqa: BLE001 - the parent computes it instead
        answer = (False, f"{type(error).__name__}: {error}")
    connection.send(answer)
    connection.close()
    os._exit(0)
