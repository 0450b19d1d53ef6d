"""Fewer garbage collections while a build allocates millions of small objects."""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

#: Young-generation threshold during a build. Python's default (700 allocations)
#: starts a collection every few hundred mentions, and the older generations follow,
#: each scanning a heap that only grows: 15% of a cached rebuild of 3,218 papers and
#: of 20,000 went to them (bench/throughput.py), with almost no garbage found, since
#: a build's objects live until it ends. The collector still runs, every 100,000
#: allocations, so reference cycles cannot pile up (peak at 20,000 papers: 805 MB
#: before, 808 MB with it).
BUILD_GC_THRESHOLD = (100_000, 50, 100)


_lock = threading.Lock()
_depth = 0  # blocks running (nested calls, or builds in several threads)
_callers: tuple[int, ...] | None = None  # the thresholds before the first of them


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the block with :data:`BUILD_GC_THRESHOLD`; the caller's thresholds come back after.

    The threshold is the process's, so blocks that overlap (nested, or builds in
    several threads) share it: the first to start saves the caller's and the last
    to end restores it.

    >>> before = gc.get_threshold()
    >>> with fewer_collections():
    ...     gc.get_threshold() == BUILD_GC_THRESHOLD
    True
    >>> gc.get_threshold() == before
    True
    """
    global _depth, _callers
    with _lock:
        if _depth == 0:
            _callers = gc.get_threshold()
            gc.set_threshold(*BUILD_GC_THRESHOLD)
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                gc.set_threshold(*_callers)
