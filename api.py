"""The Python API: build a graph from input files in one call, write its outputs."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import networkx as nx

from . import stages
from .export.graphml import write_graphml
from .export.html import ViewReport, write_html
from .export.html_map import MapReport, prefers_map, write_map_html
from .export.neo4j_bundle import write_neo4j_bundle
from .extract.resolve import forget_memoised_names
from .graph.io import load_graph, save_graph
from .graph.schema import CONCEPT_LABELS, PAPER, PAPER_EDGE_TYPES
from .output_switch import staged_folder
from .records import Paper, ReadResult, Resolution
from .stages import KILL_AT, BuildOptions, Corpus, Stage, die_if_asked, run_stages

log = logging.getLogger(__name__)

__all__ = [
    "BUILD_STAGES",
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

    graph: nx.DiGraph
    read: ReadResult
    #: every mention's concept, the generic concepts left out and the ambiguous acronyms
    resolution: Resolution
    mention_count: int = 0
    outputs: list[Path] = field(default_factory=list)
    #: mentions found as corpus terms (:mod:`paperkg.extract.corpus.corpus_terms`), in ``mention_count``
    corpus_term_mentions: int = 0
    #: mentions whose label the corpus vote or their name changed (:mod:`paperkg.extract.corpus.labels`)
    relabelled_mentions: int = 0
    #: papers whose extraction came from the cache (:mod:`paperkg.extract.nlp.cache`)
    from_cache: int = 0
    #: seconds each stage of :data:`BUILD_STAGES` took, by name, in order
    seconds: dict[str, float] = field(default_factory=dict)

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
            and not any(k in PAPER_EDGE_TYPES for _, _, k in self.graph.out_edges(n, data="type"))
        ]


#: The build, stage by stage: each is a function of :mod:`paperkg.stages` from the
#: corpus state to the next; :func:`build` runs them in this order.
BUILD_STAGES: tuple[Stage, ...] = (
    Stage("reading inputs", stages.read),
    Stage("extracting mentions", stages.extract),
    Stage("finding corpus terms", stages.add_corpus_terms, wanted=lambda o: o.corpus_terms),
    Stage("reading titles and voting labels", stages.read_titles_and_vote_labels),
    Stage("resolving concepts", stages.resolve),
    Stage("building the graph", stages.build_graph),
)

#: what :func:`build` tells ``on_step`` it does after extraction, in order
CORPUS_STEPS = tuple(stage.name for stage in BUILD_STAGES[2:])


#: what :func:`write_outputs` tells ``on_step`` it does, in order (the names it writes)
OUTPUT_STEPS = (
    "writing graph.json",
    "writing graph.graphml",
    "writing graph.html",
    "writing neo4j/",
    "switching outputs",
)


def _silent(_step: str) -> None:
    """The ``on_step`` of a caller that does not ask for one."""


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
    """Read ``paths``, extract mentions, resolve concepts and build the graph:
    :data:`BUILD_STAGES`, in order.

    ``min_cooccurrence`` defaults to 1 for corpora under 500 papers and 2 above, so a
    large corpus does not drown in one-off co-occurrence edges. ``on_step`` is called
    with each stage's name as it starts (at 100,000 papers the corpus steps take
    minutes, which a user should see named); ``on_read`` once the inputs are read
    (e.g. to size a progress bar); ``on_paper`` after each paper is extracted (or,
    with ``on_cached``, ``on_cached`` once with the number found in the extraction
    cache, and ``on_paper`` for the others only: a rate of papers per second then
    counts extracted papers alone). ``corpus_terms`` also finds, in every abstract,
    the terms the extractor tagged consistently in other abstracts of the corpus.
    ``jobs`` processes extract in parallel (default: one per core), with the same
    results as one. With ``cache_dir`` (e.g.
    :func:`~paperkg.extract.nlp.cache.default_cache_dir`), each paper's extraction is
    kept there and reused while its text and the pipeline stay the same, so a
    rebuild extracts only new or changed papers. With ``dask`` (a scheduler
    address, or ``local``), the workers of that Dask cluster extract instead
    (:mod:`paperkg.extract.nlp.dask_cluster`), and vote the labels and count the
    co-occurrences over the table of mentions
    (:mod:`paperkg.extract.corpus.mention_table`); the graph is the same.
    """
    options = BuildOptions(
        format=format, model=model, alias_file=alias_file, on_error=on_error,
        min_cooccurrence=min_cooccurrence, corpus_terms=corpus_terms, jobs=jobs,
        cache_dir=cache_dir, dask=dask, on_paper=on_paper, on_cached=on_cached, on_read=on_read,
    )  # fmt: skip
    try:
        corpus = run_stages(BUILD_STAGES, Corpus(list(paths), options), on_step)
    finally:
        forget_memoised_names()  # they hold every name of the corpus
    mention_count = len(corpus.mentions)
    log.info("%d papers, %d mentions, %d nodes", len(corpus.read.papers), mention_count,
             len(corpus.graph))  # fmt: skip
    return BuildResult(
        graph=corpus.graph,
        read=corpus.read,
        resolution=corpus.resolution,
        mention_count=mention_count,
        corpus_term_mentions=corpus.corpus_term_mentions,
        relabelled_mentions=corpus.relabelled_mentions,
        from_cache=corpus.from_cache,
        seconds=corpus.seconds,
    )


def build_graph(paths: Iterable[str | Path] | str | Path, **options) -> nx.DiGraph:
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
    graph: nx.DiGraph,
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

    def step(name: str) -> None:
        die_if_asked(name)
        (on_step or _silent)(name)

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
