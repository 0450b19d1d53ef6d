"""The Python API: build a graph from input files in one call, write its outputs."""

from __future__ import annotations

import logging
import os
import signal
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import networkx as nx

from .export.graphml import write_graphml
from .export.html import ViewReport, write_html
from .export.html_map import MapReport, prefers_map, write_map_html
from .export.neo4j_bundle import write_neo4j_bundle
from .extract.cache import ExtractionCache, pipeline_identity
from .extract.corpus_terms import Occurrences, add_corpus_term_mentions, find_corpus_terms
from .extract.dask_cluster import extract_on_dask
from .extract.labels import unify_concept_labels, vote_labels
from .extract.model_names import resolve_model
from .extract.readers import read_inputs
from .extract.resolve import forget_memoised_names, resolve_concepts
from .extract.specificity import drop_generic
from .extract.titles import mark_title_proposals
from .graph.builder import build_knowledge_graph, handed_over
from .graph.io import load_graph, save_graph
from .graph.schema import CONCEPT_LABELS, PAPER, PAPER_EDGE_TYPES
from .output_switch import staged_folder
from .records import Paper, PaperMentions, ReadResult, Resolution

log = logging.getLogger(__name__)

__all__ = [
    "CORPUS_STEPS",
    "KILL_AT",
    "OUTPUT_STEPS",
    "BuildResult",
    "Outputs",
    "build",
    "build_graph",
    "load_graph",
    "write_outputs",
]


@dataclass
class BuildResult:
    """A built graph and the numbers a user wants to see about how it was made."""

    graph: nx.MultiDiGraph
    read: ReadResult
    #: the generic concepts left out and the ambiguous acronyms; its ``concepts`` and
    #: ``concept_of`` went into the graph (see ``hand_over`` in
    #: :func:`~paperkg.graph.builder.build_knowledge_graph`), whose concept nodes carry them
    resolution: Resolution
    mention_count: int = 0
    outputs: list[Path] = field(default_factory=list)
    #: mentions found as corpus terms (:mod:`paperkg.extract.corpus_terms`), in ``mention_count``
    corpus_term_mentions: int = 0
    #: mentions whose label the corpus vote or their name changed (:mod:`paperkg.extract.labels`)
    relabelled_mentions: int = 0
    #: papers whose extraction came from the cache (:mod:`paperkg.extract.cache`)
    from_cache: int = 0

    @property
    def concept_count(self) -> int:
        return sum(1 for _, d in self.graph.nodes(data=True) if d.get("label") != PAPER)

    def concepts_per_label(self) -> dict[str, int]:
        counts = Counter(d["label"] for _, d in self.graph.nodes(data=True))
        return {label: counts.get(label, 0) for label in CONCEPT_LABELS}

    def top_concepts(self, label: str, n: int = 10) -> list[tuple[str, int]]:
        """The ``n`` concepts of ``label`` that most papers mention: ``(name, papers)``."""
        rows = [
            (d["name"], d["paper_count"])
            for _, d in self.graph.nodes(data=True)
            if d.get("label") == label
        ]
        return sorted(rows, key=lambda r: (-r[1], r[0].lower()))[:n]

    def papers_without_concepts(self) -> list[str]:
        return [
            n
            for n, d in self.graph.nodes(data=True)
            if d.get("label") == PAPER
            and not any(k in PAPER_EDGE_TYPES for _, _, k in self.graph.out_edges(n, keys=True))
        ]


#: what :func:`build` tells ``on_step`` it does after extraction, in order
CORPUS_STEPS = (
    "finding corpus terms",
    "reading titles and voting labels",
    "resolving concepts",
    "building the graph",
)


#: what :func:`write_outputs` tells ``on_step`` it does, in order (the names it writes)
OUTPUT_STEPS = (
    "writing graph.json",
    "writing graph.graphml",
    "writing graph.html",
    "writing neo4j/",
    "switching outputs",
)

#: A test hook: with this environment variable set to one of :data:`CORPUS_STEPS` or
#: :data:`OUTPUT_STEPS`, a build kills itself with SIGKILL on reaching that step, so a
#: test stops a real build at a named moment (``tests/test_interrupted_builds.py``).
KILL_AT = "PAPERKG_KILL_AT"


