"""The report's ``index.html``: every plot with a caption and the head of every table.

A reader opens one page and sees the field: the map, the central concepts,
the communities, what goes with what, the trends and what the corpus proposes,
each section with its plot, the first rows of its table and a link to the full
CSV file beside it. The page needs no network (its style is inline) and every
name in it is escaped text, never HTML: a concept called ``<script>`` is shown
as typed.
"""

from __future__ import annotations

import html

import networkx as nx

from ..graph.analytics import Proposal
from ..graph.schema import CONCEPT_LABELS
from .field_analysis import CO_OCCURRENCE_TABLES, FieldAnalysis, paper_name

__all__ = ["index_page"]

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


def index_page(
    graph: nx.DiGraph,
    analysis: FieldAnalysis,
    files: dict[str, str],
    plots: dict[str, str],
    map_link: str | None,
    title: str,
) -> str:
    """The page of the report of ``graph``, one section after the other.

    ``files`` and ``plots`` name the CSV and PNG files written beside the page,
    by key (a plot that was not drawn has no key and no figure); ``map_link`` is
    the interactive map's address relative to the page, if there is one.
    """
    parts = [
        *_head(analysis, map_link, title),
        *_map_section(plots, map_link),
        *_central_section(analysis, files, plots),
        *_communities_section(graph, analysis, files, plots),
        *_cooccurrence_section(analysis, files, plots),
        *_trends_section(analysis, files, plots),
        *_proposals_section(analysis, files),
        f'<p class="summary">Written by paperkg from {analysis.papers:,} papers.</p>',
        "</body></html>",
    ]
    return "\n".join(p for p in parts if p)


def _head(a: FieldAnalysis, map_link: str | None, title: str) -> list[str]:
    """The document's head, the title, a one-line summary of the corpus and the navigation."""
    counts = ", ".join(f"{n:,} {label.lower()}s" for label, n in a.concepts.items() if n)
    span = f"{min(a.years)}–{max(a.years)}" if len(a.years) > 1 else ""
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
    return parts


def _map_section(plots: dict[str, str], map_link: str | None) -> list[str]:
    """The concept map as a still image, with a link to the interactive one."""
    if "map" not in plots:
        return []
    parts = ["<h2>The map</h2>"]
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
    return parts


def _central_section(a: FieldAnalysis, files: dict[str, str], plots: dict[str, str]) -> list[str]:
    """The top concepts per label, with their PageRank and betweenness."""
    parts = ['<h2 id="central">Central concepts</h2>']
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
    return parts


def _communities_section(
    graph: nx.DiGraph, a: FieldAnalysis, files: dict[str, str], plots: dict[str, str]
) -> list[str]:
    """The largest communities, named by their concepts, with a paper or two of each."""
    parts = ['<h2 id="communities">Communities</h2>']
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
                    "; ".join(paper_name(graph, p) for p in c.papers[:2]),
                )
                for c in a.communities[:15]
            ),
            numeric={0, 2, 3},
        )  # fmt: skip
        if a.communities
        else "<p>No community of two or more concepts.</p>"
    )
    parts.append(_csv_link(files, "communities"))
    return parts


def _cooccurrence_section(
    a: FieldAnalysis, files: dict[str, str], plots: dict[str, str]
) -> list[str]:
    """The pairs of concepts most papers mention together, one table per pair of labels."""
    parts = ['<h2 id="cooccurrence">What goes with what</h2>']
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
    return parts


def _trends_section(a: FieldAnalysis, files: dict[str, str], plots: dict[str, str]) -> list[str]:
    """The steepest rising and falling concepts, or why there are none."""
    parts = ['<h2 id="trends">Trends</h2>']
    if not a.trends:
        parts.append(f"<p>No trends: {_e(_why_no_trends(a))}.</p>")
        return parts
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
    return parts


def _why_no_trends(a: FieldAnalysis) -> str:
    if len(a.years) == 1:
        return f"all dated papers are from {next(iter(a.years))}"
    if len(a.years) > 1:
        return f"no concept is mentioned by enough dated papers ({a.trend_min_papers})"
    return "the papers have no years"


def _proposals_section(a: FieldAnalysis, files: dict[str, str]) -> list[str]:
    """What the papers propose, grouped by the task they address."""
    parts = ['<h2 id="proposals">What the corpus proposes, per task</h2>']
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
    return parts


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
