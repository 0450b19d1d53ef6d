"""Write a paperkg graph as one self-contained, interactive HTML page (vis-network).

The page works offline from a single file: vis-network (shipped inside the
installed pyvis) and the page's own CSS and JavaScript are inlined, nothing is
fetched from a CDN. It fixes the problems pyvis pages are known for:

* **Offline** (pyvis #229): no ``<script src>``/``<link href>`` at all; pyvis's
  own template would still pull Bootstrap and tom-select from CDNs, so the page
  is rendered from ``assets/view.html`` instead.
* **Safe** (vis-network's XSS history): the graph travels as JSON inside a
  ``<script type="application/json">`` with ``<``, ``>`` and ``&`` escaped, and
  the page builds tooltips with ``textContent``, so a title such as
  ``<img src=x onerror=alert(1)>`` or ``</script>`` shows as text and runs nothing.
* **Filtering never loses nodes** (pyvis #193): the label filter toggles
  vis-network's ``hidden`` flag on the same DataSet instead of rebuilding it.
* **Large graphs** (pyvis #204): :func:`write_html` keeps the most connected
  concepts and their papers up to ``max_nodes``; above
  :data:`PHYSICS_MAX_NODES` the positions are computed here (a grid-accelerated
  Fruchterman-Reingold layout in numpy) and physics is off, so the page is
  usable as soon as it is drawn. :class:`ViewReport` says what was left out.

This module runs the view from graph to file; its parts have their own
modules: which nodes and edges are drawn (:mod:`.view_selection`), how they
look (:mod:`.view_network`), the data's escaping (:mod:`.script_json`) and the
offline page's assets and write (:mod:`.offline_page`).

Examples
--------
>>> import networkx as nx
>>> g = nx.DiGraph()
>>> g.add_node("paper:1", label="Paper", name="P1", title="P1", year=2025)
>>> g.add_node("Method:lads", label="Method", name="LADS", aliases=["LADS"], paper_count=1)
>>> g.add_edge("paper:1", "Method:lads", type="PROPOSES", evidence="We propose LADS.")
>>> import tempfile, pathlib
>>> report = write_html(g, pathlib.Path(tempfile.mkdtemp()) / "graph.html")
>>> (report.nodes_drawn, report.edges_drawn, report.nodes_left_out, report.physics)
(2, 1, 0, True)
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx
import numpy as np

from ..defaults import DEFAULT_MAX_NODES, EDGES_PER_NODE, PHYSICS_MAX_NODES
from ..errors import ExportError
from ..graph.layout import spring_layout
from ..graph.schema import NODE_LABELS
from ..graph.validate import check_graph
from .offline_page import ASSETS, inline_asset, render_page, write_page
from .styles import OTHER_STYLE, STYLES
from .view_network import view_network
from .view_selection import check_labels, count_labels, edge_pairs, select_edges, select_nodes

__all__ = [
    "DEFAULT_MAX_NODES",
    "EDGES_PER_NODE",
    "PHYSICS_MAX_NODES",
    "ViewReport",
    "write_html",
]

log = logging.getLogger(__name__)


@dataclass
class ViewReport:
    """What :func:`write_html` drew and what it left out."""

    path: Path
    nodes_drawn: int
    edges_drawn: int
    nodes_left_out: int
    edges_left_out: int
    #: True when the page runs vis-network physics; False when positions were precomputed
    physics: bool
    #: nodes drawn per label
    drawn_by_label: dict[str, int] = field(default_factory=dict)
    #: nodes left out per label
    left_out_by_label: dict[str, int] = field(default_factory=dict)
    #: one line per reason a node was left out, for the user
    reasons: list[str] = field(default_factory=list)
    file_size: int = 0

    def summary(self) -> list[str]:
        """Short human-readable lines, e.g. for the CLI."""
        drawn = ", ".join(f"{n} {label}" for label, n in self.drawn_by_label.items() if n)
        layout = "live physics" if self.physics else "positions computed in advance, physics off"
        lines = [
            f"Drew {self.nodes_drawn} nodes ({drawn or 'none'}) and {self.edges_drawn} edges "
            f"({layout}) into {self.path} ({self.file_size / 1e6:.1f} MB)."
        ]
        if self.nodes_left_out or self.edges_left_out:
            out = ", ".join(f"{n} {label}" for label, n in self.left_out_by_label.items() if n)
            lines.append(
                f"Left out {self.nodes_left_out} nodes ({out or 'none'}) "
                f"and {self.edges_left_out} edges:"
            )
            lines.extend(f"  - {reason}" for reason in self.reasons)
        return lines


def write_html(
    graph: nx.DiGraph,
    path: str | Path,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_edges: int | None = None,
    labels: Iterable[str] | None = None,
    min_papers: int = 0,
    title: str = "paperkg graph",
    physics: bool | None = None,
    seed: int = 0,
) -> ViewReport:
    """Write ``graph`` as a self-contained interactive HTML page at ``path``.

    Parameters
    ----------
    graph : networkx.DiGraph
        A paperkg graph (see :mod:`paperkg.graph.schema`).
    path : str or Path
        The HTML file to write (its folder is created).
    max_nodes : int
        Draw at most this many nodes: concepts by decreasing paper count (then
        degree), each followed by its papers, until the budget is spent.
    max_edges : int, optional
        Draw at most this many edges (default: ``EDGES_PER_NODE`` per drawn
        node, at least ``MIN_EDGE_BUDGET``). Paper-concept edges come first,
        then co-occurrence edges by decreasing weight: vis-network spends about
        0.1 ms per edge on load.
    labels : iterable of str, optional
        Node labels to draw, e.g. ``["Method", "Dataset"]``; include ``"Paper"``
        to keep papers. Default: every label.
    min_papers : int
        Leave out concepts found in fewer papers than this.
    title : str
        The page title (escaped).
    physics : bool, optional
        Force live physics on or off; by default on up to
        :data:`PHYSICS_MAX_NODES` drawn nodes.
    seed : int
        Seed of the precomputed layout, so the same graph gives the same page.

    Returns
    -------
    ViewReport
        Counts of what was drawn and left out, and whether physics is on.

    Raises
    ------
    ExportError
        For an unknown label, a negative limit, or a file that cannot be written.
    """
    check_graph(graph)
    path = Path(path)
    wanted = check_labels(labels)
    _check_limits(max_nodes=max_nodes, max_edges=max_edges, min_papers=min_papers)

    keep, reasons = select_nodes(graph, max_nodes=max_nodes, labels=wanted, min_papers=min_papers)
    pairs, edge_reasons = select_edges(graph, keep, max_edges=max_edges)
    use_physics = len(keep) <= PHYSICS_MAX_NODES if physics is None else physics
    positions = _positions(keep, pairs, seed=seed)

    nodes, edges, options = view_network(graph, keep, pairs, positions, physics=use_physics)
    page = _render(nodes, edges, options, graph, keep, title=title, physics=use_physics)
    write_page(path, page)

    report = _view_report(
        graph, path, keep, pairs, physics=use_physics, reasons=reasons, edge_reasons=edge_reasons
    )
    log.info("wrote %s: %d nodes, %d edges", path, report.nodes_drawn, report.edges_drawn)
    return report


def _view_report(
    graph: nx.DiGraph,
    path: Path,
    keep: set,
    pairs: dict,
    *,
    physics: bool,
    reasons: list[str],
    edge_reasons: list[str],
) -> ViewReport:
    """What was drawn into ``path``, what was left out and why (no reason when nothing was)."""
    left_out = [n for n in graph.nodes if n not in keep]
    return ViewReport(
        path=path,
        nodes_drawn=len(keep),
        edges_drawn=len(pairs),
        nodes_left_out=len(left_out),
        edges_left_out=len(edge_pairs(graph, set(graph.nodes))) - len(pairs),
        physics=physics,
        drawn_by_label=count_labels(graph, keep),
        left_out_by_label=count_labels(graph, left_out),
        reasons=reasons + edge_reasons if left_out or edge_reasons else [],
        file_size=path.stat().st_size,
    )


def _check_limits(*, max_nodes: int, max_edges: int | None, min_papers: int) -> None:
    """Refuse a limit that cannot be met, with what to pass instead."""
    if max_nodes < 1:
        raise ExportError(f"max_nodes must be at least 1, got {max_nodes}; pass e.g. 2000")
    if max_edges is not None and max_edges < 0:
        raise ExportError(f"max_edges must be 0 or more, got {max_edges}")
    if min_papers < 0:
        raise ExportError(f"min_papers must be 0 or more, got {min_papers}")


def _positions(keep: set, pairs: dict, *, seed: int) -> dict:
    """Node -> (x, y) in pixels, from :func:`paperkg.graph.layout.spring_layout`."""
    order = sorted(keep, key=str)
    index = {n: i for i, n in enumerate(order)}
    src = np.array([index[u] for u, _ in pairs], dtype=np.int64)
    dst = np.array([index[v] for _, v in pairs], dtype=np.int64)
    xy = spring_layout(len(order), src, dst, seed=seed) * 40.0
    return {n: (float(xy[i, 0]), float(xy[i, 1])) for n, i in index.items()}


def _render(
    nodes: list,
    edges: list,
    options: dict,
    graph: nx.DiGraph,
    keep: set,
    *,
    title: str,
    physics: bool,
) -> Iterator[str]:
    present = count_labels(graph, keep)
    legend = [
        {"label": label, "count": present.get(label, 0), **STYLES.get(label, OTHER_STYLE)}
        for label in NODE_LABELS
        if present.get(label, 0)
    ]
    data = {
        "nodes": nodes,
        "edges": edges,
        "options": options,
        "physics": physics,
        "large": len(nodes) > PHYSICS_MAX_NODES,
        "legend": legend,
        "dim": {"background": "rgba(200,200,200,0.35)", "border": "rgba(170,170,170,0.45)"},
        "dimEdge": "rgba(200,200,200,0.25)",
    }
    return render_page(
        "view.html",
        data,
        title=title,
        legend=legend,
        view_js=inline_asset(ASSETS / "view.js"),
        view_css=inline_asset(ASSETS / "view.css"),
        node_count=len(nodes),
        edge_count=len(edges),
    )
