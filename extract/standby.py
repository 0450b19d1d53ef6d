"""An extraction worker that loads the pipeline while a build reads its inputs.

Why: a rebuild after adding a few papers to a cached corpus spent more time
starting the pipeline (importing spaCy, loading the model: 1.5-2.5 s here) than
extracting the new papers, and only learnt it had papers to extract once it had
read every input and looked each up in the cache. With a second core, a
:class:`StandbyExtractor` started first does that loading on it meanwhile; the
build hands it the papers the cache lacks, or stops it when there are none.

The worker is forked, early in the build while this process holds little, so
it needs no ``if __name__ == "__main__"`` guard in a user's script (a spawned
one would run the script again). Where fork is missing (Windows, macOS) there
is no standby: the papers are extracted as before.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..processes import become_forked_child, fork_available
from .workers import extract_chunk, load_worker

if TYPE_CHECKING:
    from ..records import Paper, PaperMentions

#: papers sent to the worker at a time, each answered before the next (progress)
CHUNK = 64


def _serve(connection, parent: int, model: str | None) -> None:
    """The worker: load the pipeline, then extract each list of papers it is sent."""
    become_forked_child(parent)
    try:
        load_worker(model)
        failed = None
    except Exception as error:  # noqa: BLE001 - reported when papers are asked for
        failed = error
    while True:
        try:
            papers = connection.recv()
        except EOFError:  # the build ended (or was killed) without a word
            return
        if papers is None:
            return
        if failed is not None:
            connection.send((False, failed))
            continue
        try:
            connection.send((True, extract_chunk(papers)))
        except Exception as error:  # noqa: BLE001 - the build raises it
            connection.send((False, error))


class StandbyLost(RuntimeError):
    """The standby worker died before answering: the build extracts without it."""


class StandbyExtractor:
    """One spawned worker loading the pipeline ``model`` (a name, a folder, or None
    for the default) from the moment it is created.

    :meth:`extract` gives the same results as
    :func:`~paperkg.extract.extractor.extract_mentions` in this process (the worker
    runs it, over at most :data:`CHUNK` papers at a time); if the worker has died,
    it raises :class:`StandbyLost`. :meth:`close` stops the worker, also in the
    middle of loading; use it as a context manager.
    """

    available = staticmethod(fork_available)

    def __init__(self, model: str | None) -> None:
        context = multiprocessing.get_context("fork")
        self._connection, child = context.Pipe()
        self._process = context.Process(
            target=_serve,
            args=(child, os.getpid(), model),
            name="paperkg standby extractor",
            daemon=True,
        )
        self._process.start()
        child.close()

    def extract(
        self, papers: list[Paper], on_paper: Callable[[Paper], None] | None = None
    ) -> list[PaperMentions]:
        """The mentions of ``papers`` in order, extracted by the worker."""
        results: list[PaperMentions] = []
        for start in range(0, len(papers), CHUNK):
            chunk = papers[start : start + CHUNK]
            try:
                self._connection.send(chunk)
                ok, answer = self._connection.recv()
            except (OSError, EOFError) as error:  # it died: killed, out of memory
                raise StandbyLost(f"the standby extractor stopped ({error!r})") from error
            if not ok:
                raise answer
            results.extend(answer)
            if on_paper is not None:
                for paper in chunk:
                    on_paper(paper)
        return results

    def close(self) -> None:
        """Stop the worker now, loaded or not."""
        if self._process.is_alive():
            self._process.kill()
        self._process.join()
        self._connection.close()

    def __enter__(self) -> StandbyExtractor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