def _stepper(on_step: Callable[[str], None] | None) -> Callable[[str], None]:
    """``on_step``, after dying at the step :data:`KILL_AT` names."""
    kill_at = os.environ.get(KILL_AT)

    def step(name: str) -> None:
        if name == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        if on_step is not None:
            on_step(name)

    return step


def build(
    paths: Iterable[str | Path],
    *,
    format: str | None = None,
    model: str | Path | None = None,
    alias_file: str | Path | None = None,
    on_error: Literal["skip", "raise"] = "skip",
    min_cooccurrence: int | None = None,
    on_paper: Callable[[Paper], None] | None = None,
    on_cached: Callable[[int], None] | None = None,
    on_read: Callable[[ReadResult], None] | None = None,
    on_step: Callable[[str], None] | None = None,
    corpus_terms: bool = True,
    jobs: int | None = None,
    cache_dir: str | Path | None = None,
    dask: str | None = None,
) -> BuildResult:
    """Read ``paths``, extract mentions, resolve concepts and build the graph.

    ``min_cooccurrence`` defaults to 1 for corpora under 500 papers and 2 above, so a
    large corpus does not drown in one-off co-occurrence edges. ``on_read`` is called
    once the inputs are read (e.g. to size a progress bar) and ``on_paper`` after
    each paper is processed (or, with ``on_cached``, ``on_cached`` once with the
    number found in the extraction cache, and ``on_paper`` for the others only:
    a rate of papers per second then counts extracted papers alone); ``on_step`` is
    called with what the build does next once extraction is done (one of
    :data:`CORPUS_STEPS`: at 100,000 papers these steps take minutes, which a user
    should see named; see also :data:`KILL_AT`). ``corpus_terms`` also finds, in
    every abstract, the terms the extractor tagged consistently in other abstracts
    of the corpus.
    ``jobs`` processes extract in parallel (default: one per core), with the
    same results as one. With ``cache_dir`` (e.g.
    :func:`~paperkg.extract.cache.default_cache_dir`), each paper's extraction is
    kept there and reused while its text and the pipeline stay the same, so a
    rebuild extracts only new or changed papers. With ``dask`` (a scheduler
    address, or ``local``), the workers of that Dask cluster extract instead
    (:mod:`paperkg.extract.dask_cluster`); the graph is the same.
    """
    step = _stepper(on_step)
    try:
        read = read_inputs(paths, format=format, on_error=on_error)
        if on_read is not None:
            on_read(read)
        results, from_cache = _extract(
            read.papers, model, jobs, cache_dir, on_paper, dask, on_cached=on_cached
        )
        added = 0
        if corpus_terms:
            step(CORPUS_STEPS[0])
            occurrences = Occurrences()
            terms = find_corpus_terms(results, occurrences=occurrences)
            results, added = add_corpus_term_mentions(results, terms, occurrences)
        step(CORPUS_STEPS[1])
        results, _ = mark_title_proposals(results)
        results, relabelled = vote_labels(results)
        step(CORPUS_STEPS[2])
        resolution = resolve_concepts(results, alias_file=alias_file)
        resolution = unify_concept_labels(resolution)
        resolution = drop_generic(results, resolution)
        if min_cooccurrence is None:
            min_cooccurrence = 1 if len(read.papers) < 500 else 2
        mention_count = sum(len(r.mentions) for r in results)
        step(CORPUS_STEPS[3])
        graph = build_knowledge_graph(
            handed_over(results), resolution, min_cooccurrence=min_cooccurrence, hand_over=True
        )
        log.info("%d papers, %d mentions, %d nodes", len(read.papers), mention_count, len(graph))
        return BuildResult(
            graph=graph,
            read=read,
            resolution=resolution,
            mention_count=mention_count,
            corpus_term_mentions=added,
            relabelled_mentions=relabelled,
            from_cache=from_cache,
        )
    finally:
        forget_memoised_names()  # they hold every name of the corpus


