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
(:func:`save_name_memos`, only the names this build asked for) and the next
build of the same input files starts from them (:func:`load_name_memos`), up to
:data:`MAX_NOTED_ANSWERS` answers (a corpus of about 30,000 abstracts). The
files sit in a folder named by a hash of the code the answers come from, taken
when this module is imported (:func:`code_identity`), so a changed function
never answers from an old file; the eight corpora built last keep theirs. They
are JSON, like the extraction cache, not pickles: a shared cache folder must
not be a way to run code.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import inspect
import json
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...atomic import atomic_open, remove_leftovers

log = logging.getLogger(__name__)

__all__ = [
    "code_identity",
    "forget_memoised_names",
    "load_name_memos",
    "name_memo",
    "save_name_memos",
]

_MISSING = object()
_recording = False  # whether memos note what they answer, for save_name_memos
_recorded = 0  # answers noted since load_name_memos, all memos together

#: The most answers a build notes for the next one. Noting an answer keeps its
#: arguments a second time (about 90 bytes), and the next build holds the whole
#: file in memory before it asks: 331,000 answers at 3,218 real abstracts, 1.2
#: million at 20,000 synthetic ones, 6 million (over 500 MB noted, 1.2 GB loaded)
#: at 100,000, where resolution is a small part of a rebuild anyway. A build that
#: asks for more stops noting, drops what it noted and removes the corpus's file.
#: The count is this process's: builds in threads of one process share it.
MAX_NOTED_ANSWERS = 2_000_000


class NameMemo:
    """What one memoised function of names knows besides its ``lru_cache``.

    ``answers``: what this build asked for (noted only after :func:`load_name_memos`,
    by a build that will save them); ``earlier``: what the last build's file had,
    each moved into ``answers`` when asked for; ``computed``: answers not found there.
    The cache's hits never reach this object: they stay at ``lru_cache``'s speed,
    as the corpus steps make millions of calls (2.9 million at 3,218 papers).
    """

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.key = f"{function.__module__}.{function.__qualname__}"
        self.answers: dict[tuple, Any] = {}
        self.earlier: dict[tuple, Any] = {}
        self.computed = 0
        self.cached: Any = None  # the lru_cache wrapper the callers call

    def answer(self, *args: Any, **kwargs: Any) -> Any:
        """The answer for ``args``: from the last build's file, else computed."""
        if kwargs:
            args = inspect.signature(self.function).bind(*args, **kwargs).args
        value = self.earlier.pop(args, _MISSING) if self.earlier else _MISSING
        if value is _MISSING:
            value = self.function(*args)
            self.computed += 1
        if _recording and args not in self.answers:
            self.answers[args] = value
            _count_noted()
        return value

    def clear(self) -> None:
        """Forget every answer, this build's and the earlier ones."""
        self.cached.cache_clear()
        self.answers = {}
        self.earlier = {}
        self.computed = 0


def _count_noted() -> None:
    """Count one more noted answer; past :data:`MAX_NOTED_ANSWERS`, stop noting."""
    global _recorded, _recording
    _recorded += 1
    if _recorded > MAX_NOTED_ANSWERS:
        _recording = False
        for memo in NAME_MEMOS:
            memo.answers = {}
        log.info("name memos: over %d answers, not kept for the next build", MAX_NOTED_ANSWERS)


#: Every :func:`name_memo`, for :func:`forget_memoised_names` and the memo files.
NAME_MEMOS: list[NameMemo] = []


def name_memo(function: Callable[..., Any]) -> Callable[..., Any]:
    """Memoise a pure function of names for the corpus steps (an unbounded
    ``lru_cache``), registered to be emptied by :func:`forget_memoised_names` and
    kept by :func:`save_name_memos`; ``.memo`` is its :class:`NameMemo`.

    >>> @name_memo
    ... def shout(name):
    ...     return name.upper()
    >>> shout("bert"), shout("bert"), shout.memo.computed
    ('BERT', 'BERT', 1)
    >>> NAME_MEMOS.remove(shout.memo)
    """
    memo = NameMemo(function)
    cached = functools.lru_cache(maxsize=None)(memo.answer)
    functools.update_wrapper(cached, function)  # its name, doc and module: pickled by name
    cached.memo = memo
    memo.cached = cached
    NAME_MEMOS.append(memo)
    return cached


def forget_memoised_names() -> None:
    """Empty every :func:`name_memo`.

    Each keeps every surface form of the corpus with its result, which would
    otherwise stay in memory for the rest of the build, through its peak, the
    graph. Only speed depends on them.
    """
    global _recording, _recorded
    _recording, _recorded = False, 0
    for memo in NAME_MEMOS:
        memo.clear()


