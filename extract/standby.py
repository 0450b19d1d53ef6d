"""An extraction worker that loads the pipeline while a build reads its inputs.

Why: a rebuild after adding a few papers to a cached corpus spent more time
starting the pipeline (importing spaCy, loading the model: 1.5-2.5 s here) than
extracting the new papers, and only learnt it had papers to extract once it had
read every input and looked each up in the cache. With a second core, a
:class:`StandbyExtractor` started first does that loading on it meanwhile; the
build hands it the papers the cache lacks, or stops it when there are none.

The build waits for those papers doing nothing, so the worker shares them with
a copy of itself forked once the pipeline is loaded (:func:`extract_on_two_cores`):
both cores extract them.

The worker is forked, early in the build while this process holds little, so
it needs no ``if __name__ == "__main__"`` guard in a user's script (a spawned
one would run the script again). Where fork is missing (Windows, macOS) there
is no standby: the papers are extracted as before.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn

from ..processes import available_cores, become_forked_child, fork_available
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
            connection.send((True, extract_on_two_cores(papers)))
        except Exception as error:  # noqa: BLE001 - the build raises it
            connection.send((False, error))


#: fewest papers :func:`extract_on_two_cores` shares with a helper (a fork and a
#: pickled answer cost a few milliseconds; a paper tens)
SHARE_MIN = 4


def extract_on_two_cores(papers: list[Paper]) -> list[PaperMentions]:
    """The mentions of ``papers`` (as :func:`~.workers.extract_chunk`), the second half
    extracted by a forked copy of this loaded worker.

    Why: the build that sent the papers waits for them doing nothing, so its core
    is free, and a copy forked from a loaded pipeline starts at once. Results are
    the same: each paper is extracted on its own. Not with PyTorch loaded (its
    thread pools do not survive a fork), nor on one core; if the helper cannot
    start or dies, this process extracts its half too.
    """
    if len(papers) < SHARE_MIN or not _forks_safely() or available_cores() < 2:
        return extract_chunk(papers)
    half = (len(papers) + 1) // 2
    receiver, sender = multiprocessing.Pipe(duplex=False)
    try:
        helper = os.fork()  # not a multiprocessing.Process: this worker is a daemon
    except OSError:  # out of memory for a fork: one process, as before
        receiver.close()
        sender.close()
        return extract_chunk(papers)
    if helper == 0:
        receiver.close()
        _extract_into(sender, papers[half:])  # never returns
    sender.close()
    try:
        first = extract_chunk(papers[:half])
        try:
            ok, second = receiver.recv()
        except (EOFError, OSError):  # the helper died (killed, out of memory)
            ok, second = True, extract_chunk(papers[half:])
        if not ok:
            raise second
        return first + second
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(helper, signal.SIGKILL)  # done already, or not needed any more
        os.waitpid(helper, 0)
        receiver.close()


def _forks_safely() -> bool:
    """Whether a fork of this worker can extract: not once PyTorch is imported (a
    worker imports it only for a pipeline that runs on it)."""
    return "torch" not in sys.modules


def _extract_into(connection, papers: list[Paper]) -> NoReturn:
    """The helper of :func:`extract_on_two_cores`: extract, answer, exit."""
    status = 1
    try:
        become_forked_child(os.getppid())
        try:
            answer = (True, extract_chunk(papers))
        except Exception as error:  # noqa: BLE001 - the worker raises it
            answer = (False, error)
        connection.send(answer)
        connection.close()
        status = 0
    finally:
        os._exit(status)


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
        return self.submit(papers)(on_paper)

    def submit(
        self, papers: list[Paper]
    ) -> Callable[[Callable[[Paper], None] | None], list[PaperMentions]]:
        """Hand ``papers`` to the worker now; returns the call that waits for their
        mentions (as :meth:`extract`, which takes ``on_paper``).

        Why: a rebuild knows which papers its cache lacks before it has read the
        entries it has; the worker extracts the new papers while it reads them.
        The first chunk is sent from a thread: a pipe holds 64 KB, and a worker
        still loading its pipeline reads nothing yet.
        """
        chunks = [papers[start : start + CHUNK] for start in range(0, len(papers), CHUNK)]
        errors: list[BaseException] = []

        def send_first() -> None:
            try:
                self._connection.send(chunks[0])
            except (OSError, ValueError) as error:  # it died, or was closed
                errors.append(error)

        sender = threading.Thread(target=send_first, name="paperkg standby send", daemon=True)
        if chunks:
            sender.start()

        def results(on_paper: Callable[[Paper], None] | None = None) -> list[PaperMentions]:
            found: list[PaperMentions] = []
            for number, chunk in enumerate(chunks):
                try:
                    if number == 0:
                        sender.join()
                        if errors:
                            raise errors[0]
                    else:
                        self._connection.send(chunk)
                    ok, answer = self._connection.recv()
                except (OSError, EOFError, ValueError) as error:  # died: killed, out of memory
                    raise StandbyLost(f"the standby extractor stopped ({error!r})") from error
                if not ok:
                    raise answer
                found.extend(answer)
                if on_paper is not None:
                    for paper in chunk:
                        on_paper(paper)
            return found

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