def _extract(
    papers: list[Paper],
    model: str | Path | None,
    jobs: int | None,
    cache_dir: str | Path | None,
    on_paper: Callable[[Paper], None] | None,
    dask: str | None = None,
    on_cached: Callable[[int], None] | None = None,
) -> tuple[list[PaperMentions], int]:
    """Every paper's mentions, in order: from the cache where it has them, else extracted
    (and then stored). Returns them with the number that came from the cache."""
    cached: list[PaperMentions | None] = [None] * len(papers)
    cache = None
    if cache_dir is not None:
        cache = ExtractionCache(cache_dir, identity=pipeline_identity(resolve_model(model)))
        cached = [cache.get(p) for p in papers]
        if on_cached is not None:
            on_cached(sum(hit is not None for hit in cached))
        elif on_paper is not None:
            for paper, hit in zip(papers, cached, strict=True):
                if hit is not None:
                    on_paper(paper)
    todo = [p for p, hit in zip(papers, cached, strict=True) if hit is None]
    found: list[PaperMentions] = []
    if todo and dask:
        found = extract_on_dask(dask, model, todo, jobs=jobs, on_paper=on_paper)
    elif todo:
        # spaCy only when there is something to extract, and PyTorch only if the model needs it
        from .extract.spacy_import import import_spacy_for

        import_spacy_for(model)
        from .extract.extractor import default_jobs, extract_mentions
        from .extract.pipeline import load_pipeline

        jobs = default_jobs() if jobs is None else max(1, jobs)
        # several processes each load the pipeline themselves (a bad model's error
        # comes back from them); a single one uses it loaded here
        nlp = model if jobs > 1 and len(todo) > 2 * jobs else load_pipeline(model)
        found = extract_mentions(nlp, todo, on_paper=on_paper, jobs=jobs)
    fresh = iter(found)
    results = [hit if hit is not None else next(fresh) for hit in cached]
    if cache is not None:
        for result in found:
            cache.put(result)
    return results, len(papers) - len(todo)


def build_graph(paths: Iterable[str | Path] | str | Path, **options) -> nx.MultiDiGraph:
    """Build the knowledge graph of the abstracts in ``paths`` and return it.

    Takes the options of :func:`build`. A single path or glob may be passed as is.

    >>> G = build_graph("examples/iclr2025_abstracts.txt")  # doctest: +SKIP
    >>> sorted({d["label"] for _, d in G.nodes(data=True)})  # doctest: +SKIP
    ['Dataset', 'Method', 'Paper', 'Task']
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    return build(paths, **options).graph


@dataclass
class Outputs:
    """What :func:`write_outputs` wrote, and what the HTML view left out."""

    paths: list[Path]
    #: what graph.html drew: the concept map above MAP_MIN_PAPERS papers, else the paper view
    view: ViewReport | MapReport | None = None


def write_outputs(
    graph: nx.MultiDiGraph,
    outdir: str | Path,
    *,
    html: bool = True,
    neo4j_bundle: bool = True,
    on_step: Callable[[str], None] | None = None,
) -> Outputs:
    """Write graph.json, graph.graphml, graph.html and the neo4j/ bundle to ``outdir``.

    graph.html is the concept map (:mod:`paperkg.export.html_map`) for a corpus of
    more than :data:`~paperkg.export.html_map.MAP_MIN_PAPERS` papers, the
    paper-concept view (:mod:`paperkg.export.html`) for a smaller one.

    The outputs are written into a new build folder inside ``outdir`` and their
    names in ``outdir`` are switched to it in one rename
    (:mod:`paperkg.output_switch`), so a failure or a killed build never
    leaves a half-written file nor a graph.json of one build beside a neo4j/ of
    another. ``on_step`` is called with each of :data:`OUTPUT_STEPS` as it starts
    (graph.html's and neo4j/'s only when written).

    Raises
    ------
    OutputsBusyError
        Another build is writing into ``outdir`` now.
    """
    outdir = Path(outdir)
    names = ["graph.json", "graph.graphml"]
    step = _stepper(on_step)
    view = None
    with staged_folder(outdir, known=OUTPUT_NAMES, on_step=step) as staging:
        step("writing graph.json")
        save_graph(graph, staging / "graph.json")
        step("writing graph.graphml")
        write_graphml(graph, staging / "graph.graphml")
        if html:
            names.append("graph.html")
            step("writing graph.html")
            if prefers_map(graph):
                view = write_map_html(graph, staging / "graph.html")
            else:
                view = write_html(graph, staging / "graph.html")
        if neo4j_bundle:
            names.append("neo4j")
            step("writing neo4j/")
            write_neo4j_bundle(graph, staging / "neo4j", keep_from=outdir / "neo4j")
    return Outputs(paths=[outdir / name for name in names], view=view)


#: Every output :func:`write_outputs` may write into its folder.
OUTPUT_NAMES = ("graph.json", "graph.graphml", "graph.html", "neo4j")
