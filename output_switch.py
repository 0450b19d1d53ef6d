"""A build's outputs replace the last build's in one rename (POSIX only: Linux, macOS).

``OUT/graph.json`` (like graph.graphml, graph.html and neo4j) is a link to
``OUT/.paperkg-builds/current/graph.json``, and ``current`` a link to the last whole
build's folder. A build writes into a new folder beside it, then replaces ``current``
in one ``os.replace``: killed at any moment, it leaves all of the last build's outputs
or all of its own. It holds ``.paperkg-builds/.lock`` throughout, so a second build
into the same folder is refused (:class:`~paperkg.errors.OutputsBusyError`). Real
files under the output names (an older paperkg's, a ``cp -rL`` copy's) become links
at the first switch, which is therefore not atomic.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import shutil
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from .atomic import remove
from .errors import OutputsBusyError

#: The folder in an output folder that holds the builds, ``current`` and ``.lock``.
BUILDS = ".paperkg-builds"


@contextlib.contextmanager
def staged_folder(
    outdir: str | Path, known: Iterable[str] = (), on_step: Callable[[str], None] | None = None
) -> Iterator[Path]:
    """A new folder to write a build's outputs into, shown in ``outdir`` when the block
    ends. Names in ``known`` it did not write are removed from ``outdir``;
    ``on_step("switching outputs")`` is called just before the switch. If the block
    raises, ``outdir`` is untouched. Raises :class:`OutputsBusyError` while another
    build writes into ``outdir``.
    """
    outdir, builds = Path(outdir), Path(outdir) / BUILDS
    builds.mkdir(parents=True, exist_ok=True)
    with open(builds / ".lock", "a") as lock:  # closing it releases the lock
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutputsBusyError(
                f"another paperkg build is writing into {outdir} (it holds "
                f"{builds / '.lock'}); wait for it to end, or write into another folder"
            ) from None
        folder = builds / f"{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"
        folder.mkdir()
        try:
            yield folder
        except BaseException:
            remove(folder)
            raise
        names = {entry.name for entry in folder.iterdir()}
        links = {name: f"{BUILDS}/current/{name}" for name in names | set(known)}
        for name in sorted(names):  # dangling until the switch, as the name was absent
            if not os.path.lexists(outdir / name):
                os.symlink(links[name], outdir / name)
        remove(builds / "current.new")  # a killed build's
        os.symlink(folder.name, builds / "current.new")
        if on_step is not None:
            on_step("switching outputs")
        if (builds / "current").is_dir() and not (builds / "current").is_symlink():
            shutil.rmtree(builds / "current")  # a cp -rL copy's: its outputs are real files
        os.replace(builds / "current.new", builds / "current")  # the switch
        for name, link in sorted(links.items()):
            entry = outdir / name
            ours = entry.is_symlink() and os.readlink(entry) == link
            if name in names and not ours:  # a real file, or someone else's link
                remove(entry)
                os.symlink(link, entry)
            elif name not in names and (ours or not entry.is_symlink()):
                remove(entry)
        for entry in builds.iterdir():  # the last build, and killed builds' leftovers
            if entry.name not in (".lock", "current", folder.name):
                remove(entry)
