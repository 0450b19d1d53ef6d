"""Fewer garbage collections while a build allocates millions of small objects."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

#: Young-generation threshold during a build. Python's default (700 allocations)
#: starts a collection every few hundred mentions, and the older generations follow,
#: each scanning a heap that only grows: 15% of a cached rebuild of 3,218 papers and
#: of 20,000 went to them (bench/throughput.py), with almost no garbage found, since
#: a build's objects live until it ends. The collector still runs, every 100,000
#: allocations, so reference cycles cannot pile up (peak at 20,000 papers: 805 MB
#: before, 808 MB with it).
BUILD_GC_THRESHOLD = (100_000, 50, 100)


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the block with :data:`BUILD_GC_THRESHOLD`; the caller's thresholds come back after.

    >>> before = gc.get_threshold()
    >>> with fewer_collections():
    ...     gc.get_threshold() == BUILD_GC_THRESHOLD
    True
    >>> gc.get_threshold() == before
    True
    """
    before = gc.get_threshold()
    gc.set_threshold(*BUILD_GC_THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*before)
