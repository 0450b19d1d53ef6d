"""``paperkg analyze -o report/``: the analyses of a field as CSV tables, PNG plots and a page.

:func:`~paperkg.export.field_analysis.analyse_field` runs the analyses of
:mod:`paperkg.graph.analytics` once; :func:`write_report` writes what they found
into one folder:

- ``index.html`` (:mod:`.report_page`): every plot with a caption and the head
  of every table, a link to the map view (``graph.html``) when there is one; no
  network needed;
- ``*.csv``: every table in full (UTF-8, a header row, one row per line);
- ``*.png`` (:mod:`.report_plots`): top concepts per label, the Method × Task
  heat map, community sizes and names, rising and falling concepts (when papers
  span years), and the concept map as a still image.

The folder is written aside and takes the old one's place at the end, so a
failed or killed run leaves the previous report whole.

Examples
--------
>>> import tempfile, pathlib
>>> from paperkg.graph.synthetic import toy_field
>>> folder = pathlib.Path(tempfile.mkdtemp()) / "report"
>>> _ = write_report(toy_field(), folder)
>>> sorted(p.name for p in folder.iterdir())[:4]
['central_concepts.csv', 'communities.csv', 'communities.png', 'community_concepts.csv']
"""

from __future__ import annotations

import csv
import os
import urllib.parse
from pathlib import Path

import networkx as nx

from ..atomic import atomic_directory
from ..graph import analytics
from ..graph.analytics import CentralConcept, Trend
from . import report_plots
from .field_analysis import FieldAnalysis, analyse_field, paper_name
from .report_page import index_page

__all__ = ["write_report"]


def write_report(
    graph: nx.DiGraph,
    outdir: str | Path,
    *,
    analysis: FieldAnalysis | None = None,
    map_html: str | Path | None = None,
    map_image: bool = True,
    title: str | None = None,
    seed: int = 0,
) -> Path:
    """Write the report of ``graph`` into the folder ``outdir`` and return its ``index.html``.

    Parameters
    ----------
    graph : networkx.DiGraph
    outdir : str or Path
        The report folder; replaced whole.
    analysis : FieldAnalysis, optional
        What :func:`~paperkg.export.field_analysis.analyse_field` returned, if already
        computed.
    map_html : str or Path, optional
        The map view (``graph.html``) the page links to.
    map_image : bool
        Also draw the concept map as ``map.png``.
    title : str, optional
        The page's title (default: "paperkg report").
    seed : int
        Seeds the analyses and the map layout.

    Returns
    -------
    Path
        ``outdir/index.html``.
    """
    analysis = analysis or analyse_field(graph, seed=seed)
    outdir = Path(outdir)
    with atomic_directory(outdir) as folder:
        files = _write_tables(graph, analysis, folder)
        plots = _write_plots(analysis, folder)
        if map_image and analysis.concepts and sum(analysis.concepts.values()):
            from .static_map import write_map_image

            write_map_image(graph, folder / "map.png", seed=seed, width_in=14, height_in=9, dpi=90)
            plots["map"] = "map.png"
        link = None
        if map_html is not None:
            # relative to where the page will be, so the pair can be moved together
            relative = Path(os.path.relpath(Path(map_html).resolve(), outdir.resolve()))
            link = urllib.parse.quote(relative.as_posix())  # a folder named "a#b" still links
        page = index_page(graph, analysis, files, plots, link, title or "paperkg report")
        (folder / "index.html").write_text(page, encoding="utf-8", errors="replace")
    return outdir / "index.html"


# --- tables ------------------------------------------------------------------------


def _write_csv(path: Path, header: list[str], rows) -> str:
    # errors="replace": a lone surrogate in a hand-made graph.json becomes "?", not a crash
    with path.open("w", encoding="utf-8", errors="replace", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(header)
        writer.writerows(rows)
    return path.name


def _write_tables(graph, analysis: FieldAnalysis, folder: Path) -> dict[str, str]:
    name = analytics.base.display_name
    files = {
        "central": _write_csv(
            folder / "central_concepts.csv", list(CentralConcept._fields), analysis.central
        ),
        "communities": _write_csv(
            folder / "communities.csv",
            ["community", "name", "concepts", "papers", "top_concepts", "top_papers"],
            (
                (
                    c.number,
                    c.name,
                    len(c.concepts),
                    len(c.papers),
                    "; ".join(name(graph, x) for x in c.concepts[:10]),
                    "; ".join(paper_name(graph, p) for p in c.papers[:5]),
                )
                for c in analysis.communities
            ),
        ),
        "community_concepts": _write_csv(
            folder / "community_concepts.csv",
            ["community", "concept", "name", "label", "papers"],
            (
                (
                    c.number,
                    x,
                    name(graph, x),
                    graph.nodes[x].get("label"),
                    analytics.base.paper_count(graph, x),
                )
                for c in analysis.communities
                for x in c.concepts
            ),
        ),  # fmt: skip
        "trends": _write_csv(folder / "trends.csv", list(Trend._fields), analysis.trends),
        "years": _write_csv(
            folder / "papers_per_year.csv", ["year", "papers"], analysis.years.items()
        ),
        "proposals": _write_csv(
            folder / "proposals.csv",
            ["task", "task_name", "concept", "name", "label", "papers", "paper_ids"],
            (
                (
                    p.task,
                    p.task_name,
                    p.concept,
                    p.name,
                    p.label,
                    len(p.papers),
                    "; ".join(p.papers),
                )
                for p in analysis.proposals
            ),
        ),
    }
    for (row_label, column_label), table in analysis.tables.items():
        key = f"{row_label.lower()}_{column_label.lower()}"
        files[key] = _write_csv(
            folder / f"{key}.csv",
            [row_label.lower(), column_label.lower(), "papers", "row_id", "column_id"],
            ((p.row_name, p.column_name, p.papers, p.row, p.column) for p in table.pairs()),
        )
    return files


def _write_plots(analysis: FieldAnalysis, folder: Path) -> dict[str, str]:
    plots = {}
    if analysis.central:
        report_plots.plot_top_concepts(analysis.central, folder / "top_concepts.png")
        plots["top_concepts"] = "top_concepts.png"
    table = analysis.tables.get(("Method", "Task"))
    if table is not None and table.rows and table.columns:
        report_plots.plot_heat_map(table, folder / "method_task.png")
        plots["method_task"] = "method_task.png"
    if analysis.communities:
        report_plots.plot_communities(analysis.communities, folder / "communities.png")
        plots["communities"] = "communities.png"
    if analysis.trends:
        report_plots.plot_trends(
            analysis.trends, analysis.yearly_share, list(analysis.years), folder / "trends.png"
        )
        plots["trends"] = "trends.png"
    return plots
