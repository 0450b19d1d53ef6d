"""A build's outputs replace the last build's in one atomic switch.

Outputs that belong together (graph.json and the Neo4j bundle of the same graph)
must never be seen one of this build and one of the last, whatever moment a build
is killed at, and no pass of renames over several files is atomic. So each
output's name in the output folder (``graph.json``, ``neo4j``, …) is a relative
symbolic link into ``OUT/.paperkg-builds/current/``, and ``current`` is a link to
the folder of the last whole build. A build writes a new folder beside it and
then replaces ``current`` by one rename. Opening an output resolves ``current``
then, so each file is whole and of one build; a reader that must see several
files of one build while builds may run resolves ``current`` once
(``os.path.realpath``) and reads from there.

Builds that run at once each write their own folder; the switch and the removal
of old folders happen under a lock on ``.paperkg-builds/.lock``, and a build holds
a lock on its own folder while it lives, so no build removes a folder another is
still writing or has just made current. The kernel drops a killed build's locks,
so its folder is removed by the next build.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import secrets
import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from .atomic import _prefix, _umask, remove_leftovers

try:
    import fcntl
except ImportError:  # Windows: outputs are moved in by a pass of renames
    fcntl = None

log = logging.getLogger(__name__)

#: The folder inside an output folder that holds whole builds' outputs. The
#: outputs' names in the output folder are links into its ``current`` build.
BUILDS = ".paperkg-builds"

_BUILD_PREFIX = "build."


@contextlib.contextmanager
def staged_folder(outdir: str | Path, known: Iterable[str] = ()) -> Iterator[Path]:
    """A folder to write a set of outputs into; on success they replace ``outdir``'s
    outputs in one atomic switch (see the module's docstring).

    ``known``: every name the caller's outputs may have. Real files of those names
    (an earlier version's outputs, a ``cp -rL`` copy) are first adopted into a
    build folder of their own (hard links, not copies) and replaced by links
    showing the same; a name this build does not write is then absent, not left
    over from another build. Where links or locks cannot be made (Windows, some
    network file systems) the outputs are moved into ``outdir`` by one quick pass
    of renames instead, which a kill can land in. If the block raises, ``outdir``
    is untouched (a fresh one keeps an empty ``.paperkg-builds/.lock``).
    """
    outdir = Path(outdir)
    builds = outdir / BUILDS
    builds.mkdir(parents=True, exist_ok=True)
    with _locked(builds) as locks:
        folder = Path(tempfile.mkdtemp(dir=builds, prefix=_BUILD_PREFIX))
        claim = _claim(folder) if locks else None  # under the lock: no build sees it unclaimed
    switched = False
    doomed: list[Path] = []
    try:
        yield folder
        os.chmod(folder, 0o777 & ~_umask())  # mkdtemp makes 0700; give the usual mode
        names = sorted(entry.name for entry in folder.iterdir())
        if claim is not None:
            switched, doomed = _switch_to(folder, outdir, names, set(known), claim)
            claim = None  # released by the switch
        if not switched:
            _rename_pass(folder, outdir)
    finally:
        if claim is not None:
            _close_lock(claim)
        if not switched:
            shutil.rmtree(folder, ignore_errors=True)  # failed, or moved by the rename pass
            with contextlib.suppress(OSError):
                builds.rmdir()  # empty: no build of this folder has links
    for old in doomed:  # outside the lock: a large bundle takes a while
        shutil.rmtree(old, ignore_errors=True)


#: lock descriptors this process holds: a child forked meanwhile closes its copies,
#: or it would hold the lock (and every build would wait) as long as it lives
_held: set[int] = set()


def _close_inherited_locks() -> None:
    for fd in _held:
        with contextlib.suppress(OSError):
            os.close(fd)
    _held.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_inherited_locks)


def _open_lock(path: Path, flags: int) -> int:
    fd = os.open(path, flags, 0o666 & ~_umask())
    _held.add(fd)
    return fd


def _close_lock(fd: int) -> None:
    _held.discard(fd)
    os.close(fd)


@contextlib.contextmanager
def _locked(builds: Path) -> Iterator[bool]:
    """Hold the builds' lock (one build switches or tidies at a time); whether this
    platform and file system have such locks."""
    if fcntl is None:
        yield False
        return
    try:
        fd = _open_lock(builds / ".lock", os.O_RDWR | os.O_CREAT)
    except OSError:
        yield False
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:  # a file system without locks
            yield False
            return
        yield True
    finally:
        _close_lock(fd)  # and the lock with it


def _claim(folder: Path) -> int | None:
    """An open descriptor holding ``folder``'s lock while this build lives, or None."""
    try:
        fd = _open_lock(folder, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        _close_lock(fd)
        return None
    return fd


def _claimed(folder: Path) -> bool:
    """Whether a live build holds ``folder``'s lock (see :func:`_claim`), or it
    cannot be told (then the folder is kept)."""
    fd = _claim(folder)
    if fd is None:
        return folder.exists()
    _close_lock(fd)
    return False


def _switch_to(
    folder: Path, outdir: Path, names: list[str], known: set[str], claim: int
) -> tuple[bool, list[Path]]:
    """Make ``folder`` the current build of ``outdir``, and release its ``claim``.
    Returns whether it did (not where links cannot be made) and the old builds'
    folders, moved aside, to remove."""
    builds = folder.parent
    try:
        with _locked(builds) as locks:
            if not locks:
                return False, []
            try:
                switch = _link_beside(builds / "current", folder.name)
            except (OSError, NotImplementedError):
                return False, []
            try:
                adopted = _adopt_real_outputs(outdir, {*names, *known})
                for name in sorted({*names, *adopted}):  # absent, or as shown until the switch
                    _point(outdir / name, f"{BUILDS}/current/{name}")
                os.replace(switch, builds / "current")  # the switch
            except BaseException:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(switch)
                raise
            _close_lock(claim)  # current now: no build removes it (and none sees it claimed)
            claim = None
            try:  # the switch is done: tidying that fails is not the build's failure
                _unlink_absent_outputs(outdir, {*names, *known})
                remove_leftovers(builds)  # temporaries of killed builds
                return True, _set_aside_old_builds(builds)
            except OSError as error:
                log.warning("could not remove the last build's outputs from %s: %s", builds, error)
                return True, []
    finally:
        if claim is not None:
            _close_lock(claim)


def _link_beside(path: Path, target: str, folder: Path | None = None) -> Path:
    """A new symbolic link to ``target``, named as a temporary of ``path`` in ``folder``
    (by default beside ``path``), to be renamed over ``path``."""
    link = (folder or path.parent) / f"{_prefix(path)}{secrets.token_hex(4)}.tmp"
    os.symlink(target, link)
    return link


def _point(entry: Path, target: str) -> None:
    """Make ``entry`` a link to ``target``, in one step where the system can.

    The new link is made in the builds' folder and renamed into place, so a kill
    leaves no temporary among the user's files."""
    if entry.is_symlink() and os.readlink(entry) == target:
        return
    _replace_with(_link_beside(entry, target, entry.parent / BUILDS), entry)


def _replace_with(link: Path, entry: Path) -> None:
    """Rename ``link`` over ``entry``: at once for a file or a link, and for a real
    folder by exchanging the two where the system can (then removing the folder)."""
    try:
        if not (entry.is_dir() and not entry.is_symlink()):
            os.replace(link, entry)
        elif _exchange(link, entry):
            shutil.rmtree(link, ignore_errors=True)  # now the folder
        else:  # a real folder cannot be renamed over
            aside = link.parent / f"{_prefix(entry)}{secrets.token_hex(4)}.tmp"
            os.replace(entry, aside)  # absent until the next rename: a kill here leaves
            os.replace(link, entry)  # it absent (once, adopting an earlier version's)
            shutil.rmtree(aside, ignore_errors=True)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(link)
        raise


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths in one step (Linux's ``renameat2`` with ``RENAME_EXCHANGE``);
    False where the system or the file system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):  # not glibc 2.28+
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p]
    renameat2.argtypes += [ctypes.c_uint]
    renameat2.restype = ctypes.c_int
    at_fdcwd, rename_exchange = -100, 2
    done = renameat2(at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second), rename_exchange)
    if done != 0:
        log.debug("renameat2 exchange failed: %s", os.strerror(ctypes.get_errno()))
    return done == 0


def _adopt_real_outputs(outdir: Path, names: set[str]) -> list[str]:
    """Make a current build that shows what ``outdir`` shows now, when some of it is
    real files (an earlier version's outputs, a copy made with ``cp -rL``), so that
    they can be replaced by links before the switch without anything changing.
    Returns the names adopted: those of ``names`` and of the current build's files
    that are real in ``outdir``."""
    builds = outdir / BUILDS
    current = builds / "current"
    real_current = current.is_dir() and not current.is_symlink()
    if current.is_dir():
        names = names | {entry.name for entry in current.iterdir()}
    real = [outdir / name for name in sorted(names)]
    real = [entry for entry in real if entry.exists() and not entry.is_symlink()]
    if not real and not real_current:
        return []
    adopted = Path(tempfile.mkdtemp(dir=builds, prefix=_BUILD_PREFIX))
    os.chmod(adopted, 0o777 & ~_umask())
    for entry in real:
        _link_or_copy_tree(entry, adopted / entry.name)
    if current.is_dir():  # the current build's other outputs
        for entry in current.iterdir():
            if not (adopted / entry.name).exists():
                _link_or_copy_tree(entry, adopted / entry.name)
    _replace_with(_link_beside(current, adopted.name), current)
    return [entry.name for entry in real]


def _link_or_copy_tree(source: Path, target: Path) -> None:
    if source.is_dir():
        shutil.copytree(source, target, copy_function=_link_or_copy)
    else:
        _link_or_copy(source, target)


def _link_or_copy(source: str | Path, target: str | Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _current_build(builds: Path) -> str | None:
    try:
        return os.readlink(builds / "current")
    except OSError:
        return None


def _unlink_absent_outputs(outdir: Path, names: set[str]) -> None:
    """Remove the links of ``names`` to outputs the current build does not have (a
    build with ``--no-html`` after one with it); a user's own links stay."""
    for name in sorted(names):
        entry = outdir / name
        if entry.is_symlink() and not entry.exists():
            if os.readlink(entry) == f"{BUILDS}/current/{name}":
                with contextlib.suppress(FileNotFoundError):
                    entry.unlink()


def _set_aside_old_builds(builds: Path) -> list[Path]:
    """Move the folders of builds neither current nor still running aside, under
    names :func:`~paperkg.atomic.remove_leftovers` knows; return them to remove."""
    current = _current_build(builds)
    aside = []
    for entry in builds.iterdir():
        if not entry.name.startswith(_BUILD_PREFIX) or entry.name == current:
            continue
        if entry.is_symlink() or not entry.is_dir() or _claimed(entry):
            continue
        moved = builds / f"{_prefix(entry)}{secrets.token_hex(4)}.tmp"
        os.replace(entry, moved)
        aside.append(moved)
    return aside


def _rename_pass(folder: Path, outdir: Path) -> None:
    """Move each entry of ``folder`` into ``outdir``: all of one build or all of the
    last, unless a kill lands in these renames (microseconds for a handful)."""
    retired = None
    for entry in sorted(folder.iterdir()):
        target = outdir / entry.name
        if target.is_symlink():
            target.unlink()  # a link of a build that could switch: a folder can't replace it
        elif entry.is_dir() and target.is_dir():
            if retired is None:
                retired = Path(
                    tempfile.mkdtemp(dir=outdir, prefix=_prefix(outdir / "old"), suffix=".tmp")
                )
            os.replace(target, retired / entry.name)
        os.replace(entry, target)
    if retired is not None:
        shutil.rmtree(retired, ignore_errors=True)
