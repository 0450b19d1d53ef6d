"""Memos of the pure functions of names the corpus steps call per mention, kept
from one build to the next.

Why a memo: the corpus steps ask for the same names again and again, from one
paper, one step and one corpus vote to the next, so a memo that forgets them
before the steps end does the work twice: bounded at 200,000 entries, a
20,000-paper corpus (300,000 distinct names) missed 459,000 times where 299,000
is every name once (resolution 14.5 -> 10.5 s). So a memo has no bound; a build
empties them all once resolution is done (:func:`forget_memoised_names`), so they
do not weigh on the graph step, the peak of its memory, and again when it ends
or fails. Code that calls these functions outside a build, over corpus after
corpus, should call :func:`forget_memoised_names` itself.

Why kept between builds: a rebuild after adding papers asks for the same names
as the build before it, and computing them was a sixth of a cached rebuild's
corpus steps. With a cache folder, a build saves what its memos hold
(:func:`save_name_memos`, only the names this build asked for) and the next one
starts from them (:func:`load_name_memos`). The file is named by a hash of the
code the answers come from (:func:`code_identity`), so a changed function never
answers from an old file.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...atomic import atomic_open

log = logging.getLogger(__name__)

__all__ = [
    "code_identity",
    "forget_memoised_names",
    "load_name_memos",
    "name_memo",
    "save_name_memos",
]

_MISSING = object()


class NameMemo:
    """A memoised function of names: ``memo(*args)`` is ``function(*args)``, computed
    once. ``memo.answers`` holds what this build asked for; ``memo.earlier`` what a
    previous build's file had, moved into ``answers`` as it is asked for."""

    def __init__(self, function: Callable[..., Any]) -> None:
        functools.update_wrapper(self, function)
        self.function = function
        self.key = f"{function.__module__}.{function.__qualname__}"
        self.answers: dict[tuple, Any] = {}
        self.earlier: dict[tuple, Any] = {}
        self.computed = 0

    def __call__(self, *args: Any) -> Any:
        try:
            return self.answers[args]
        except KeyError:
            pass
        value = self.earlier.pop(args, _MISSING)
        if value is _MISSING:
            value = self.function(*args)
            self.computed += 1
        self.answers[args] = value
        return value

    def cache_clear(self) -> None:
        """Forget every answer, this build's and the earlier ones."""
        self.answers = {}
        self.earlier = {}
        self.computed = 0

    def __repr__(self) -> str:
        return f"<name memo {self.key}: {len(self.answers)} answers>"


#: Every :func:`name_memo`, for :func:`forget_memoised_names` and the memo file.
NAME_MEMOS: list[NameMemo] = []


def name_memo(function: Callable[..., Any]) -> NameMemo:
    """Memoise a pure function of names (positional arguments only) for the corpus
    steps, and register it to be emptied by :func:`forget_memoised_names` and
    kept by :func:`save_name_memos`.

    >>> @name_memo
    ... def shout(name):
    ...     return name.upper()
    >>> shout("bert"), shout("bert"), shout.computed
    ('BERT', 'BERT', 1)
    >>> NAME_MEMOS.remove(shout)
    """
    memo = NameMemo(function)
    NAME_MEMOS.append(memo)
    return memo


def forget_memoised_names() -> None:
    """Empty every :func:`name_memo`.

    Each keeps every surface form of the corpus with its result, which would
    otherwise stay in memory for the rest of the build, through its peak, the
    graph. Only speed depends on them.
    """
    for memo in NAME_MEMOS:
        memo.cache_clear()


@functools.lru_cache(maxsize=1)
def code_identity() -> str:
    """A hash of paperkg's extract/ code and word lists (models aside), of the records
    they use, and of Python's version: what a memoised name function's answer may
    depend on."""
    from ... import __version__

    extract = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256(f"paperkg {__version__} python {sys.version}".encode())
    digest.update((extract.parent / "records.py").read_bytes())
    for path in sorted(extract.rglob("*")):
        if "models" in path.relative_to(extract).parts or "__pycache__" in path.parts:
            continue
        if path.is_file():
            digest.update(str(path.relative_to(extract)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


def _memo_file(folder: str | Path) -> Path:
    return Path(folder) / "names" / f"{code_identity()}.pickle"


def load_name_memos(folder: str | Path) -> int:
    """Give each memo the answers the last build with this cache ``folder`` saved.

    Returns how many answers were loaded; a missing or unreadable file is 0 (a
    slower build, nothing else).
    """
    path = _memo_file(folder)
    try:
        with path.open("rb") as f:
            saved = pickle.load(f)  # the user's own cache folder, as the extraction cache
    except FileNotFoundError:
        return 0
    except Exception as e:  # noqa: BLE001 - any damage means: compute them again
        log.warning("name memos: ignoring %s (%s)", path, e)
        return 0
    loaded = 0
    for memo in NAME_MEMOS:
        answers = saved.get(memo.key)
        if answers:
            memo.earlier = answers
            loaded += len(answers)
    return loaded


def save_name_memos(folder: str | Path) -> bool:
    """Keep the answers this build asked for, for the next build with this cache
    ``folder``; files of other code are removed. Returns whether a file was written:
    not when every answer came from the file and every answer in it was asked for
    (a rebuild of the same corpus)."""
    if not any(memo.computed or memo.earlier for memo in NAME_MEMOS):
        return False
    path = _memo_file(folder)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_open(path, "wb") as f:
            pickle.dump({m.key: m.answers for m in NAME_MEMOS}, f, pickle.HIGHEST_PROTOCOL)
        for other in path.parent.glob("*.pickle"):
            if other != path:
                other.unlink(missing_ok=True)
    except OSError as e:
        log.warning("name memos: cannot write %s (%s)", path, e)
        return False
    return True
