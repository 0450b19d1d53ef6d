"""Write files so that a crash or a bad record never leaves one half-written."""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import secrets
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_open(path: str | Path, mode: str = "w", **kwargs) -> Iterator[IO]:
    """Open a temporary file beside ``path``; on success it replaces ``path`` at once.

    If the block raises, the temporary file is removed and any earlier ``path`` is
    left untouched.

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> with atomic_open(target) as f:
    ...     _ = f.write("done")
    >>> target.read_text()
    'done'
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if "b" not in mode:
        kwargs.setdefault("encoding", "utf-8")
        kwargs.setdefault("newline", "")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=_prefix(path), suffix=".tmp")
    try:
        with os.fdopen(fd, mode, **kwargs) as f:
            yield f
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual mode
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _prefix(path: Path) -> str:
    """Temporaries are named ``.NAME.PID.random.tmp``: whose they are, so a later
    run can tell a killed run's leftovers (:func:`remove_leftovers`) from a live one's."""
    return f".{path.name}.{os.getpid()}."


@contextlib.contextmanager
def atomic_directory(
    path: str | Path, *, carry_over: Callable[[str], bool] | None = None
) -> Iterator[Path]:
    """A temporary folder beside ``path`` to fill; on success it takes ``path``'s place.

    A folder of files that belong together (the Neo4j bundle's CSVs and script)
    is either the old one or the new one, never a mix. If the block raises, the
    temporary folder is removed and ``path`` is untouched. Files of the old folder
    whose name ``carry_over`` accepts (a user's own notes) are copied into the new
    one. Between the two renames of the swap (microseconds) ``path`` is
    briefly absent; a run killed right there leaves the old folder as a leftover,
    which :func:`remove_leftovers` clears.

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "bundle"
    >>> with atomic_directory(target) as folder:
    ...     _ = (folder / "a.csv").write_text("x")
    >>> sorted(p.name for p in target.iterdir())
    ['a.csv']
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=path.parent, prefix=_prefix(path), suffix=".tmp"))
    try:
        yield tmp
        os.chmod(tmp, 0o777 & ~_umask())
        if path.is_dir():
            if carry_over is not None:
                for old in path.iterdir():
                    if old.is_file() and carry_over(old.name) and not (tmp / old.name).exists():
                        shutil.copy2(old, tmp / old.name)
            retired = Path(tempfile.mkdtemp(dir=path.parent, prefix=_prefix(path), suffix=".tmp"))
            os.replace(path, retired / path.name)
            os.replace(tmp, path)
            shutil.rmtree(retired, ignore_errors=True)
        else:
            os.replace(tmp, path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


#: The folder inside an output folder that holds whole builds' outputs. The
#: outputs' names in the output folder are links into its ``current`` build.
BUILDS = ".paperkg-builds"


@contextlib.contextmanager
def staged_folder(outdir: str | Path) -> Iterator[Path]:
    """A folder to write a set of outputs into; on success they replace ``outdir``'s
    outputs in one atomic switch.

    Outputs that belong together (graph.json and the Neo4j bundle of the same graph)
    must never be seen one of this build and one of the last, whatever moment a
    build is killed at, and no pass of renames is atomic. So each output's name in
    ``outdir`` (``graph.json``, ``neo4j``, …) is a relative symbolic link into
    ``outdir/.paperkg-builds/current/``, and ``current`` is a link to the folder of
    the last whole build: the yielded folder becomes that build by one rename of
    ``current``. Whoever opens an output resolves ``current`` once, so sees all of
    one build. Older builds' folders are removed afterwards (those of builds still
    running stay). Real files an earlier version wrote are first adopted into a
    build folder of their own (hard links, not copies) and replaced by links.

    Where links cannot be made (Windows without developer mode, some network file
    systems) the outputs are moved into ``outdir`` in one quick pass of renames
    instead, which a kill can land in. If the block raises, ``outdir`` is untouched.
    """
    outdir = Path(outdir)
    builds = outdir / BUILDS
    builds.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(dir=builds, prefix=f"build.{os.getpid()}."))
    try:
        yield folder
        os.chmod(folder, 0o777 & ~_umask())  # mkdtemp makes 0700; give the usual mode
        names = sorted(entry.name for entry in folder.iterdir())
        switched = _switch_to(folder, outdir, names)
        if not switched:
            _rename_pass(folder, outdir)
    finally:
        if _current_build(builds) != folder.name:
            shutil.rmtree(folder, ignore_errors=True)  # failed, or moved by the rename pass
    _remove_old_builds(builds)
    if not switched:
        with contextlib.suppress(OSError):
            builds.rmdir()  # empty: no build of this folder has links


