"""``paperkg view``: graph.json in, one self-contained interactive HTML page (or an image) out."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from ..defaults import DEFAULT_MAP_NODES, DEFAULT_MAX_NODES, MAP_MIN_PAPERS
from .app import app
from .output import console


class Mode(str, Enum):
    auto = "auto"
    map = "map"
    papers = "papers"


class Format(str, Enum):
    html = "html"
    png = "png"
    svg = "svg"


@app.command()
def view(
    graph_path: Annotated[
        Path, typer.Argument(help="graph.json written by `paperkg build` (or its folder).")
    ],
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help="The file to write (default: view.html, view.png, view.svg)."
        ),
    ] = None,
    mode: Annotated[
        Mode,
        typer.Option(
            help="map: the most used concepts, clustered, papers on click; papers: papers and "
            f"their concepts; auto: the map above {MAP_MIN_PAPERS} papers."
        ),
    ] = Mode.auto,
    output_format: Annotated[
        Format,
        typer.Option(
            "--format",
            help="html: the interactive page; png or svg: a still image of the map.",
        ),
    ] = Format.html,
    around: Annotated[
        str | None,
        typer.Option(
            help="Only this concept (name or alias), its papers and their concepts, "
            "in the papers view."
        ),
    ] = None,
    max_nodes: Annotated[
        int | None,
        typer.Option(
            help=f"Draw at most this many nodes: the map's most used concepts (default "
            f"{DEFAULT_MAP_NODES}), or the papers view's most connected concepts and their "
            f"papers (default {DEFAULT_MAX_NODES})."
        ),
    ] = None,
    labels: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated node labels to draw, e.g. Method,Dataset (add Paper to keep "
            "papers in the papers view). Default: all."
        ),
    ] = None,
    min_papers: Annotated[
        int, typer.Option(help="Leave out concepts found in fewer papers than this.")
    ] = 0,
    max_edges: Annotated[
        int | None,
        typer.Option(
            help="Papers view: draw at most this many edges (default: 3 per node, at least 5000)."
        ),
    ] = None,
    physics: Annotated[
        bool | None,
        typer.Option(
            help="Papers view: force live physics on or off (default: on up to 400 nodes, else "
            "positions are computed in advance)."
        ),
    ] = None,
) -> None:
    """Write a view of GRAPH_PATH: the map of the field, or papers and their concepts.

    The page works offline (nothing is loaded from the network) and says what it left out.
    """
    from ..export.html import write_html
    from ..export.html_map import prefers_map, write_map_html
    from ..graph.io import load_graph
    from ..graph.neighbourhood import neighbourhood

    target = output or Path(f"view.{output_format.value}")
    label_list = labels.split(",") if labels else None
    title = f"paperkg: {graph_path}"
    graph = load_graph(graph_path)
    if around:
        graph = neighbourhood(graph, around)
        title = f"paperkg: {around} in {graph_path}"
    as_map = mode is Mode.map or (mode is Mode.auto and not around and prefers_map(graph))
    if output_format is not Format.html:
        from ..export.static_map import write_map_image

        write_map_image(
            graph,
            target.with_suffix(f".{output_format.value}"),
            max_nodes=max_nodes or DEFAULT_MAP_NODES,
            labels=label_list,
            min_papers=max(min_papers, 1),
            title=title,
        )
        console.print(f"wrote {target.with_suffix(f'.{output_format.value}')}", highlight=False)
        return
    if as_map:
        report = write_map_html(
            graph,
            target,
            max_nodes=max_nodes or DEFAULT_MAP_NODES,
            labels=label_list,
            min_papers=max(min_papers, 1),
            title=title,
        )
    else:
        report = write_html(
            graph,
            target,
            max_nodes=max_nodes or DEFAULT_MAX_NODES,
            max_edges=max_edges,
            labels=label_list,
            min_papers=min_papers,
            physics=physics,
            title=title,
        )
    for line in report.summary():
        console.print(line, highlight=False, markup=False)