def code_identity(extract: Path | None = None) -> str:
    """A hash of the extract/ code and word lists (models aside), of records.py
    beside it, and of Python's version: what a memoised name function's answer
    may depend on. ``extract``: that folder (default: this package's)."""
    from ... import __version__

    extract = Path(__file__).resolve().parents[1] if extract is None else Path(extract)
    digest = hashlib.sha256(f"paperkg {__version__} python {sys.version}".encode())
    digest.update((extract.parent / "records.py").read_bytes())
    for path in sorted(extract.rglob("*")):
        parts = path.relative_to(extract).parts
        if "models" in parts or "__pycache__" in parts or path.suffix == ".pyc":
            continue
        if path.is_file():
            digest.update(str(path.relative_to(extract)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


#: the code this process runs, hashed as it is imported: files edited during a long
#: build (a ``git pull`` in an editable install) do not name answers of the old code
CODE_IDENTITY = code_identity()

#: corpora whose name answers are kept per code version, the most recently built
KEEP_CORPORA = 8


def _memo_file(folder: str | Path, inputs: list[str]) -> Path:
    corpus = hashlib.sha256("\n".join(sorted(inputs)).encode()).hexdigest()[:24]
    return Path(folder) / "names" / CODE_IDENTITY / f"{corpus}.json"


def _encoded(answers: dict[tuple, Any]) -> dict[str, list]:
    """A memo's answers as columns, which JSON reads back fastest: each argument's
    values in order, then the answers."""
    return {"args": [list(column) for column in zip(*answers, strict=True)],
            "answers": list(answers.values())}  # fmt: skip


def _decoded(columns: dict[str, list]) -> dict[tuple, Any]:
    """:func:`_encoded`'s columns as answers again (JSON's lists back to tuples)."""
    answers = columns["answers"]
    if any(type(a) is list for a in answers):
        answers = [tuple(a) if type(a) is list else a for a in answers]
    keys = list(zip(*columns["args"], strict=True))
    if len(keys) != len(answers):
        raise ValueError(f"{len(keys)} arguments for {len(answers)} answers")
    return dict(zip(keys, answers, strict=True))


def load_name_memos(folder: str | Path, inputs: list[str]) -> int:
    """Give each memo the answers the last build of the input files ``inputs`` (their
    absolute paths) with this cache ``folder`` saved, and have the memos note
    what they answer from now on, for :func:`save_name_memos`.

    Returns how many answers were loaded; a missing or unreadable file is 0 (a
    slower build, nothing else).
    """
    global _recording, _recorded
    _recording, _recorded = True, 0
    path = _memo_file(folder, inputs)
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))["memos"]
        if not isinstance(saved, dict):
            raise TypeError(f"memos of {type(saved).__name__}, not of a dict")
        memos = {memo.key: _decoded(saved[memo.key]) for memo in NAME_MEMOS if memo.key in saved}
    except FileNotFoundError:
        return 0
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError) as e:
        log.warning("name memos: ignoring %s (%s)", path, e)
        return 0
    for memo in NAME_MEMOS:
        memo.earlier = memos.get(memo.key, {})
    return sum(len(answers) for answers in memos.values())


def save_name_memos(folder: str | Path, inputs: list[str]) -> bool:
    """Keep the answers this build asked for, for the next build of ``inputs`` with
    this cache ``folder``. Returns whether a file was written: not when every
    answer came from the file (a rebuild of the same corpus), even if some in it
    were not asked for (a name looked up inside another memoised function, whose
    own answer came from the file): they go at the next rewrite; nor when it
    asked for more than :data:`MAX_NOTED_ANSWERS` (then the corpus's file goes:
    it has outgrown it). Files of other code versions,
    and of all but the :data:`KEEP_CORPORA` corpora built last, are removed."""
    path = _memo_file(folder, inputs)
    if _recorded > MAX_NOTED_ANSWERS:
        # this corpus has outgrown the budget: an older, smaller file of it would be
        # loaded by every rebuild and never rewritten
        path.unlink(missing_ok=True)
        return False
    if not any(memo.computed for memo in NAME_MEMOS):
        with contextlib.suppress(OSError):
            os.utime(path)  # used again: one of the corpora built last
        return False
    memos = {m.key: _encoded(m.answers) for m in NAME_MEMOS if m.answers}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_leftovers(path.parent)  # a killed build's temporary file
        with atomic_open(path) as f:
            json.dump({"memos": memos}, f, ensure_ascii=False, separators=(",", ":"))
        _forget_old(path)
    except OSError as e:
        log.warning("name memos: cannot write %s (%s)", path, e)
        return False
    return True


def _forget_old(kept: Path) -> None:
    """Remove other code versions' folders and all but the newest corpora's files."""
    import shutil

    for other in kept.parent.parent.iterdir():
        if other.is_dir() and other != kept.parent:
            shutil.rmtree(other, ignore_errors=True)
    files = sorted(kept.parent.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in files[KEEP_CORPORA:]:
        if old != kept:
            old.unlink(missing_ok=True)
