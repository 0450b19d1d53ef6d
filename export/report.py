"""``paperkg analyze -o report/``: the analyses of a field as CSV tables, PNG plots and a page.

:func:`analyse_field` runs the analyses of :mod:`paperkg.graph.analytics` once;
:func:`write_report` writes what they found into one folder:

- ``index.html``: every plot with a caption and the head of every table, a
  link to the map view (``graph.html``) when there is one; no network needed;
- ``*.csv``: every table in full (UTF-8, a header row, one row per line);
- ``*.png``: top concepts per label, the Method × Task heat map, community
  sizes and names, rising and falling concepts (when papers span years), and
  the concept map as a still image.

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
import html
import os
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from ..atomic import atomic_directory
from ..graph import analytics
from ..graph.analytics import (
    CentralConcept,
    Community,
    CooccurrenceTable,
    Proposal,
    Trend,
)
from ..graph.schema import CONCEPT_LABELS, PAPER
from . import report_plots

__all__ = ["CO_OCCURRENCE_TABLES", "FieldAnalysis", "analyse_field", "write_report"]

#: the label pairs the report tabulates, and what each answers
CO_OCCURRENCE_TABLES = {
    ("Method", "Task"): "what each method is used for",
    ("Method", "Dataset"): "what each method is evaluated on",
    ("Dataset", "Task"): "which datasets serve which tasks",
}


@dataclass
class FieldAnalysis:
    """Everything the report shows, computed once from the graph."""

    papers: int
    concepts: dict[str, int]
    central: list[CentralConcept]
    communities: list[Community]
    tables: dict[tuple[str, str], CooccurrenceTable]
    years: dict[int, int]
    trends: list[Trend]
    #: concept -> share (percent) of each year's papers, for the trend plot
    yearly_share: dict[str, list[float]] = field(default_factory=dict)
    #: papers a concept needs to get a trend
    trend_min_papers: int = 3
    proposals: list[Proposal] = field(default_factory=list)


def analyse_field(
    graph: nx.MultiDiGraph, *, top: int = 20, seed: int = 0, backend: str = "networkx"
) -> FieldAnalysis:
    """Run every analysis of the report on ``graph``.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
    top : int
        Concepts per label in the centrality table, and rows and columns of
        the co-occurrence tables.
    seed : int
        Seeds the communities and the betweenness sample.
    backend : {"networkx", "igraph"}
        Where PageRank and betweenness run.

    Returns
    -------
    FieldAnalysis
    """
    analytics.base.check_graph(graph)
    concepts = {label: 0 for label in CONCEPT_LABELS}
    papers = 0
    for _, d in graph.nodes(data=True):
        if d.get("label") == PAPER:
            papers += 1
        elif d.get("label") in concepts:
            concepts[d["label"]] += 1
    years = analytics.years(graph)
    trend_min_papers = max(3, papers // 200)
    trends = analytics.concept_trends(graph, min_papers=trend_min_papers)
    by_year = analytics.trends_by_year(graph)
    yearly_share = {
        t.concept: [100 * by_year[t.concept].get(y, 0) / years[y] for y in years] for t in trends
    }
    return FieldAnalysis(
        papers=papers,
        concepts=concepts,
        central=analytics.centrality_table(graph, n=top, backend=backend, seed=seed),
        communities=analytics.named_communities(graph, seed=seed),
        tables={
            pair: analytics.label_cooccurrence(graph, *pair, n_rows=top, n_columns=top)
            for pair in CO_OCCURRENCE_TABLES
        },
        years=years,
        trends=trends,
        yearly_share=yearly_share,
        trend_min_papers=trend_min_papers,
        proposals=analytics.proposals_per_task(graph),
    )


def write_report(
    graph: nx.MultiDiGraph,
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
    graph : networkx.MultiDiGraph
    outdir : str or Path
        The report folder; replaced whole.
    analysis : FieldAnalysis, optional
        What :func:`analyse_field` returned, if already computed.
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
        page = _page(graph, analysis, files, plots, link, title or "paperkg report")
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


def _paper_name(graph: nx.MultiDiGraph, paper: str) -> str:
    d = graph.nodes[paper]
    return str(d.get("title") or d.get("name") or paper)


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
                    "; ".join(_paper_name(graph, p) for p in c.papers[:5]),
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


# --- the page ----------------------------------------------------------------------

_CSS = """
body { font: 15px/1.5 system-ui, sans-serif; color: #1f2933; max-width: 1100px;
       margin: 2em auto; padding: 0 1em; }
