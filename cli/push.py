"""``paperkg push``: load a built graph into a running Neo4j."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..export.neo4j_rows import DEFAULT_BATCH_SIZE
from .app import app
from .output import err_console, print_push_report


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
    print_push_report(report, uri=uri)
