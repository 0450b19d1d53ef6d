"""The build's stages: each a function from the corpus state to the next, run in order.

:data:`paperkg.api.BUILD_STAGES` lists them; :func:`run_stages` runs them one after
the other, tells the caller each stage's name as it starts (a long build is never a
silent wait) and times it. To change what a stage does, open the function it names
here: each is a few lines that call the stage's own package (``extract.readers``,
``extract.nlp``-side extraction and its cache, the corpus steps of ``extract``,
``graph.builder``).
"""

from __future__ import annotations

import logging
import os
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

import networkx as nx
import pandas as pd

from .extract.corpus import decide_concepts
from .extract.corpus.contributions import contribution_flags
from .extract.corpus.corpus_terms import Occurrences, find_corpus_terms, with_corpus_terms
from .extract.corpus.labels import (
    choose_labels,
    choose_labels_on_dask,
    relabel_table,
    unify_concept_labels,
)
from .extract.corpus.mention_table import (
    PARTITION_ROWS,
    MentionRecords,
    mention_table_and_acronyms,
)
from .extract.corpus.titles import with_title_proposals
from .extract.nlp.cache import CachedRecords, ExtractionCache, pipeline_identity
from .extract.nlp.dask_cluster import dask_client, extract_on_dask
from .extract.nlp.model_names import resolve_model
from .extract.readers import read_inputs
from .extract.resolve import forget_memoised_names, resolve_concepts
from .graph.builder import build_knowledge_graph, paper_concepts
from .graph.hierarchy import broader_concepts_of
from .graph.incidence import count_cooccurrences, count_cooccurrences_on_dask
from .records import Paper, PaperMentions, ReadResult, Resolution

log = logging.getLogger(__name__)

__all__ = ["KILL_AT", "BuildOptions", "Corpus", "Stage", "die_if_asked", "run_stages"]

#: A test hook: a build that reaches the stage or output step named in this environment
#: variable kills itself with SIGKILL there, so a test stops a real build at a named
#: moment (``tests/test_interrupted_builds.py``), not at a guessed fraction of its time.
KILL_AT = "PAPERKG_KILL_AT"


def die_if_asked(step: str) -> None:
    """Kill this process with SIGKILL if :data:`KILL_AT` names ``step``."""
    if os.environ.get(KILL_AT) == step:
        os.kill(os.getpid(), signal.SIGKILL)


@dataclass(frozen=True)
class BuildOptions:
    """What :func:`paperkg.api.build` was asked for (see its docstring)."""

    format: str | None = None
    model: str | Path | None = None
    alias_file: str | Path | None = None
    on_error: Literal["skip", "raise"] = "skip"
    min_cooccurrence: int | None = None
    corpus_terms: bool = True
    jobs: int | None = None
    cache_dir: str | Path | None = None
    dask: str | None = None
    on_paper: Callable[[Paper], None] | None = None
    on_cached: Callable[[int], None] | None = None
    on_read: Callable[[ReadResult], None] | None = None


@dataclass
class Corpus:
    """The build's state between stages: what the inputs were, what was found so far."""

    paths: list[str | Path]
    options: BuildOptions
    read: ReadResult = field(default_factory=ReadResult)
    #: every paper's mentions, in input order: the records extraction made (a rebuild
    #: reads them from the cache as a stage comes to them) until the table of mentions
    #: exists, then made from it as a stage reads them
    results: Sequence[PaperMentions] = field(default_factory=list)
    #: papers whose mentions came from the extraction cache
    from_cache: int = 0
    #: mentions added as corpus terms (:mod:`paperkg.extract.corpus.corpus_terms`)
    corpus_term_mentions: int = 0
    #: every mention as a row of one table (:mod:`paperkg.extract.corpus.mention_table`),
    #: made once they are all found; its labels are the voted ones, and from then on
    #: ``results`` reads it
    mentions: pd.DataFrame | None = None
    #: mentions whose label the corpus vote or their name changed
    relabelled_mentions: int = 0
    resolution: Resolution = field(default_factory=Resolution)
    graph: nx.DiGraph = field(default_factory=nx.DiGraph)
    #: seconds each stage took, by name, in order
    seconds: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Stage:
    """One named step of a build: ``run`` takes the corpus state and returns the next."""

    name: str
    run: Callable[[Corpus], Corpus]
    #: whether the stage runs for these options (a stage a user switched off is not announced)
    wanted: Callable[[BuildOptions], bool] = lambda _options: True


