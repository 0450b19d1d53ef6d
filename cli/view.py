"""``paperkg view``: graph.json in, one self-contained interactive HTML page out."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..errors import PaperkgError
from . import app

console = Console()
err_console = Console(stderr=True)


@app.command()
def view(
    graph_path: Annotated[
        Path, typer.Argument(help="graph.json written by `paperkg build` (or its folder).")
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write.")] = Path(
        "view.html"
    ),
    max_nodes: Annotated[
        int,
        typer.Option(
            help="Draw at most this many nodes: the most connected concepts and their papers."
        ),
    ] = 2000,
    labels: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated node labels to draw, e.g. Method,Dataset (add Paper to keep "
            "papers). Default: all."
        ),
    ] = None,
    min_papers: Annotated[
        int, typer.Option(help="Leave out concepts found in fewer papers than this.")
    ] = 0,
    max_edges: Annotated[
        int | None,
        typer.Option(help="Draw at most this many edges (default: 3 per node, at least 5000)."),
    ] = None,
    physics: Annotated[
        bool | None,
        typer.Option(
            help="Force live physics on or off (default: on up to 400 nodes, else positions "
            "are computed in advance)."
        ),
    ] = None,
) -> None:
    """Write an interactive view of GRAPH_PATH: search, label filter, highlight, tooltips.

    The page works offline (nothing is loaded from the network) and says what it left out.
    """
    from ..export.html import write_html
    from ..graph.io import load_graph

    try:
        graph = load_graph(graph_path)
        report = write_html(
            graph,
            output,
            max_nodes=max_nodes,
            max_edges=max_edges,
            labels=labels.split(",") if labels else None,
            min_papers=min_papers,
            physics=physics,
            title=f"paperkg: {graph_path}",
        )
    except PaperkgError as e:
        err_console.print(f"[red]error:[/red] {e}", highlight=False)
        raise typer.Exit(1) from e
    for line in report.summary():
        console.print(line, highlight=False, markup=False)
