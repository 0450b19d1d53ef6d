"""The concept map as a still image (PNG or SVG) for papers and slides, drawn with matplotlib.

The same map as the HTML page (:func:`paperkg.graph.concept_map.concept_map`:
same concepts, links, clusters and positions for the same seed), with the
labels of the most used concepts placed largest first where they do not
overlap one already placed, and a legend naming the clusters.

Examples
--------
>>> import networkx as nx, tempfile, pathlib
>>> g = nx.DiGraph()
>>> for i, concepts in enumerate([["BERT", "GLUE"], ["BERT", "GLUE"], ["BERT", "SQuAD"]]):
...     g.add_node(f"paper:{i}", label="Paper", name=f"P{i}")
...     for c in concepts:
...         g.add_node(f"Method:{c}", label="Method", name=c)
...         g.add_edge(f"paper:{i}", f"Method:{c}", type="USES")
>>> path = write_map_image(g, pathlib.Path(tempfile.mkdtemp()) / "map.svg")
>>> path.read_text()[:5]  # an SVG document
'<?xml'
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path

import networkx as nx

from ..atomic import atomic_open
from ..defaults import DEFAULT_MAP_NODES
from ..errors import ExportError
from ..graph.concept_map import OTHER_COLOR, ConceptMap, MapCluster, concept_map
from .report_plots import plot_text

__all__ = ["IMAGE_FORMATS", "write_map_image"]

IMAGE_FORMATS = ("png", "svg")
#: labels placed at most on the image
MAX_IMAGE_LABELS = 80


def write_map_image(
    graph: nx.DiGraph,
    path: str | Path,
    *,
    max_nodes: int = DEFAULT_MAP_NODES,
    labels: Iterable[str] | None = None,
    min_papers: int = 1,
    title: str | None = None,
    seed: int = 0,
    width_in: float = 16.0,
    height_in: float = 10.0,
    dpi: int = 150,
) -> Path:
    """Write the concept map of ``graph`` as an image; the format comes from the suffix.

    Parameters
    ----------
    graph : networkx.DiGraph
        A paperkg graph.
    path : str or Path
        ``.png`` or ``.svg`` file to write (its folder is created).
    max_nodes, labels, min_papers, seed
        As for :func:`paperkg.export.html_map.write_map_html`.
    title : str, optional
        Drawn at the top.
    width_in, height_in, dpi : float, float, int
        Size of the image (inches, and dots per inch for PNG).

    Returns
    -------
    Path
        The written file.

    Raises
    ------
    ExportError
        For a suffix other than .png or .svg, or a file that cannot be written.
    """
    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in IMAGE_FORMATS:
        raise ExportError(
            f"{path}: write a .png or .svg image (got {path.suffix or 'no suffix'!r})"
        )
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cmap = concept_map(graph, max_nodes=max_nodes, labels=labels, min_papers=min_papers, seed=seed)
    # names are text: "$x$" left from LaTeX is drawn as typed, not parsed as math
    with plt.rc_context({"text.parse_math": False}):
        fig, ax = plt.subplots(figsize=(width_in, height_in), dpi=dpi)
        try:
            ax.set_axis_off()
            ax.set_aspect("equal")
            where = {n.id: (n.x, -n.y) for n in cmap.nodes}  # screen y grows down, the plot's up
            top = _draw_map(ax, cmap, where)
            _place_labels(fig, ax, cmap.nodes, where, top)
            _draw_legend(ax, cmap.clusters)
            if title:
                ax.set_title(title, fontsize=12)
            _save(fig, path, fmt)
        finally:
            plt.close(fig)
    return path


def _draw_map(ax, cmap: ConceptMap, where: dict) -> int:
    """The links under the concepts, each concept sized by its papers and coloured by its
    cluster, the view fitted to them; returns the most papers of a concept."""
    from matplotlib.collections import LineCollection

    color = {c.id: c.color for c in cmap.clusters}
    top_link = max((link.papers for link in cmap.links), default=1)
    if cmap.links:
        segments = [(where[link.source], where[link.target]) for link in cmap.links]
        widths = [0.3 + 1.5 * math.sqrt(link.papers / top_link) for link in cmap.links]
        ax.add_collection(
            LineCollection(segments, linewidths=widths, colors="#9aa5b1", alpha=0.35, zorder=1)
        )
    top = max((n.papers for n in cmap.nodes), default=1)
    ax.scatter(
        [where[n.id][0] for n in cmap.nodes],
        [where[n.id][1] for n in cmap.nodes],
        s=[12 + 500 * (n.papers / top) for n in cmap.nodes],
        c=[color.get(n.cluster, OTHER_COLOR) for n in cmap.nodes],
        edgecolors="white",
        linewidths=0.6,
        zorder=2,
    )
    if cmap.nodes:
        xs = [p[0] for p in where.values()]
        ys = [p[1] for p in where.values()]
        pad = 0.05 * max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
        ax.set_xlim(min(xs) - pad, max(xs) + pad)
        ax.set_ylim(min(ys) - pad, max(ys) + pad)
    return top


def _draw_legend(ax, clusters: list[MapCluster]) -> None:
    """A legend naming the ten largest clusters, right of the map."""
    import matplotlib.pyplot as plt

    handles = [
        plt.Line2D(
            [],
            [],
            marker="o",
            linestyle="",
            color=c.color,
            label=f"{plot_text(c.name, 200)} ({c.size})",
        )
        for c in clusters[:10]
    ]
    if handles:
        ax.legend(
            handles=handles,
            loc="upper left",
            bbox_to_anchor=(1.0, 1.0),
            fontsize=8,
            frameon=False,
            title="Clusters",
            alignment="left",
        )


def _save(fig, path: Path, fmt: str) -> None:
    """Save the figure as ``fmt`` at ``path``, whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with atomic_open(path, "wb") as f:
            fig.savefig(f, format=fmt, bbox_inches="tight", facecolor="white")
    except OSError as e:
        raise ExportError(f"cannot write {path} ({e}); check the folder is writable") from e


def _place_labels(fig, ax, nodes, where: dict, top: int) -> None:
    """Labels of the most used concepts, each only where it overlaps none placed before."""
    renderer = fig.canvas.get_renderer()
    placed = []
    for n in nodes[: 4 * MAX_IMAGE_LABELS]:  # most used first
        if len(placed) >= MAX_IMAGE_LABELS:
            break
        x, y = where[n.id]
        text = ax.text(
            x,
            y,
            plot_text(n.name, 40),
            fontsize=7 + 7 * math.sqrt(n.papers / top),
            ha="center",
            va="top",
            zorder=3,
            color="#1f2933",
        )
        box = text.get_window_extent(renderer=renderer).expanded(1.05, 1.1)
        if any(box.overlaps(other) for other in placed):
            text.remove()
        else:
            placed.append(box)