def run_stages(
    stages: Sequence[Stage], corpus: Corpus, on_step: Callable[[str], None] | None = None
) -> Corpus:
    """Run ``stages`` in order on ``corpus``, naming each to ``on_step`` and timing it."""
    for stage in stages:
        if not stage.wanted(corpus.options):
            continue
        if on_step is not None:
            on_step(stage.name)
        die_if_asked(stage.name)
        started = time.perf_counter()
        corpus = stage.run(corpus)
        corpus.seconds[stage.name] = time.perf_counter() - started
        log.info("%s: %.2f s", stage.name, corpus.seconds[stage.name])
    return corpus


def read(corpus: Corpus) -> Corpus:
    """Read the input files into Paper records (:mod:`paperkg.extract.readers`)."""
    options = corpus.options
    result = read_inputs(corpus.paths, format=options.format, on_error=options.on_error)
    if options.on_read is not None:
        options.on_read(result)
    return replace(corpus, read=result)


def extract(corpus: Corpus) -> Corpus:
    """Every paper's mentions, in order: extracted where the cache has none (and then
    stored), else read from the cache a block of papers at a time as later stages
    read them (:class:`~paperkg.extract.nlp.cache.CachedRecords`)."""
    options, papers = corpus.options, corpus.read.papers
    if options.cache_dir is None:
        return replace(corpus, results=_extract_papers(papers, options) if papers else [])
    identity = pipeline_identity(resolve_model(options.model))
    cache = ExtractionCache(options.cache_dir, identity=identity)
    stored = cache.stored(papers)
    _count_cached(options, papers, stored)
    todo = [i for i, hit in enumerate(stored) if not hit]
    found = _extract_papers([papers[i] for i in todo], options) if todo else []
    cache.put_many(found)
    fresh = dict(zip(todo, found, strict=True))
    results = CachedRecords(cache, papers, fresh, lambda lost: _extract_papers(lost, options))
    return replace(corpus, results=results, from_cache=len(papers) - len(todo))


def _count_cached(options: BuildOptions, papers: list[Paper], stored: list[bool]) -> None:
    """Tell the caller how many papers came from the cache (at once, or one by one)."""
    if options.on_cached is not None:
        options.on_cached(sum(stored))
    elif options.on_paper is not None:
        for paper, hit in zip(papers, stored, strict=True):
            if hit:
                options.on_paper(paper)


def _extract_papers(papers: list[Paper], options: BuildOptions) -> list[PaperMentions]:
    """The mentions of ``papers``: on a Dask cluster, in worker processes, or here."""
    if options.dask:
        return extract_on_dask(
            options.dask, options.model, papers, jobs=options.jobs, on_paper=options.on_paper
        )
    # spaCy only when there is something to extract, and PyTorch only if the model needs it
    from .extract.nlp.spacy_import import import_spacy_for

    import_spacy_for(options.model)
    from .extract.nlp.extractor import default_jobs, extract_mentions
    from .extract.nlp.pipeline import load_pipeline

    jobs = default_jobs() if options.jobs is None else max(1, options.jobs)
    # several processes each load the pipeline themselves (a bad model's error comes
    # back from them); a single one uses it loaded here
    nlp = options.model if jobs > 1 and len(papers) > 2 * jobs else load_pipeline(options.model)
    return extract_mentions(nlp, papers, on_paper=options.on_paper, jobs=jobs)