def _switch_to(folder: Path, outdir: Path, names: list[str]) -> bool:
    """Make ``folder`` the current build of ``outdir``; False where links cannot be made."""
    builds = folder.parent
    try:
        switch = _link_beside(builds / "current", folder.name)
    except (OSError, NotImplementedError):
        return False
    try:
        adopted = _adopt_real_outputs(outdir, names) if _current_build(builds) is None else []
        for name in names:
            entry = outdir / name
            if name not in adopted and not entry.is_symlink() and entry.exists():
                continue  # a real output beside an existing current build: replaced below
            _point(entry, f"{BUILDS}/current/{name}")  # before the switch: absent or last build's
        os.replace(switch, builds / "current")  # the switch
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(switch)
        raise
    for name in names:
        _point(outdir / name, f"{BUILDS}/current/{name}")
    for entry in outdir.iterdir():  # links to what this build did not write (--no-html)
        if entry.is_symlink() and _ours(entry) and not entry.exists():
            with contextlib.suppress(FileNotFoundError):
                entry.unlink()
    return True


def _link_beside(path: Path, target: str, folder: Path | None = None) -> Path:
    """A new symbolic link to ``target``, named as a temporary of ``path`` in ``folder``
    (by default beside ``path``), to be renamed over ``path``."""
    link = (folder or path.parent) / f"{_prefix(path)}{secrets.token_hex(4)}.tmp"
    os.symlink(target, link)
    return link


def _point(entry: Path, target: str) -> None:
    """Make ``entry`` a link to ``target`` (at once, if it is a file or a link).

    The new link is made in the builds' folder and renamed into place, so a kill
    leaves no temporary among the user's files."""
    if entry.is_symlink() and os.readlink(entry) == target:
        return
    link = _link_beside(entry, target, entry.parent / BUILDS)
    try:
        if entry.is_dir() and not entry.is_symlink():  # a real folder cannot be renamed over
            if _exchange(link, entry):  # at once, where the system can
                shutil.rmtree(link, ignore_errors=True)  # now the folder
                return
            aside = entry.parent / BUILDS / f"{_prefix(entry)}{secrets.token_hex(4)}.tmp"
            os.replace(entry, aside)  # absent until the next rename: a kill here leaves
            os.replace(link, entry)  # no neo4j/, never another build's
            shutil.rmtree(aside, ignore_errors=True)
        else:
            os.replace(link, entry)
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
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):  # not glibc 2.28+
        return False
    at_fdcwd, rename_exchange = -100, 2
    return (
        renameat2(at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second), rename_exchange) == 0
    )


def _adopt_real_outputs(outdir: Path, names: list[str]) -> list[str]:
    """Make the real outputs an earlier version wrote the current build, so that
    replacing them by links shows the same files until the switch; their names."""
    real = [outdir / name for name in names if (outdir / name).exists()]
    real = [entry for entry in real if not entry.is_symlink()]
    if not real:
        return []
    builds = outdir / BUILDS
    adopted = Path(tempfile.mkdtemp(dir=builds, prefix=f"build.{os.getpid()}."))
    os.chmod(adopted, 0o777 & ~_umask())
    for entry in real:
        if entry.is_dir():
            shutil.copytree(entry, adopted / entry.name, copy_function=_link_or_copy)
        else:
            _link_or_copy(entry, adopted / entry.name)
    os.replace(_link_beside(builds / "current", adopted.name), builds / "current")
    return [entry.name for entry in real]


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


def _ours(entry: Path) -> bool:
    return os.readlink(entry).startswith(f"{BUILDS}/current/")


_BUILD = re.compile(r"^build\.(?P<pid>\d+)\.")


def _remove_old_builds(builds: Path) -> None:
    """Remove the folders of builds that are neither current nor still running, and
    the temporary links of killed builds."""
    remove_leftovers(builds)
    current = _current_build(builds)
    for entry in builds.iterdir():
        match = _BUILD.match(entry.name)
        if match is None or entry.name == current or entry.is_symlink():
            continue
        pid = int(match["pid"])
        if pid == os.getpid() or not _alive(pid):
            shutil.rmtree(entry, ignore_errors=True)


def _rename_pass(folder: Path, outdir: Path) -> None:
    """Move each entry of ``folder`` into ``outdir``: all of one build or all of the
    last, unless a kill lands in these renames (microseconds for a handful)."""
    retired = None
    for entry in sorted(folder.iterdir()):
        target = outdir / entry.name
        if entry.is_dir() and target.is_dir() and not target.is_symlink():
            if retired is None:
                retired = Path(
                    tempfile.mkdtemp(dir=outdir, prefix=_prefix(outdir / "old"), suffix=".tmp")
                )
            os.replace(target, retired / entry.name)
        os.replace(entry, target)
    if retired is not None:
        shutil.rmtree(retired, ignore_errors=True)


_LEFTOVER = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[^.]+\.tmp$")


def remove_leftovers(folder: str | Path) -> list[Path]:
    """Remove the temporaries a killed run left in ``folder`` (those of live runs stay).

    Returns what was removed.
    """
    removed = []
    folder = Path(folder)
    if not folder.is_dir():
        return removed
    for entry in folder.iterdir():
        match = _LEFTOVER.match(entry.name)
        if match is None or _alive(int(match["pid"])):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            with contextlib.suppress(FileNotFoundError):
                entry.unlink()
        removed.append(entry)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True
