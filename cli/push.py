"""``paperkg push``: load a built graph into a running Neo4j."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..errors import PaperkgError
from ..export.neo4j_load import DEFAULT_BATCH_SIZE
from . import app

console = Console()
err_console = Console(stderr=True)


@app.command()
def push(
    outdir: Annotated[
        Path, typer.Argument(help="Output folder of `paperkg build` (or its graph.json).")
    ],
    uri: Annotated[
        str,
        typer.Option(
            help="Neo4j address, e.g. bolt://localhost:7687 or neo4j+s://xxxx.databases.neo4j.io."
        ),
    ],
    user: Annotated[str, typer.Option(help="Neo4j user.")] = "neo4j",
    database: Annotated[
        str | None, typer.Option(help="Target database (default: the user's home database).")
    ] = None,
    batch_size: Annotated[
        int, typer.Option(min=1, help="Rows per write transaction.")
    ] = DEFAULT_BATCH_SIZE,
    prune: Annotated[
        bool,
        typer.Option(
            help="Make the database's paperkg nodes and relationships equal to this build: "
            "delete those it lacks (nodes of other labels are left alone)."
        ),
    ] = False,
) -> None:
    """Load OUTDIR/graph.json into Neo4j (password from NEO4J_PASSWORD).

    Safe to repeat: nodes and relationships are MERGEd, properties updated.
    Without --prune nothing is deleted.
    """
    from ..export.neo4j_load import push_to_neo4j
    from ..graph.io import load_graph

    progress = Progress(
        TextColumn("pushing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
        disable=not err_console.is_terminal,
    )
    task = progress.add_task("push", total=None)

    def advance(done: int, total: int) -> None:
        progress.start()  # only once rows flow, so connection errors print on a clean line
        progress.update(task, completed=done, total=total)

    try:
        graph = load_graph(outdir)
        try:
            report = push_to_neo4j(
                graph,
                uri=uri,
                user=user,
                database=database,
                batch_size=batch_size,
                progress=advance,
                prune=prune,
            )
        finally:
            progress.stop()
    except PaperkgError as e:
        err_console.print(f"[red]error:[/red] {e}", highlight=False, soft_wrap=True)
        raise typer.Exit(1) from e
    print_push_report(report, uri=uri)


def print_push_report(report, *, uri: str) -> None:
    """A short table of what a push sent and created (for ``push`` and ``build --neo4j-uri``)."""
    console.print(
        f"pushed to {uri} (database {report.database or 'default'}, Neo4j {report.server_version})",
        highlight=False,
        soft_wrap=True,
    )
    table = Table()
    table.add_column("label / type")
    table.add_column("in graph", justify="right")
    for name, n in [*report.nodes.items(), *report.relationships.items()]:
        table.add_row(name, str(n))
    console.print(table)
    console.print(
        f"created {report.nodes_created} nodes and {report.relationships_created} relationships; "
        f"the others already existed and were updated ({report.batches} batches, "
        f"{report.seconds:.1f} s)",
        highlight=False,
        soft_wrap=True,
    )
    if report.nodes_deleted or report.relationships_deleted:
        console.print(
            f"pruned {report.nodes_deleted} nodes and {report.relationships_deleted} "
            "relationships the build no longer has",
            highlight=False,
        )
