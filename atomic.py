"""Files and folders written whole: a killed run leaves the old one or the new one.

Each is written under a temporary name beside its target (``.NAME.<random>.tmp``)
and renamed over it; a run killed before the rename may leave that temporary.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import IO


@contextlib.contextmanager
def atomic_open(path: str | Path, mode: str = "w", **kwargs) -> Iterator[IO]:
    """Open a temporary file beside ``path``; on success it replaces ``path`` at once,
    and if the block raises, ``path`` is untouched."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if "b" not in mode:
        kwargs.setdefault("encoding", "utf-8")
        kwargs.setdefault("newline", "")
    tmp = _beside(path)
    try:
        with open(tmp, mode.replace("w", "x"), **kwargs) as f:  # x: a new file, umask's mode
            yield f
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def atomic_directory(path: str | Path) -> Iterator[Path]:
    """A temporary folder beside ``path`` to fill; on success it takes ``path``'s place,
    and if the block raises, ``path`` is untouched. The old folder is renamed aside
    before the new one is renamed in: a run killed between the two leaves no ``path``
    (a build's outputs switch at once: :mod:`paperkg.output_switch`).
    """
    path = Path(path)
    tmp, old = _beside(path), _beside(path)
    tmp.mkdir(parents=True)
    try:
        yield tmp
        with contextlib.suppress(FileNotFoundError):
            os.replace(path, old)
        os.replace(tmp, path)
    finally:
        remove(tmp)
        remove(old)


def remove(path: Path) -> None:
    """Remove ``path``, a file, a link or a folder, if it is there."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    elif os.path.lexists(path):
        path.unlink()


def _beside(path: Path) -> Path:
    return path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
