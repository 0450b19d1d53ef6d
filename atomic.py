"""Write files so that a crash or a bad record never leaves one half-written."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO


def _umask() -> int:
    """This process's umask, read without setting it where the system can tell
    (Linux 4.7+): setting it to read it back, even for an instant, gives another
    thread's new files the wrong mode (a build in a thread of a web server)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
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
    path: str | Path,
    *,
    carry_over: Callable[[str], bool] | None = None,
    previous: str | Path | None = None,
) -> Iterator[Path]:
    """A temporary folder beside ``path`` to fill; on success it takes ``path``'s place.

    A folder of files that belong together (the Neo4j bundle's CSVs and script)
    is either the old one or the new one, never a mix. If the block raises, the
    temporary folder is removed and ``path`` is untouched. Files of the old folder
    whose name ``carry_over`` accepts (a user's own notes) are copied into the new
    one; ``previous`` names that old folder when it is not ``path`` (a build that
    writes a new set of outputs elsewhere). Between the two renames of the swap (microseconds) ``path`` is
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
        old_folder = Path(previous) if previous is not None else path
        if carry_over is not None and old_folder.is_dir():
            for old in old_folder.iterdir():
                if old.is_file() and carry_over(old.name) and not (tmp / old.name).exists():
                    shutil.copy2(old, tmp / old.name)
        if path.is_dir():
            retired = Path(tempfile.mkdtemp(dir=path.parent, prefix=_prefix(path), suffix=".tmp"))
            os.replace(path, retired / path.name)
            os.replace(tmp, path)
            shutil.rmtree(retired, ignore_errors=True)
        else:
            os.replace(tmp, path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


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
