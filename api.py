"""The Python API: build a graph from input files in one call, write its outputs."""

from __future__ import annotations

import contextlib
import logging
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import networkx as nx

from .atomic import remove_leftovers
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
from .extract.resolve.name_memos import load_name_memos, save_name_memos
from .extract.spacy_import import this_process_is_owned
from .extract.specificity import drop_generic
from .extract.standby import CHUNK as STANDBY_CHUNK
from .extract.standby import StandbyExtractor, StandbyLost
from .extract.titles import mark_title_proposals
from .free_memory import return_free_memory
from .gc_tuning import fewer_collections, paused_collections
from .graph.builder import build_knowledge_graph
from .graph.io import load_graph, save_graph
from .graph.schema import CONCEPT_LABELS, PAPER, PAPER_EDGE_TYPES
from .output_switch import staged_folder
from .processes import available_cores, fork_available, forked_call
from .records import Paper, PaperMentions, ReadResult, Resolution

log = logging.getLogger(__name__)

__all__ = [
    "CORPUS_STEPS",
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


def _silent(_step: str) -> None:
    """The ``on_step`` of a caller that does not ask for one."""


@contextlib.contextmanager
def _names_forgotten_after() -> Iterator[None]:
    """Empty the name memos when the block ends, also when it fails: they hold every
    name of the corpus (a build empties them before its graph step too)."""
    try:
        yield
    finally:
        forget_memoised_names()


@fewer_collections()  # a build's objects live until it ends: see gc_tuning
@_names_forgotten_after()
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
    a rate of papers per second then counts extracted papers alone); ``on_step`` is called with what the build does next once
    extraction is done (one of :data:`CORPUS_STEPS`: at 100,000 papers these steps
    take minutes, which a user should see named). ``corpus_terms`` also finds, in
    every abstract, the terms the extractor tagged consistently in other abstracts
    of the corpus.
    ``jobs`` processes extract in parallel (default: one per core), with the
    same results as one. With ``cache_dir`` (e.g.
    :func:`~paperkg.extract.cache.default_cache_dir`), each paper's extraction is
    kept there and reused while its text and the pipeline stay the same, so a
    rebuild extracts only new or changed papers; with a second core too (see
    :func:`_second_core`), a standby process loads the pipeline while the inputs
    are read, for the papers the cache lacks (:mod:`paperkg.extract.standby`), and
    the corpus steps start from the name answers the last build kept there
    (:mod:`paperkg.extract.resolve.name_memos`). With ``dask`` (a scheduler
    address, or ``local``), the workers of that Dask cluster extract instead
    (:mod:`paperkg.extract.dask_cluster`); the graph is the same.
    """
    standby = _standby_extractor(model, jobs, cache_dir, dask)
    with standby or contextlib.nullcontext():
        read = read_inputs(paths, format=format, on_error=on_error)
        return_free_memory()  # each step hands back what it freed: see free_memory
        if on_read is not None:
            on_read(read)
        inputs = _input_files(read.papers)

        def load_memos() -> None:  # the names the last build asked for
            if cache_dir is not None:
                with _collector_paused():
                    load_name_memos(cache_dir, inputs)

        results, from_cache = _extract(
            read.papers, model, jobs, cache_dir, on_paper, dask, standby, on_cached,
            meanwhile=load_memos,
        )  # fmt: skip
    return_free_memory()
    step = on_step or _silent
    # the corpus steps make millions of objects that live until the build ends,
    # and no reference cycles: the collector would only scan them (see gc_tuning)
    with _collector_paused():
        added = 0
        if corpus_terms:
            step(CORPUS_STEPS[0])
            occurrences = Occurrences()
            terms = find_corpus_terms(results, occurrences=occurrences, fork=_second_core(jobs))
            return_free_memory()
            results, added = add_corpus_term_mentions(results, terms, occurrences)
            del occurrences
            return_free_memory()
        step(CORPUS_STEPS[1])
        results, _ = mark_title_proposals(results)
        return_free_memory()
        results, relabelled = vote_labels(results)
        return_free_memory()
        step(CORPUS_STEPS[2])
        resolution = resolve_concepts(results, alias_file=alias_file, fork=_second_core(jobs))
        return_free_memory()  # resolution's tables: 87 MB at 50,000 papers
        resolution = unify_concept_labels(resolution)
        return_free_memory()
        resolution = drop_generic(results, resolution)
        if cache_dir is not None:
            save_name_memos(cache_dir, inputs)
        forget_memoised_names()  # the graph is built without them, at the build's peak memory
        return_free_memory()
        if min_cooccurrence is None:
            min_cooccurrence = 1 if len(read.papers) < 500 else 2
        mention_count = sum(len(r.mentions) for r in results)
        step(CORPUS_STEPS[3])
        # the builder takes each paper's mentions from the list as it goes, and the
        # concepts from the resolution, so they are freed while the graph grows (the
        # peak of a build's memory); the result keeps the generic concepts and acronyms
        graph = build_knowledge_graph(results, resolution, min_cooccurrence=min_cooccurrence)
    return_free_memory()  # the mentions, handed over paper by paper
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


def _collector_paused() -> contextlib.AbstractContextManager:
    """:func:`~paperkg.gc_tuning.paused_collections` in a process paperkg owns (the
    ``paperkg`` command), else nothing: the pause and the freeze are the whole
    process's, which in a caller's notebook or server is not for a build to change."""
    return paused_collections() if this_process_is_owned() else contextlib.nullcontext()


def _input_files(papers: list[Paper]) -> list[str]:
    """The absolute paths of the files ``papers`` were read from (a source is
    ``path#record``): which corpus a build is, for its name memos."""
    return sorted({os.path.abspath(p.source.rpartition("#")[0]) for p in papers})


def _extract(
    papers: list[Paper],
    model: str | Path | None,
    jobs: int | None,
    cache_dir: str | Path | None,
    on_paper: Callable[[Paper], None] | None,
    dask: str | None = None,
    standby: StandbyExtractor | None = None,
    on_cached: Callable[[int], None] | None = None,
    meanwhile: Callable[[], None] | None = None,
) -> tuple[list[PaperMentions], int]:
    """Every paper's mentions, in order: from the cache where it has them, else extracted
    (and then stored). Returns them with the number that came from the cache.

    A ``standby`` worker (see :func:`_standby_extractor`) extracts the papers the
    cache lacks when they are few enough for one process: it is handed those with
    no entry before the entries are read, and extracts them meanwhile.
    ``meanwhile`` is called once: while the standby extracts what it was handed
    (a rebuild with 1% new papers waits for it about as long as reading the cache
    took), else when the papers are extracted.
    """
    cached: list[PaperMentions | None] = [None] * len(papers)
    cache = None
    early = None  # (papers, the call that waits for them) handed to the standby
    if cache_dir is not None:
        cache = ExtractionCache(cache_dir, identity=pipeline_identity(resolve_model(model)))
        if standby is not None:
            missing = [p for p in papers if not cache.has(p)]
            if missing and len(missing) <= STANDBY_CHUNK:
                early = (missing, standby.submit(missing))
        with _collector_paused():  # mentions, lists and strings: no cycles
            cached = [cache.get(p) for p in papers]
        if on_cached is not None:
            on_cached(sum(hit is not None for hit in cached))
        elif on_paper is not None:
            for paper, hit in zip(papers, cached, strict=True):
                if hit is not None:
                    on_paper(paper)
    todo = [p for p, hit in zip(papers, cached, strict=True) if hit is None]
    if early is not None and meanwhile is not None:
        meanwhile()
        meanwhile = None
    fresh = _extract_on_standby(standby, todo, early, on_paper) if standby is not None else {}
    rest = [p for p in todo if id(p) not in fresh]
    if rest and dask:
        found = extract_on_dask(dask, model, rest, jobs=jobs, on_paper=on_paper)
        fresh.update(_by_paper(rest, found))
    elif rest:
        # spaCy only when there is something to extract, and PyTorch only if the model needs it
        from .extract.spacy_import import import_spacy_for

        import_spacy_for(model)
        from .extract.extractor import default_jobs, extract_mentions
        from .extract.pipeline import load_pipeline

        jobs = default_jobs() if jobs is None else max(1, jobs)
        # several processes each load the pipeline themselves (a bad model's error
        # comes back from them); a single one uses it loaded here
        nlp = model if jobs > 1 and len(rest) > 2 * jobs else load_pipeline(model)
        found = extract_mentions(nlp, rest, on_paper=on_paper, jobs=jobs)
        fresh.update(_by_paper(rest, found))
    if cache is not None:
        for paper in todo:
            cache.put(fresh[id(paper)])
    if meanwhile is not None:
        meanwhile()
    results = [
        hit if hit is not None else fresh[id(p)] for p, hit in zip(papers, cached, strict=True)
    ]
    return results, len(papers) - len(todo)


def _by_paper(papers: list[Paper], found: list[PaperMentions]) -> dict[int, PaperMentions]:
    """``found`` (the mentions of ``papers``, in order) by ``id`` of their paper."""
    return {id(p): result for p, result in zip(papers, found, strict=True)}


def _extract_on_standby(
    standby: StandbyExtractor,
    todo: list[Paper],
    early: tuple[list[Paper], Callable] | None,
    on_paper: Callable[[Paper], None] | None,
) -> dict[int, PaperMentions]:
    """The mentions the ``standby`` worker extracts of ``todo`` (by ``id`` of the paper):
    those handed to it ``early``, then the others (entries that did not read back)
    if they are few; none if it died. It is stopped after: a pool loads its own."""
    fresh: dict[int, PaperMentions] = {}
    wanted = {id(p) for p in todo}
    try:
        if early is not None:
            handed, wait = early

            def counted(paper: Paper) -> None:  # one written meanwhile came from the cache
                if on_paper is not None and id(paper) in wanted:
                    on_paper(paper)

            for paper, result in zip(handed, wait(counted), strict=True):
                if id(paper) in wanted:
                    fresh[id(paper)] = result
        rest = [p for p in todo if id(p) not in fresh]
        if rest and len(rest) <= STANDBY_CHUNK:
            fresh.update(_by_paper(rest, standby.extract(rest, on_paper=on_paper)))
    except StandbyLost as lost:  # only a lost speed-up: extract here
        log.warning("%s; extracting %d papers without it", lost, len(todo) - len(fresh))
    finally:
        standby.close()  # done, or not needed: the pool's processes load their own
    return fresh


def _second_core(jobs: int | None) -> bool:
    """Whether a build may fork a helper onto a second core (the standby extractor,
    the second writer): with ``jobs`` > 1, or by default (``None``) in a process
    paperkg owns, the ``paperkg`` command, on a machine with two cores or more.
    Forking a caller's own process (a notebook and its threads, a web server) is
    for the caller to ask for."""
    if jobs is None:
        return this_process_is_owned() and available_cores() > 1
    return jobs > 1


def _standby_extractor(
    model: str | Path | None, jobs: int | None, cache_dir: str | Path | None, dask: str | None
) -> StandbyExtractor | None:
    """A worker that loads the pipeline while the build reads its inputs, when the build
    has a cache (a rebuild often has only a few new papers, whose extraction would
    otherwise wait for spaCy and the model to load) and a second core to do it on."""
    if cache_dir is None or dask or not _second_core(jobs) or not StandbyExtractor.available():
        return None
    return StandbyExtractor(None if model is None else str(model))


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


@fewer_collections()
def write_outputs(
    graph: nx.MultiDiGraph,
    outdir: str | Path,
    *,
    html: bool = True,
    neo4j_bundle: bool = True,
    on_step: Callable[[str], None] | None = None,
    jobs: int | None = None,
) -> Outputs:
    """Write graph.json, graph.graphml, graph.html and the neo4j/ bundle to ``outdir``.

    graph.html is the concept map (:mod:`paperkg.export.html_map`) for a corpus of
    more than :data:`~paperkg.export.html_map.MAP_MIN_PAPERS` papers, the
    paper-concept view (:mod:`paperkg.export.html`) for a smaller one.

    The outputs are written into a new build folder inside ``outdir`` and their
    names in ``outdir`` are switched to it in one rename
    (:func:`~paperkg.output_switch.staged_folder`), so a failure or a killed build never
    leaves a half-written file nor a graph.json of one build beside a neo4j/ of
    another. Leftovers of a killed build are removed first. ``on_step`` is called with ``"writing <file>"`` as each
    output is started.

    With ``jobs`` > 1 (by default, in the ``paperkg`` command on a machine with two
    cores), graph.json and neo4j/ are written by a forked second process while this
    one writes GraphML and graph.html (see :func:`writes_in_two_processes`); the
    files are the same. Without graph.html (and with neo4j/), this one writes
    graph.json too and the second process neo4j/ alone, so the two take about
    as long.
    """
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    remove_leftovers(outdir)  # temporaries of a build that was killed
    names = ["graph.json", "graph.graphml"]
    step = on_step or _silent
    with staged_folder(outdir, known=OUTPUT_NAMES) as staging:
        two = writes_in_two_processes(graph, jobs)
        # the second process's share: graph.json and neo4j/ beside GraphML and the
        # page here; with no page, graph.json is written here (at 3,218 papers:
        # graph.json 0.4 s, GraphML 0.6 s, neo4j/ 0.7 s, the map 0.3 s)
        json_here = not two or (not html and neo4j_bundle)

        def write_json() -> None:
            save_graph(graph, staging / "graph.json")

        def write_bundle() -> None:
            write_neo4j_bundle(graph, staging / "neo4j", keep_from=outdir / "neo4j")

        def aside_writes() -> None:
            if not json_here:
                write_json()
            if neo4j_bundle:
                write_bundle()

        aside = " and ".join(
            (["graph.json"] if not json_here else []) + (["neo4j/"] if neo4j_bundle else [])
        )
        with forked_call(aside, aside_writes) if two else _written_here() as wait:
            if two:
                step(f"writing {aside} (second process)")
            if json_here:
                step("writing graph.json")
                write_json()
            step("writing graph.graphml")
            write_graphml(graph, staging / "graph.graphml")
            return_free_memory()
            view = None
            if html:
                names.append("graph.html")
                step("writing graph.html")
                if prefers_map(graph):
                    view = write_map_html(graph, staging / "graph.html")
                else:
                    view = write_html(graph, staging / "graph.html")
                return_free_memory()
            if two:
                step(f"finishing {aside}")
                wait()
            elif neo4j_bundle:
                step("writing neo4j/")
                write_bundle()
        if neo4j_bundle:
            names.append("neo4j")
    return Outputs(paths=[outdir / name for name in names], view=view)


#: Every output :func:`write_outputs` may write into its folder.
OUTPUT_NAMES = ("graph.json", "graph.graphml", "graph.html", "neo4j")


def _written_here() -> contextlib.nullcontext:
    """What :func:`write_outputs` has instead of a forked writer: nothing to wait for."""
    return contextlib.nullcontext(None)


#: Above this many nodes and edges, :func:`write_outputs` writes everything in one
#: process: the forked writer touches every node and edge it writes, so its copy of
#: the graph's memory grows towards the graph's own size (measured in
#: bench/memory_steps.py), and a large corpus needs its memory more than a few seconds.
TWO_PROCESS_MAX_ELEMENTS = 1_000_000


def writes_in_two_processes(graph: nx.MultiDiGraph, jobs: int | None) -> bool:
    """Whether :func:`write_outputs` writes with a forked second process: a second
    core (see :func:`_second_core`), a platform that forks, and a graph of at most
    :data:`TWO_PROCESS_MAX_ELEMENTS` nodes and edges."""
    return (
        _second_core(jobs)
        and fork_available()
        and graph.number_of_nodes() + graph.number_of_edges() <= TWO_PROCESS_MAX_ELEMENTS
    )
