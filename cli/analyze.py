"""``paperkg analyze``: the Python analytics, printed for a built graph."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from . import app
from .output import console


@app.command()
def analyze(
    graph_path: Annotated[
        Path, typer.Argument(help="graph.json, or the folder `paperkg build` wrote.")
    ],
    label: Annotated[
        str | None,
        typer.Option(help="Only concepts of this label (Method, Dataset, Task, Metric)."),
    ] = None,
    top: Annotated[int, typer.Option(help="How many rows per table.")] = 10,
    paper: Annotated[
        str | None, typer.Option(help="Also list the papers most similar to this paper id.")
    ] = None,
) -> None:
    """Central concepts, communities, trends by year and similar papers."""
    from ..graph import analytics, load_graph

    graph = load_graph(graph_path)
    central = analytics.central_concepts(graph, label=label, n=top)
    communities = analytics.concept_communities(graph)
    trends = analytics.trends_by_year(graph, label=label)
    similar = analytics.similar_papers(graph, f"paper:{paper}", n=top) if paper else []

    def name(node: str) -> str:
        return graph.nodes[node].get("name", node)

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
            str(communities.get(node, "")),
        )
    console.print(table)

    sizes: dict[int, list[str]] = {}
    for node, community in communities.items():
        sizes.setdefault(community, []).append(node)
    table = Table(title="Largest communities")
    table.add_column("community")
    table.add_column("concepts")
    table.add_column("most mentioned")
    for community, members in sorted(sizes.items())[:top]:
        members.sort(key=lambda n: -graph.nodes[n].get("paper_count", 0))
        table.add_row(str(community), str(len(members)), ", ".join(name(n) for n in members[:6]))
    console.print(table)

    if any(len(years) > 1 for years in trends.values()):
        years = sorted({y for t in trends.values() for y in t})
        table = Table(title="Papers per year")
        table.add_column("concept")
        for year in years:
            table.add_column(str(year))
        for node, _ in central:
            if node in trends:
                table.add_row(name(node), *(str(trends[node].get(y, 0)) for y in years))
        console.print(table)

    if paper:
        table = Table(title=f"Papers most similar to {name('paper:' + paper)}")
        table.add_column("paper")
        table.add_column("similarity")
        for node, score in similar:
            table.add_row(name(node), f"{score:.3f}")
        console.print(table)
