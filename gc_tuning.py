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
    to end restores it. The last also hands the collector back what
    :func:`paused_collections` blocks inside froze (``gc.unfreeze``).

    >>> before = gc.get_threshold()
    >>> with fewer_collections():
    ...     gc.get_threshold() == BUILD_GC_THRESHOLD
    True
    >>> gc.get_threshold() == before
    True
    """
    global _depth, _callers, _may_freeze, _froze
    with _lock:
        if _depth == 0:
            _callers = gc.get_threshold()
            gc.set_threshold(*BUILD_GC_THRESHOLD)
            # a caller that froze objects itself (before forking workers) keeps them
            # frozen: the blocks inside then only pause, and unfreeze nothing
            _may_freeze, _froze = gc.get_freeze_count() == 0, False
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                gc.set_threshold(*_callers)
                if _froze:
                    gc.unfreeze()  # into the oldest generation: no scan now
                _may_freeze = _froze = False


_paused = 0  # paused_collections blocks running
_was_enabled = False  # whether the collector ran before the first of them
_may_freeze = False  # whether paused_collections may freeze (see fewer_collections)
_froze = False  # whether one did since the outermost fewer_collections began


@contextlib.contextmanager
def paused_collections() -> Iterator[None]:
    """Run the block with the collector off and, inside :func:`fewer_collections`,
    freeze every object of the process at its end (``gc.freeze``) until that block
    ends, so the collector never scans them.

    For a build's steps that make millions of objects that live until it ends,
    and no reference cycles: reading the cached mentions and the name memos, the
    corpus steps and the graph. Even at :data:`BUILD_GC_THRESHOLD` the collector
    scanned each new object once or twice only to find it alive: 0.4 s of a 7.5 s
    rebuild of 3,218 papers. Turning it off alone does not spare that: the objects
    wait in the youngest generation, and the first collection after scans them
    all. Frozen, they are moved out of its reach without a scan; the outermost
    :func:`fewer_collections` gives them back to the oldest generation, which is
    scanned rarely. Extraction is left out: spaCy and PyTorch make cycles.

    Both the switch and the freeze are the process's, not the block's: other
    threads run without the collector meanwhile, and their objects are frozen
    too, garbage included, until every overlapping build is done. So a build
    pauses only in a process paperkg owns, the ``paperkg`` command (see
    :func:`paperkg.api.build`), never in a caller's notebook or server, and
    freezes only while one :func:`fewer_collections` block runs (two builds in
    threads only pause). Nested blocks share the switch: the last to end turns
    it back on (unless the caller had it off); a caller who froze objects
    itself gets nothing frozen.

    >>> with fewer_collections(), paused_collections():
    ...     gc.isenabled()
    False
    >>> gc.isenabled(), gc.get_freeze_count()
    (True, 0)
    """
    global _paused, _was_enabled, _froze
    with _lock:
        if _paused == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _lock:
            _paused -= 1
            if _paused == 0:
                if _may_freeze and _depth == 1:
                    gc.freeze()
                    _froze = True
                if _was_enabled:
                    gc.enable()
