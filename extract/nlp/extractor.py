"""Run the pipeline over papers, in this process or in worker processes.

One process's work is :mod:`.mentions`; :mod:`.workers` is what a worker process
runs. The results are the same either way, in input order.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from spacy.language import Language

from ...records import Paper, PaperMentions
from .mentions import extract_here
from .workers import extract_chunk, load_worker


def default_jobs() -> int:
    """Processes to extract with by default: the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def extract_mentions(
    nlp: Language | str | Path | None,
    papers: Iterable[Paper],
    *,
    batch_size: int = 32,
    on_paper: Callable[[Paper], None] | None = None,
    jobs: int = 1,
) -> list[PaperMentions]:
    """Mentions of every paper, in input order.

    ``nlp`` is a loaded pipeline, or what :func:`~paperkg.extract.nlp.pipeline.load_pipeline`
    takes (a shipped model's name, a folder, ``None`` for the default) when
    ``jobs`` > 1: then ``jobs`` processes each load it once and extract chunks
    of papers; the results are the same as with one process, in the same order.
    ``on_paper`` is called after each paper, e.g. to advance a progress bar.
    """
    papers = list(papers)
    if jobs > 1 and len(papers) > _CHUNK:
        return _extract_in_processes(nlp, papers, jobs=jobs, on_paper=on_paper)
    if not isinstance(nlp, Language):
        from .pipeline import load_pipeline

        nlp = load_pipeline(nlp)
    return extract_here(nlp, papers, batch_size=batch_size, on_paper=on_paper)


#: papers a worker process extracts at a time: small enough for a smooth progress
#: bar, large enough that sending the records costs nothing next to the NLP
_CHUNK = 64


def _extract_in_processes(
    nlp: Language | str | Path | None,
    papers: list[Paper],
    *,
    jobs: int,
    on_paper: Callable[[Paper], None] | None,
) -> list[PaperMentions]:
    """Extract in ``jobs`` worker processes; a loaded pipeline is reloaded from its path."""
    import multiprocessing

    if isinstance(nlp, Language):
        model = nlp.path and str(nlp.path)
        if model is None:
            raise ValueError(
                "extract_mentions(jobs>1) needs a model name or path, or a saved pipeline"
            )
    else:
        model = None if nlp is None else str(nlp)
    chunks = [papers[i : i + _CHUNK] for i in range(0, len(papers), _CHUNK)]
    results: list[PaperMentions] = []
    context = multiprocessing.get_context("spawn")  # a clean interpreter: no forked threads
    with ProcessPoolExecutor(
        max_workers=jobs, mp_context=context, initializer=load_worker, initargs=(model,)
    ) as pool:
        for chunk, found in zip(chunks, pool.map(extract_chunk, chunks), strict=True):
            results.extend(found)
            if on_paper is not None:
                for paper in chunk:
                    on_paper(paper)
    return results
