"""Extraction on a Dask cluster, for corpora one machine is too slow for.

Extraction is nearly all of a build's time and is independent per paper, so it
is the part worth spreading: the papers go to the cluster's workers in chunks,
each worker loads the pipeline once and returns plain
:class:`~paperkg.records.PaperMentions`, and everything after (corpus terms,
resolution, the graph) runs here, on the results put back in input order. The
graph is therefore the same as a local build's, provided the workers run the
same pipeline; :func:`extract_on_dask` checks that (the same
:func:`~paperkg.extract.nlp.cache.pipeline_identity`) before using a result.

Workers need paperkg installed (the same version, ``pip install paperkg``)
and, for a model given as a folder, that folder at the same path. Start them
with one thread each (``dask worker ADDRESS --nthreads 1 --nworkers N``): a
worker runs one pipeline at a time, so more threads only hold more memory.

``address`` is a scheduler address (``tcp://host:8786``) or ``local`` (a
``LocalCluster`` on this machine, one worker process per core), or
``local:N`` for N workers.

The same cluster also takes the label vote and the co-occurrence count, as
group-bys over the table of mentions (:func:`dask_client` connects the build to
it); which corpus steps move to a cluster that way, and which do not yet, is
told in :mod:`paperkg.extract.corpus.mention_table`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ...errors import ExtractionError
from ...records import Paper, PaperMentions

__all__ = ["dask_client", "extract_on_dask"]

log = logging.getLogger(__name__)

#: papers per task: enough work that scheduling costs nothing next to the NLP,
#: few enough that the progress bar moves and a lost worker repeats little
CHUNK = 64

# per worker process: the loaded pipelines by model, and one lock so a worker
# with several threads still runs one pipeline at a time
_pipelines: dict[str | None, tuple[object, str]] = {}
_lock = threading.Lock()


def _extract_chunk(
    papers: list[Paper], model: str | None, own: bool = False
) -> tuple[str, list[PaperMentions]]:
    """Runs on a worker: the chunk's mentions and the identity of the pipeline that found them.

    ``own``: the worker is one of a LocalCluster paperkg started, whose spaCy may come
    without PyTorch (:mod:`.spacy_import`); a worker of someone else's cluster is not.
    """
    from .cache import pipeline_identity
    from .spacy_import import import_spacy_for, own_this_process

    if own:
        own_this_process()
    import_spacy_for(model)
    from .extractor import extract_mentions
    from .pipeline import load_pipeline, resolve_model

    with _lock:
        if model not in _pipelines:
            _pipelines[model] = (load_pipeline(model), pipeline_identity(resolve_model(model)))
        nlp, identity = _pipelines[model]
        return identity, extract_mentions(nlp, papers)


def _local_identity(model: str | Path | None) -> str:
    """The identity of the pipeline ``model`` names on this machine."""
    from .cache import pipeline_identity
    from .pipeline import resolve_model

    return pipeline_identity(resolve_model(model))


def _is_local(address: str) -> bool:
    """Whether ``address`` asks for a LocalCluster that paperkg starts (``local[:N]``)."""
    return address == "local" or address.startswith("local:")


def _connect(address: str, jobs: int | None, timeout: float):
    """A client of the scheduler at ``address``, or of a new LocalCluster for ``local[:N]``."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as e:
        raise ExtractionError(
            "--dask needs dask.distributed: pip install 'paperkg[dask]' "
            "(or pip install 'dask[distributed]')"
        ) from e
    if _is_local(address):
        workers = int(address.partition(":")[2] or jobs or 0) or None
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        return Client(cluster), cluster
    try:
        return Client(address, timeout=f"{timeout}s"), None
    except (OSError, TimeoutError, ValueError) as e:
        raise ExtractionError(
            f"cannot reach the Dask scheduler at {address!r} ({e}); start one with "
            "`dask scheduler` and workers with `dask worker ADDRESS --nthreads 1`, "
            "or use --dask local"
        ) from e


@contextmanager
def dask_client(address: str, jobs: int | None = None, timeout: float = 20) -> Iterator:
    """A ``distributed.Client`` of the cluster at ``address`` (``local[:N]``: a new
    LocalCluster of ``N`` or ``jobs`` workers), closed on leaving, with the cluster
    it started. While it is open, dask computes on that cluster."""
    client, cluster = _connect(address, jobs, timeout)
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def extract_on_dask(
    address: str,
    model: str | Path | None,
    papers: list[Paper],
    *,
    jobs: int | None = None,
    on_paper: Callable[[Paper], None] | None = None,
    connect_timeout: float = 20,
) -> list[PaperMentions]:
    """Every paper's mentions, in input order, extracted by the workers of a Dask cluster.

    Parameters
    ----------
    address : str
        The scheduler (``tcp://host:8786``), or ``local`` / ``local:N`` for a
        cluster of this machine's processes (``jobs`` workers, else one per core).
    model : str or Path or None
        What :func:`~paperkg.extract.nlp.pipeline.load_pipeline` takes; it is
        loaded on the workers, not here.
    papers : list of Paper
    jobs : int, optional
        Workers of a ``local`` cluster.
    on_paper : callable, optional
        Called for each paper as its chunk comes back.
    connect_timeout : float
        Seconds to wait for the scheduler.

    Returns
    -------
    list of PaperMentions
        The same as :func:`~paperkg.extract.nlp.extractor.extract_mentions` gives
        locally with the same pipeline.

    Raises
    ------
    ExtractionError
        The scheduler cannot be reached, or the workers run another pipeline
        (another paperkg version, model or rule code) than this machine.
    """
    from dask.distributed import as_completed

    here = _local_identity(model)
    model_arg = None if model is None else str(model)
    chunks = [papers[i : i + CHUNK] for i in range(0, len(papers), CHUNK)]
    with dask_client(address, jobs, connect_timeout) as client:
        futures = {
            client.submit(_extract_chunk, chunk, model_arg, _is_local(address), pure=False): i
            for i, chunk in enumerate(chunks)
        }
        log.info("extracting %d papers on %s in %d tasks", len(papers), address, len(chunks))
        results: list[list[PaperMentions] | None] = [None] * len(chunks)
        for future in as_completed(futures):
            identity, found = future.result()
            if identity != here:
                raise ExtractionError(
                    f"the Dask workers at {address} run another pipeline than this machine "
                    "(another paperkg version, model or rule code), so the graph would differ "
                    "from a local build; install the same paperkg and model on them"
                )
            index = futures[future]
            results[index] = found
            if on_paper is not None:
                for paper in chunks[index]:
                    on_paper(paper)
    return [result for chunk in results for result in chunk or []]
