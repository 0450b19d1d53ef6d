"""What an extraction worker process runs: load the pipeline once, extract chunks.

Kept apart from :mod:`.extractor` (which starts the workers) and :mod:`.mentions`, which import spaCy: a spawned worker imports
this module to find its initialiser, and spaCy must be imported only after
:func:`~.spacy_import.import_spacy_for` has decided whether PyTorch comes with it.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from multiprocessing.connection import wait
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.language import Language

    from ...records import Paper, PaperMentions

_worker_nlp: Language | None = None


def end_with_parent() -> None:
    """End this worker process as soon as the process that started it ends.

    A worker waits for chunks on a queue whose other end it holds itself, so a
    build killed with SIGKILL (by a user, a scheduler or the out-of-memory killer)
    would leave it running. ``parent_process().sentinel`` is the read end of a pipe
    only the parent writes to: it becomes readable when the parent dies, however it
    died, on Linux and on macOS. A daemon thread waits on it and ends the process.
    The multiprocessing resource tracker ends by itself once its last user is gone.
    """
    parent = multiprocessing.parent_process()
    if parent is None:  # not started by multiprocessing: nobody to outlive
        return

    def wait_for_parent() -> None:
        wait([parent.sentinel])
        os._exit(1)  # no clean-up to run: the results have nobody to go to

    threading.Thread(target=wait_for_parent, name="end-with-parent", daemon=True).start()


def load_worker(model: str | None) -> None:
    """Process initialiser: end with the build (:func:`end_with_parent`), load the
    pipeline once."""
    global _worker_nlp
    end_with_parent()
    from .spacy_import import import_spacy_for, own_this_process

    own_this_process()  # a process paperkg started, for this alone
    import_spacy_for(model)
    from .pipeline import load_pipeline

    _worker_nlp = load_pipeline(model)


def extract_chunk(papers: list[Paper]) -> list[PaperMentions]:
    """The mentions of ``papers``, with the pipeline :func:`load_worker` loaded."""
    from .mentions import extract_here

    assert _worker_nlp is not None, "load_worker runs first, as the pool's initializer"
    return extract_here(_worker_nlp, papers)