h1 { margin-bottom: 0.2em; } h2 { margin-top: 2em; border-bottom: 1px solid #d9dee3; }
.summary { color: #52606d; } figure { margin: 1em 0; } img { max-width: 100%; }
figcaption { color: #52606d; font-size: 0.9em; }
table { border-collapse: collapse; font-size: 0.88em; margin: 0.6em 0; }
th, td { border-bottom: 1px solid #e4e7eb; padding: 0.2em 0.7em; text-align: left;
         vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.csv { font-size: 0.85em; } nav a { margin-right: 1em; }
"""


def _e(value) -> str:
    return html.escape(str(value), quote=True)


def _table(header: list[str], rows, numeric: set[int] = frozenset()) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="n">{_e(v)}</td>' if i in numeric else f"<td>{_e(v)}</td>"
            for i, v in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _figure(plots: dict[str, str], key: str, caption: str) -> str:
    if key not in plots:
        return ""
    return (
        f'<figure><img src="{_e(plots[key])}" alt="{_e(caption)}">'
        f"<figcaption>{_e(caption)}</figcaption></figure>"
    )


def _csv_link(files: dict[str, str], key: str) -> str:
    return f'<p class="csv">Full table: <a href="{_e(files[key])}">{_e(files[key])}</a></p>'


def _page(graph, a: FieldAnalysis, files, plots, map_link: str | None, title: str) -> str:
    counts = ", ".join(f"{n:,} {label.lower()}s" for label, n in a.concepts.items() if n)
    span = f"{min(a.years)}–{max(a.years)}" if len(a.years) > 1 else ""
    single = f"all dated papers are from {next(iter(a.years))}" if len(a.years) == 1 else ""
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f'<p class="summary">{a.papers:,} papers; {_e(counts or "no concepts")}'
        + (f"; papers from {span}" if span else "")
        + "</p>",
    ]
    nav = ['<a href="#central">Central concepts</a>', '<a href="#communities">Communities</a>',
           '<a href="#cooccurrence">What goes with what</a>', '<a href="#trends">Trends</a>',
           '<a href="#proposals">What is proposed</a>']  # fmt: skip
    if map_link:
        nav.insert(0, f'<a href="{_e(map_link)}">Open the interactive map</a>')
    parts.append("<nav>" + "".join(nav) + "</nav>")

    if "map" in plots:
        parts.append("<h2>The map</h2>")
        parts.append(
            _figure(
                plots,
                "map",
                "The most used concepts, placed by how often papers mention "
                "them together; colours are communities.",
            )  # fmt: skip
        )
        if map_link:
            parts.append(
                f'<p><a href="{_e(map_link)}">Open the interactive map</a> to zoom, search '
                "and click through to the papers.</p>"
            )

    parts.append('<h2 id="central">Central concepts</h2>')
    parts.append(
        _figure(plots, "top_concepts", "The concepts of each label mentioned by most papers.")
    )
    parts.append(
        "<p>PageRank ranks a concept high when it is mentioned with other much-mentioned "
        "concepts; betweenness when it bridges otherwise separate parts of the field.</p>"
    )
    for label in CONCEPT_LABELS:
        rows = [r for r in a.central if r.label == label][:10]
        if rows:
            parts.append(f"<h3>{_e(label)}s</h3>")
            parts.append(
                _table(
                    ["#", "concept", "papers", "PageRank", "betweenness"],
                    (
                        (r.rank, r.name, r.papers, f"{r.pagerank:.4f}", f"{r.betweenness:.4f}")
                        for r in rows
                    ),
                    numeric={0, 2, 3, 4},
                )  # fmt: skip
            )
    parts.append(_csv_link(files, "central"))

    parts.append('<h2 id="communities">Communities</h2>')
    parts.append(
        _figure(plots, "communities", "Groups of concepts that papers mention together "
                "(seeded Louvain), named by their most mentioned concepts, with their papers.")
    )  # fmt: skip
    parts.append(
        _table(
            ["#", "named by", "concepts", "papers", "for example"],
            (
                (
                    c.number,
                    c.name,
                    len(c.concepts),
                    len(c.papers),
                    "; ".join(_paper_name(graph, p) for p in c.papers[:2]),
                )
                for c in a.communities[:15]
            ),
            numeric={0, 2, 3},
        )  # fmt: skip
        if a.communities
        else "<p>No community of two or more concepts.</p>"
    )
    parts.append(_csv_link(files, "communities"))

    parts.append('<h2 id="cooccurrence">What goes with what</h2>')
    parts.append(
        _figure(
            plots,
            "method_task",
            "Papers mentioning both a method (row) and a task "
            "(column): what each method is used for.",
        )  # fmt: skip
    )
    for (row_label, column_label), question in CO_OCCURRENCE_TABLES.items():
        key = f"{row_label.lower()}_{column_label.lower()}"
        pairs = a.tables[(row_label, column_label)].pairs()[:10]
        parts.append(f"<h3>{_e(row_label)} × {_e(column_label)}: {_e(question)}</h3>")
        parts.append(
            _table(
                [row_label, column_label, "papers"],
                ((p.row_name, p.column_name, p.papers) for p in pairs),
                numeric={2},
            )  # fmt: skip
            if pairs
            else "<p>No paper mentions both.</p>"
        )
        parts.append(_csv_link(files, key))

    parts.append('<h2 id="trends">Trends</h2>')
    if a.trends:
        parts.append(
            _figure(
                plots,
                "trends",
                "Share of each year's papers that mention a concept: the "
                "steepest rises and falls (least-squares slope).",
            )  # fmt: skip
        )
        shown = [t for t in a.trends if t.slope > 0][:8] + [t for t in a.trends if t.slope < 0][-8:]
        parts.append(
            _table(
                ["concept", "label", "papers", "first year %", "last year %", "points/year"],
                (
                    (
                        t.name,
                        t.label,
                        t.papers,
                        f"{t.first_share:.1f}",
                        f"{t.last_share:.1f}",
                        f"{t.slope:+.2f}",
                    )
                    for t in shown
                ),
                numeric={2, 3, 4, 5},
            )  # fmt: skip
        )
        parts.append(_csv_link(files, "trends"))
    else:
        if single:
            reason = single
        elif len(a.years) > 1:
            reason = f"no concept is mentioned by enough dated papers ({a.trend_min_papers})"
        else:
            reason = "the papers have no years"
        parts.append(f"<p>No trends: {_e(reason)}.</p>")

    parts.append('<h2 id="proposals">What the corpus proposes, per task</h2>')
    if a.proposals:
        parts.append(
            "<p>Methods and datasets the papers propose, grouped by the task those papers "
            "address; the tasks with most proposals first.</p>"
        )
        parts.append(
            _table(
                ["task", "papers", "methods proposed", "datasets proposed"],
                _proposal_rows(a.proposals),
                numeric={1},
            )  # fmt: skip
        )
    else:
        parts.append("<p>No paper both proposes a method or dataset and names a task.</p>")
    parts.append(_csv_link(files, "proposals"))
    parts.append(f'<p class="summary">Written by paperkg from {a.papers:,} papers.</p>')
    parts.append("</body></html>")
    return "\n".join(p for p in parts if p)


def _proposal_rows(proposals: list[Proposal], tasks: int = 15, names: int = 8):
    """One row per task: papers proposing something for it, and what (most papers first)."""
    grouped: dict[str, dict] = {}
    for p in proposals:
        row = grouped.setdefault(p.task, {"name": p.task_name, "papers": set(), "Method": [],
                                          "Dataset": []})  # fmt: skip
        row["papers"].update(p.papers)
        row.setdefault(p.label, []).append(p.name)
    ranked = sorted(grouped.values(), key=lambda r: (-len(r["papers"]), r["name"]))
    for row in ranked[:tasks]:
        yield (
            row["name"],
            len(row["papers"]),
            _names(row["Method"], names),
            _names(row["Dataset"], names),
        )


def _names(names: list[str], n: int) -> str:
    more = f" … and {len(names) - n} more" if len(names) > n else ""
    return ", ".join(names[:n]) + more