def add_corpus_terms(corpus: Corpus) -> Corpus:
    """Tag, in every abstract, the terms the extractor tagged consistently in others
    (each paper's new mentions are made as the next stage reads it)."""
    occurrences = Occurrences()
    terms = find_corpus_terms(corpus.results, occurrences=occurrences)
    return replace(corpus, results=with_corpus_terms(corpus.results, terms, occurrences))


def read_titles_and_vote_labels(corpus: Corpus) -> Corpus:
    """Mark what titles name as proposed; put the mentions, now all found, in one table
    that replaces their records; give each name the label the corpus agrees on (on the
    Dask cluster with ``dask``)."""
    mentions, acronyms = mention_table_and_acronyms(with_title_proposals(corpus.results))
    if corpus.options.dask:
        votes = mentions.drop(columns=["sentence", "long_form"])  # what the vote reads
        chosen = _on_dask(corpus.options, choose_labels_on_dask, votes)
    else:
        chosen = choose_labels(mentions)
    found_again = int(mentions["corpus_match"].sum())
    mentions, relabelled = relabel_table(mentions, chosen)
    return replace(
        corpus,
        results=MentionRecords(corpus.read.papers, acronyms, mentions),
        mentions=mentions,
        corpus_term_mentions=found_again,
        relabelled_mentions=relabelled,
    )


def resolve(corpus: Corpus) -> Corpus:
    """Mentions to canonical concepts; one label per concept; the concept model's
    decision: each concept's label, and the generic ones left out."""
    resolution = resolve_concepts(corpus.results, alias_file=corpus.options.alias_file)
    resolution = unify_concept_labels(resolution)
    resolution = decide_concepts(corpus.results, resolution)
    return replace(corpus, resolution=resolution)


def build_graph(corpus: Corpus) -> Corpus:
    """What each paper proposes (:mod:`paperkg.extract.corpus.contributions`); the graph
    of papers and concepts (co-occurrence above 500 papers needs two papers); the pairs
    of concepts counted from the table of mentions (on the Dask cluster with ``dask``)."""
    forget_memoised_names()  # the names resolution asked about: not needed from here on
    corpus = _mark_contributions(corpus)
    minimum = corpus.options.min_cooccurrence
    if minimum is None:
        minimum = 1 if len(corpus.read.papers) < 500 else 2
    broader = broader_concepts_of(corpus.resolution)
    pairs = _cooccurrences(corpus, broader, minimum)
    graph = build_knowledge_graph(
        corpus.results,
        corpus.resolution,
        min_cooccurrence=minimum,
        cooccurrences=pairs,
        broader=broader,
    )
    return replace(corpus, graph=graph)


def _cooccurrences(corpus: Corpus, broader: dict[str, str], minimum: int) -> pd.DataFrame:
    """The pairs of concepts that ``minimum`` papers or more link to, counted from the
    table's paper x concept rows (gone before the graph is made)."""
    incidence = paper_concepts(corpus.mentions["paper"], corpus.resolution, broader)
    if corpus.options.dask:
        return _on_dask(corpus.options, count_cooccurrences_on_dask, incidence, min_papers=minimum)
    return count_cooccurrences(incidence, min_papers=minimum)


def _mark_contributions(corpus: Corpus) -> Corpus:
    """The mentions' ``proposed`` as the contribution model sets it, written as the table's
    column (the records read it from there)."""
    mentions = corpus.mentions.assign(
        proposed=contribution_flags(corpus.results, corpus.resolution)
    )
    records = MentionRecords(corpus.results.papers, corpus.results.acronyms, mentions)
    return replace(corpus, mentions=mentions, results=records)


def _on_dask(options: BuildOptions, step: Callable, table: pd.DataFrame, **arguments):
    """``step(table as a Dask DataFrame, **arguments)``, computed on the build's cluster."""
    with dask_client(options.dask, options.jobs):
        import dask.dataframe as dd  # once connected: without dask, that said what to install

        return step(dd.from_pandas(table, chunksize=PARTITION_ROWS), **arguments)
