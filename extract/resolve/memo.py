"""An in-process memo for the pure functions of names that the corpus steps call per
mention.

The corpus steps ask for the same names again and again (2.9 million calls at
3,218 papers for far fewer names), so each such function keeps its answers for
the length of a build. They hold every name of the corpus, so the graph stage
empties them all before it makes the graph (it asks about few names) and
:func:`paperkg.api.build` again when it ends, also when it fails; code that calls
these functions outside a build, over corpus after corpus, should call
:func:`forget_memoised_names` itself.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["forget_memoised_names", "name_memo"]

F = TypeVar("F", bound=Callable[..., Any])

#: every function :func:`name_memo` wrapped, for :func:`forget_memoised_names`
_MEMOISED: list[Any] = []


def name_memo(function: F) -> F:
    """``function`` with its answers kept until :func:`forget_memoised_names`.

    >>> @name_memo
    ... def shout(name):
    ...     return name.upper()
    >>> shout("bert"), shout.cache_info().hits, shout("bert"), shout.cache_info().hits
    ('BERT', 0, 'BERT', 1)
    """
    cached = functools.cache(function)
    _MEMOISED.append(cached)
    return cached  # type: ignore[return-value]


def forget_memoised_names() -> None:
    """Empty every :func:`name_memo`."""
    for cached in _MEMOISED:
        cached.cache_clear()
