"""What an extraction worker process runs: load the pipeline once, extract chunks.

Kept apart from :mod:`.extractor`, which imports spaCy: a spawned worker imports
this module to find its initialiser, and spaCy must be imported only after
:func:`~.spacy_import.import_spacy_for` has decided whether PyTorch comes with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.language import Language

    from ..records import Paper, PaperMentions

_worker_nlp: Language | None = None


def load_worker(model: str | None) -> None:
    """Process initialiser: load the pipeline once per worker."""
    global _worker_nlp
    from .spacy_import import import_spacy_for, own_this_process

    own_this_process()  # a process paperkg started, for this alone
    import_spacy_for(model)
    from .pipeline import load_pipeline

    _worker_nlp = load_pipeline(model)


def extract_chunk(papers: list[Paper]) -> list[PaperMentions]:
    """The mentions of ``papers``, with the pipeline :func:`load_worker` loaded."""
    from .extractor import extract_mentions

    assert _worker_nlp is not None, "load_worker runs first, as the pool's initializer"
    return extract_mentions(_worker_nlp, papers)
