"""``paperkg analyze``: the analytics of a built graph, in the terminal and as a report."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from .app import app
from .output import console


@app.command()
def analyze(
    graph_path: Annotated[
        Path, typer.Argument(help="graph.json, or the folder `paperkg build` wrote.")
    ],
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Also write the report here: CSV tables, PNG plots and index.html "
            "(linked to the build's graph.html).",
        ),
    ] = None,
    label: Annotated[
        str | None,
        typer.Option(help="Only concepts of this label (Method, Dataset, Task, Metric)."),
    ] = None,
    top: Annotated[int, typer.Option(help="How many rows per table.")] = 10,
    paper: Annotated[
        str | None, typer.Option(help="Also list the papers most similar to this paper id.")
    ] = None,
    backend: Annotated[
        str,
        typer.Option(
            help="Where PageRank and betweenness run: networkx, igraph (faster, same scores; "
            "pip install 'paperkg\\[fast]'), or auto: igraph where installed."
        ),
    ] = "auto",
    seed: Annotated[int, typer.Option(help="Seeds the communities and the map.")] = 0,
) -> None:
    """Central concepts, communities, co-occurrences, trends and similar papers."""
    from ..export.field_analysis import analyse_field
    from ..export.report import write_report
    from ..graph import analytics, load_graph

    graph = load_graph(graph_path)
    analysis = analyse_field(graph, top=max(top, 20), seed=seed, backend=backend)
    similar = analytics.similar_papers_explained(graph, f"paper:{paper}", n=top) if paper else []

    def name(node: str) -> str:
        # names are text: "[bold]" in a concept name is shown, not read as rich markup
        return escape(analytics.base.display_name(graph, node))

    community_of = {c: com.number for com in analysis.communities for c in com.concepts}
    central = analytics.central_concepts(graph, label=label, n=top, backend=backend)
    table = Table(title="Central concepts (PageRank on co-occurrence)")
    for col in ("concept", "label", "papers", "score", "community"):
        table.add_column(col)
    for node, score in central:
        d = graph.nodes[node]
        table.add_row(
            name(node),
            d["label"],
            str(d.get("paper_count", 0)),
            f"{score:.4f}",
            str(community_of.get(node, "")),
        )
    console.print(table)

    table = Table(title="Largest communities")
    for col in ("community", "concepts", "papers", "named by its most mentioned concepts"):
        table.add_column(col)
    for community in analysis.communities[:top]:
        table.add_row(
            str(community.number),
            str(len(community.concepts)),
            str(len(community.papers)),
            ", ".join(name(c) for c in community.concepts[:6]),
        )
    console.print(table)

    trends = [t for t in analysis.trends if label is None or t.label == label]
    if trends:
        table = Table(title="Rising and falling concepts (share of each year's papers)")
        for col in ("concept", "label", "papers", "first year %", "last year %", "points/year"):
            table.add_column(col)
        half = max(1, top // 2)
        shown = [t for t in trends if t.slope > 0][:half] + [t for t in trends if t.slope < 0][
            -half:
        ]
        for t in shown:
            table.add_row(
                escape(t.name), t.label, str(t.papers), f"{t.first_share:.1f}", f"{t.last_share:.1f}",
                f"{t.slope:+.2f}",
            )  # fmt: skip
        console.print(table)

    if paper:
        table = Table(title=f"Papers most similar to {name('paper:' + paper)}")
        for col in ("paper", "similarity", "shared concepts, rarest first"):
            table.add_column(col)
        for row in similar:
            table.add_row(name(row.paper), f"{row.score:.3f}", ", ".join(map(name, row.shared[:5])))
        console.print(table)

    if output is not None:
        folder = graph_path if graph_path.is_dir() else graph_path.parent
        map_html = folder / "graph.html"
        index = write_report(
            graph,
            output,
            analysis=analysis,
            map_html=map_html if map_html.exists() else None,
            title=f"paperkg report: {folder.resolve().name}",
            seed=seed,
        )
        console.print(f"wrote the report: {index}", highlight=False)
