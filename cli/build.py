"""``paperkg build``: abstracts in, graph files out."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from .app import app
from .output import console, err_console, print_push_report

#: exit code of a build that wrote its outputs but skipped bad records
EXIT_SKIPPED = 3


class PapersPerSecond(ProgressColumn):
    """The extraction rate, the number a user compares between --jobs and machines:
    papers extracted (those from the cache, the task's ``cached`` field, aside) over
    the time since extraction started. An average, not rich's recent speed, which
    reads a batch of papers finished together as thousands per second."""

    def render(self, task) -> Text:
        if task.fields.get("step") or not task.elapsed:
            return Text("")
        extracted = task.completed - task.fields.get("cached", 0)
        return Text(f"{extracted / task.elapsed:.1f} papers/s" if extracted > 0 else "")


class PapersDone(MofNCompleteColumn):
    """Papers extracted of all; nothing once the build is past extraction."""

    def render(self, task) -> Text:
        return Text("") if task.fields.get("step") else super().render(task)


@app.command()
def build(
    inputs: Annotated[
        list[str],
        typer.Argument(help="Input files or globs: .txt, .json, .jsonl, .csv, .tsv, .bib."),
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="Folder for the outputs.")] = Path(
        "out"
    ),
    format: Annotated[
        str | None,
        typer.Option(
            help="Input format when the extension does not say: text, json, jsonl, csv, tsv, bibtex."
        ),
    ] = None,
    model: Annotated[
        str | None,
        typer.Option(
            help="Extraction model: accurate (the shipped transformer NER, the default) "
            "or a spaCy pipeline folder."
        ),
    ] = None,
    aliases: Annotated[
        Path | None,
        typer.Option(help="Alias file (CSV or YAML) overriding automatic concept merges."),
    ] = None,
    strict: Annotated[
        bool, typer.Option(help="Stop at the first bad record instead of skipping it.")
    ] = False,
    min_cooccurrence: Annotated[
        int | None,
        typer.Option(
            help="Least papers for a concept co-occurrence edge (default 1, or 2 above 500 papers)."
        ),
    ] = None,
    corpus_terms: Annotated[
        bool,
        typer.Option(
            help="Also find in every abstract the terms the extractor tagged consistently "
            "in other abstracts of the corpus."
        ),
    ] = True,
    html: Annotated[bool, typer.Option(help="Write the interactive graph.html.")] = True,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            help="Processes that extract in parallel (default: one per core).",
        ),
    ] = None,
    cache: Annotated[
        bool,
        typer.Option(
            help="Reuse each paper's extraction while its text and the pipeline are unchanged, "
            "so a rebuild extracts only new papers."
        ),
    ] = True,
    cache_dir: Annotated[
        Path | None,
        typer.Option(
            help="Folder of the extraction cache, one file extractions.sqlite "
            "(default: $PAPERKG_CACHE_DIR, else ~/.cache/paperkg)."
        ),
    ] = None,
    dask: Annotated[
        str | None,
        typer.Option(
            metavar="ADDRESS",
            help="Extract, vote labels and count co-occurrences on this Dask cluster "
            "(scheduler address, e.g. tcp://host:8786), or 'local' for a cluster of this "
            "machine's cores; needs paperkg[dask].",
        ),
    ] = None,
    neo4j_uri: Annotated[
        str | None,
        typer.Option(help="Also load the graph into this Neo4j (password from NEO4J_PASSWORD)."),
    ] = None,
    neo4j_user: Annotated[str, typer.Option(help="Neo4j user.")] = "neo4j",
    neo4j_database: Annotated[
        str | None, typer.Option(help="Neo4j database (default: the server's default).")
    ] = None,
) -> None:
    """Build the knowledge graph of INPUTS into OUTPUT (graph.json, graph.graphml,
    graph.html, neo4j/).

    Exit codes: 0 every record was built; 3 the graph was built but bad records
    were skipped (each named in the summary; --strict makes that a failure);
    1 nothing was built (one line says why); 2 the command line was wrong.
    """
    from ..api import BUILD_STAGES, write_outputs
    from ..api import build as build_result
    from ..extract.nlp.cache import default_cache_dir

    progress = Progress(
        # "extracting", then what the build does next (at 100,000 papers the corpus
        # steps and the outputs take minutes after the last paper is extracted)
        TextColumn("{task.description}"),
        BarColumn(),
        PapersDone(),
        PapersPerSecond(),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
    )
    task = progress.add_task("extracting", total=None)

    def show(step: str) -> None:
        if step == BUILD_STAGES[1].name:  # extraction: the bar on_read sized counts papers
            progress.update(task, description="extracting")
            return
        # a step of unknown length: a moving bar and its own clock, not a full bar
        # beside the extraction's stopped one
        progress.reset(task, total=None, description=step, step=True)

    with progress:
        result = build_result(
            inputs,
            format=format,
            model=model,
            alias_file=aliases,
            on_error="raise" if strict else "skip",
            min_cooccurrence=min_cooccurrence,
            corpus_terms=corpus_terms,
            jobs=jobs,
            cache_dir=(cache_dir or default_cache_dir()) if cache else None,
            dask=dask,
            on_read=lambda read: progress.update(task, total=len(read.papers)),
            on_paper=lambda _paper: progress.advance(task),
            # papers from the cache count at once, and the rate and clock start after
            # them (one by one, 3,190 of them in a few ms read as 700,000 papers/s)
            on_cached=lambda n: progress.reset(task, completed=n, cached=n),
            on_step=show,
        )
        outputs = write_outputs(result.graph, output, html=html, on_step=show)
    print_summary(result)
    if outputs.view is not None and (outputs.view.nodes_left_out or outputs.view.edges_left_out):
        for line in outputs.view.summary()[1:]:
            console.print(line, highlight=False)
        console.print(
            f"  (paperkg view {output / 'graph.json'} --max-nodes N draws more)", highlight=False
        )
    console.print("wrote " + ", ".join(str(p) for p in outputs.paths), highlight=False)
    if neo4j_uri:
        from ..export.neo4j_load import push_to_neo4j

        report = push_to_neo4j(
            result.graph, uri=neo4j_uri, user=neo4j_user, database=neo4j_database
        )
        print_push_report(report, uri=neo4j_uri)
    if result.read.skipped:
        raise typer.Exit(EXIT_SKIPPED)


def skip_kind(reason: str) -> str:
    """What kind of skip a reason is, without its particulars.

    >>> skip_kind("invalid JSON (Expecting value: line 1 column 2)")
    'invalid JSON'
    >>> skip_kind("duplicate id 'p1' (first read from a.csv#2)")
    'duplicate id'
    """
    return reason.split("(", 1)[0].split("'", 1)[0].strip() or reason


def print_summary(result) -> None:
    """The end-of-build summary: what was read, skipped, found."""
    read = result.read
    console.print(
        f"papers read: {len(read.papers)}   skipped: {len(read.skipped)}   "
        f"duplicates merged: {len(read.duplicates)}",
        highlight=False,
    )
    if result.from_cache:
        console.print(
            f"  {result.from_cache} of them from the extraction cache, "
            f"{len(read.papers) - result.from_cache} extracted (--no-cache extracts all)",
            highlight=False,
        )
    for note in read.notes:
        console.print(f"  note: {note}", highlight=False)
    if read.skipped:
        reasons = Counter(skip_kind(s.reason) for s in read.skipped)
        counted = ", ".join(f"{n} {reason}" for reason, n in reasons.most_common())
        console.print(f"  skipped records: {counted} (--strict fails on any)", highlight=False)
    for skipped in read.skipped[:20]:
        console.print(f"  skipped {skipped.source}: {skipped.reason}", highlight=False)
    if len(read.skipped) > 20:
        console.print(f"  … and {len(read.skipped) - 20} more skipped", highlight=False)
    for dropped, kept in read.duplicates[:10]:
        console.print(f"  duplicate {dropped} merged into paper {kept}", highlight=False)
    console.print(
        f"mentions: {result.mention_count} collapsed into {result.concept_count} concepts",
        highlight=False,
    )
    if result.corpus_term_mentions:
        console.print(
            f"  of which {result.corpus_term_mentions} found as terms tagged in other papers "
            "(--no-corpus-terms leaves them out)",
            highlight=False,
        )
    generic = result.resolution.generic
    if generic:
        names = [cid.partition(":")[2] for cid in list(generic)[:6]]
        console.print(
            f"  {len(generic)} generic concepts left out (no specific method, dataset, task "
            f"or metric), most mentioned: {', '.join(names)}",
            highlight=False,
        )
    if result.relabelled_mentions:
        console.print(
            f"  {result.relabelled_mentions} mentions took the label their name or the corpus "
            "gives them",
            highlight=False,
        )
    if result.resolution.ambiguous_acronyms:
        amb = result.resolution.ambiguous_acronyms
        shown = "; ".join(f"{a}: {' | '.join(forms)}" for a, forms in list(amb.items())[:5])
        console.print(f"ambiguous acronyms kept apart ({len(amb)}): {shown}", highlight=False)
    if result.seconds:
        times = " · ".join(f"{name} {seconds:.1f} s" for name, seconds in result.seconds.items())
        console.print(f"stages: {times}", highlight=False)
    lonely = result.papers_without_concepts()
    if lonely:
        console.print(f"papers with no concept: {len(lonely)}", highlight=False)

    table = Table(title="Top concepts by paper count")
    per_label = result.concepts_per_label()
    labels = [label for label, n in per_label.items() if n]
    for label in labels:
        table.add_column(f"{label} ({per_label[label]})")
    tops = [result.top_concepts(label) for label in labels]
    for i in range(max((len(t) for t in tops), default=0)):
        table.add_row(*(f"{t[i][0]} ({t[i][1]})" if i < len(t) else "" for t in tops))
    console.print(table)
