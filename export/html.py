"""Write a paperkg graph as one self-contained, interactive HTML page (pyvis).

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

Examples
--------
>>> import networkx as nx
>>> g = nx.MultiDiGraph()
>>> g.add_node("paper:1", label="Paper", name="P1", title="P1", year=2025)
>>> g.add_node("Method:lads", label="Method", name="LADS", aliases=["LADS"], paper_count=1)
>>> g.add_edge("paper:1", "Method:lads", key="PROPOSES", type="PROPOSES", evidence="We propose LADS.")
'PROPOSES'
>>> import tempfile, pathlib
>>> report = write_html(g, pathlib.Path(tempfile.mkdtemp()) / "graph.html")
>>> (report.nodes_drawn, report.edges_drawn, report.nodes_left_out, report.physics)
(2, 1, 0, True)
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import networkx as nx
import numpy as np

from ..defaults import DEFAULT_MAX_NODES, EDGES_PER_NODE, MIN_EDGE_BUDGET, PHYSICS_MAX_NODES
from ..errors import ExportError
from ..graph.layout import spring_layout
from ..graph.schema import CO_OCCURS, CONCEPT_LABELS, IS_A, NODE_LABELS, PAPER, PROPOSES
from .offline_page import ASSETS, VIS_DIR, inline_asset, page_templates, write_page
from .script_json import script_json
from .styles import OTHER_STYLE, STYLES

if TYPE_CHECKING:
    from pyvis.network import Network

__all__ = [
    "DEFAULT_MAX_NODES",
    "EDGES_PER_NODE",
    "PHYSICS_MAX_NODES",
    "ViewReport",
    "write_html",
]

log = logging.getLogger(__name__)


_EDGE_COLOR = "#b8c0c8"
_PROPOSES_COLOR = "#d55e00"

_MAX_LABEL = 40
_MAX_ABSTRACT = 400
_MAX_EVIDENCE = 3


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
    graph: nx.MultiDiGraph,
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
    graph : networkx.MultiDiGraph
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
    path = Path(path)
    wanted = _check_labels(labels)
    if max_nodes < 1:
        raise ExportError(f"max_nodes must be at least 1, got {max_nodes}; pass e.g. 2000")
    if max_edges is not None and max_edges < 0:
        raise ExportError(f"max_edges must be 0 or more, got {max_edges}")
    if min_papers < 0:
        raise ExportError(f"min_papers must be 0 or more, got {min_papers}")

    keep, reasons = _select_nodes(graph, max_nodes=max_nodes, labels=wanted, min_papers=min_papers)
    all_pairs = _edge_pairs(graph, keep)
    if max_edges is None:
        budget = max(EDGES_PER_NODE * len(keep), MIN_EDGE_BUDGET)
    else:
        budget = max_edges
    pairs = _strongest_pairs(all_pairs, budget)
    if len(pairs) < len(all_pairs):
        reasons.append(
            f"{len(all_pairs) - len(pairs)} edges beyond max_edges={budget}: kept "
            "paper-concept edges first, then the strongest co-occurrences"
        )
    use_physics = len(keep) <= PHYSICS_MAX_NODES if physics is None else physics
    positions = _positions(keep, pairs, seed=seed)

    net = _network(graph, keep, pairs, positions, physics=use_physics)
    html = _render(net, graph, keep, title=title, physics=use_physics)
    write_page(path, html)

    left_out = [n for n in graph.nodes if n not in keep]
    report = ViewReport(
        path=path,
        nodes_drawn=len(keep),
        edges_drawn=len(pairs),
        nodes_left_out=len(left_out),
        edges_left_out=len(_edge_pairs(graph, set(graph.nodes))) - len(pairs),
        physics=use_physics,
        drawn_by_label=_count_labels(graph, keep),
        left_out_by_label=_count_labels(graph, left_out),
        reasons=reasons if left_out or len(pairs) < len(all_pairs) else [],
        file_size=path.stat().st_size,
    )
    log.info("wrote %s: %d nodes, %d edges", path, report.nodes_drawn, report.edges_drawn)
    return report


# --- which nodes ---------------------------------------------------------------------


def _check_labels(labels: Iterable[str] | None) -> set[str]:
    if labels is None:
        return set(NODE_LABELS)
    wanted = {label.strip() for label in labels if label.strip()}
    unknown = wanted - set(NODE_LABELS)
    if unknown or not wanted:
        raise ExportError(
            f"unknown node label(s) {sorted(unknown) or '(none given)'}; "
            f"choose from {', '.join(NODE_LABELS)}"
        )
    return wanted


def _select_nodes(
    graph: nx.MultiDiGraph, *, max_nodes: int, labels: set[str], min_papers: int
) -> tuple[set, list[str]]:
    """The nodes to draw, and one line per reason others were left out."""
    reasons: list[str] = []
    concepts = [n for n, d in graph.nodes(data=True) if d.get("label") != PAPER]
    papers = [n for n, d in graph.nodes(data=True) if d.get("label") == PAPER]

    unwanted = {graph.nodes[n].get("label") for n in graph.nodes} - labels
    if unwanted:
        reasons.append(f"labels not asked for: {', '.join(sorted(map(str, unwanted)))}")
    concepts = [n for n in concepts if graph.nodes[n].get("label") in labels]
    if min_papers:
        few = [n for n in concepts if _paper_count(graph, n) < min_papers]
        if few:
            reasons.append(f"{len(few)} concepts found in fewer than {min_papers} papers")
        concepts = [n for n in concepts if _paper_count(graph, n) >= min_papers]
    with_papers = PAPER in labels

    # most connected first: paper count, then degree, then id for a stable order
    concepts.sort(key=lambda n: (-_paper_count(graph, n), -graph.degree(n), str(n)))
    keep: set = set()
    over_budget = False
    for concept in concepts:
        if len(keep) >= max_nodes:
            over_budget = True
            break
        keep.add(concept)
        if not with_papers:
            continue
        its_papers = [p for p in _papers_of(graph, concept) if p not in keep]
        its_papers.sort(key=lambda p: (-graph.degree(p), str(p)))
        room = max_nodes - len(keep)
        if len(its_papers) > room:
            over_budget = True
        keep.update(its_papers[:room])
    if with_papers and not min_papers and labels >= set(CONCEPT_LABELS):
        # papers without any concept (rare) still belong in the full view
        lonely = sorted((p for p in papers if p not in keep), key=lambda p: (-graph.degree(p), p))
        room = max_nodes - len(keep)
        if len(lonely) > room:
            over_budget = True
        keep.update(lonely[: max(room, 0)])
    if over_budget:
        reasons.append(
            f"more than max_nodes={max_nodes} nodes: kept the most connected concepts "
            "and their papers (raise --max-nodes to see more)"
        )
    elif with_papers:
        dropped = [p for p in papers if p not in keep]
        if dropped:
            reasons.append(f"{len(dropped)} papers linked to no concept that is drawn")
    return keep, reasons


def _paper_count(graph: nx.MultiDiGraph, node) -> int:
    count = graph.nodes[node].get("paper_count")
    return int(count) if count is not None else len(_papers_of(graph, node))


def _papers_of(graph: nx.MultiDiGraph, node) -> list:
    return [p for p in graph.predecessors(node) if graph.nodes[p].get("label") == PAPER]


def _count_labels(graph: nx.MultiDiGraph, nodes: Iterable) -> dict[str, int]:
    counts = dict.fromkeys(NODE_LABELS, 0)
    for n in nodes:
        label = str(graph.nodes[n].get("label", "?"))
        counts[label] = counts.get(label, 0) + 1
    return counts


def _strongest_pairs(pairs: dict[tuple, list[dict]], budget: int) -> dict[tuple, list[dict]]:
    """At most ``budget`` pairs: every paper-concept pair first, then co-occurrence by weight."""
    if len(pairs) <= budget:
        return pairs

    def rank(item):
        (u, v), datas = item
        co_occurs = all(d.get("type") == CO_OCCURS for d in datas)
        return (co_occurs, -_pair_weight(datas), str(u), str(v))

    return dict(sorted(pairs.items(), key=rank)[: max(budget, 0)])


def _edge_pairs(graph: nx.MultiDiGraph, keep: set) -> dict[tuple, list[dict]]:
    """Edges between kept nodes, grouped by node pair (one drawn edge per pair).

    A paper's edge to a broader concept inferred from a narrower one (``via``) is
    not drawn: the narrower concept's IS_A edge already shows it.
    """
    pairs: dict[tuple, list[dict]] = {}
    for u, v, data in graph.edges(data=True):
        if u in keep and v in keep and u != v and not data.get("via"):
            key = (u, v) if (v, u) not in pairs else (v, u)
            pairs.setdefault(key, []).append(data)
    return pairs


# --- where nodes go --------------------------------------------------------------------


def _positions(keep: set, pairs: dict, *, seed: int) -> dict:
    """Node -> (x, y) in pixels, from :func:`paperkg.graph.layout.spring_layout`."""
    order = sorted(keep, key=str)
    index = {n: i for i, n in enumerate(order)}
    src = np.array([index[u] for u, _ in pairs], dtype=np.int64)
    dst = np.array([index[v] for _, v in pairs], dtype=np.int64)
    xy = spring_layout(len(order), src, dst, seed=seed) * 40.0
    return {n: (float(xy[i, 0]), float(xy[i, 1])) for n, i in index.items()}


# --- what they look like ---------------------------------------------------------------


def _network(graph: nx.MultiDiGraph, keep: set, pairs: dict, positions: dict, *, physics: bool):
    """A pyvis Network holding the drawn nodes and edges."""
    from pyvis.edge import Edge
    from pyvis.network import Network
    from pyvis.node import Node

    net = Network(height="100%", width="100%", directed=True, cdn_resources="in_line")
    top = max((_paper_count(graph, n) for n in keep if _is_concept(graph, n)), default=1) or 1
    for n in sorted(keep, key=str):
        data = graph.nodes[n]
        label = str(data.get("label", "?"))
        style = STYLES.get(label, OTHER_STYLE)
        x, y = positions[n]
        if label == PAPER:
            size, font = 10, {"size": 12, "color": "#52606d"}
        else:
            size = 10 + 22 * math.sqrt(_paper_count(graph, n) / top)
            font = {"size": 14, "color": "#1f2933"}
        name = _node_name(data, n)
        # pyvis's add_node/add_edge scan every node per call (quadratic); build the same
        # pyvis Node/Edge records and register them directly.
        node = Node(
            str(n),
            style["shape"],
            label=_short(name, 28 if label == PAPER else _MAX_LABEL),
            color={
                "background": style["color"],
                "border": style["border"],
                "highlight": {"background": style["color"], "border": "#111111"},
            },
            size=round(size, 1),
            font=font,
            x=round(x, 1),
            y=round(y, 1),
            kg={
                "label": label,
                "name": name,
                "aliases": _aliases(data, name),
                "tip": _node_tip(graph, n),
            },
        )
        net.nodes.append(node.options)
        net.node_ids.append(str(n))
        net.node_map[str(n)] = node.options
    top_weight = max((_pair_weight(es) for es in pairs.values()), default=1) or 1
    for number, ((u, v), datas) in enumerate(pairs.items()):
        types = sorted({str(d.get("type", "")) for d in datas})
        weight = _pair_weight(datas)
        edge = Edge(
            str(u),
            str(v),
            directed=False,
            id=f"e{number}",
            width=round(1 + 5 * math.sqrt(weight / top_weight), 2),
            color=_PROPOSES_COLOR if PROPOSES in types else _EDGE_COLOR,
            title=_edge_tip(types, weight, datas),
        )
        net.edges.append(edge.options)
    big = len(keep) > PHYSICS_MAX_NODES
    net.options = {
        "autoResize": True,
        "nodes": {"borderWidth": 1, "scaling": {"label": {"drawThreshold": 4}}},
        "edges": {"smooth": False, "selectionWidth": 1.5, "color": {"opacity": 0.7}},
        "interaction": {
            "tooltipDelay": 150,
            "hideEdgesOnDrag": big,
            "hideEdgesOnZoom": big,
            "multiselect": False,
        },
        "layout": {"improvedLayout": False, "randomSeed": 0},
        "physics": {
            "enabled": physics,
            "solver": "forceAtlas2Based",
            "forceAtlas2Based": {
                "springLength": 110,
                "gravitationalConstant": -110,
                "avoidOverlap": 0.3,
            },
            "stabilization": {"enabled": physics, "iterations": 100, "updateInterval": 25},
        },
    }
    return net


def _is_concept(graph: nx.MultiDiGraph, n) -> bool:
    return graph.nodes[n].get("label") in CONCEPT_LABELS


def _node_name(data: dict, node) -> str:
    name = data.get("name") or data.get("title") or node
    return str(name)


def _aliases(data: dict, name: str) -> list[str]:
    aliases = data.get("aliases") or []
    if isinstance(aliases, str):  # GraphML round trips lists as strings
        aliases = [a for a in aliases.split("|") if a]
    return [str(a) for a in aliases if str(a) != name]


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _pair_weight(datas: list[dict]) -> float:
    return float(sum(d.get("weight", d.get("count", 1)) or 1 for d in datas))


def _node_tip(graph: nx.MultiDiGraph, n) -> dict:
    """Tooltip content as plain strings; the page turns them into DOM text nodes."""
    data = graph.nodes[n]
    label = str(data.get("label", "?"))
    rows: list[list[str]] = []
    if label == PAPER:
        head = str(data.get("title") or data.get("name") or n)
        sub = PAPER
        for key, title in (("year", "Year"), ("venue", "Venue"), ("source", "Source")):
            if data.get(key) not in (None, ""):
                rows.append([title, str(data[key])])
        if data.get("authors"):
            rows.append(["Authors", _short(", ".join(map(str, data["authors"])), 200)])
        for concept, edge in _proposals(graph, n):
            evidence = (
                f": \u201c{_short(str(edge['evidence']), 200)}\u201d"
                if edge.get("evidence")
                else ""
            )
            rows.append(["Proposes", f"{_node_name(graph.nodes[concept], concept)}{evidence}"])
        if data.get("abstract"):
            rows.append(["Abstract", _short(str(data["abstract"]), _MAX_ABSTRACT)])
    else:
        head = _node_name(data, n)
        count = _paper_count(graph, n)
        sub = f"{label} · {count} paper{'s' if count != 1 else ''}"
        aliases = _aliases(data, head)
        if aliases:
            rows.append(["Aliases", _short(", ".join(aliases), 300)])
        evidence = []
        for p in _papers_of(graph, n):
            for d in graph.get_edge_data(p, n, default={}).values():
                if d.get("evidence"):
                    evidence.append(_short(str(d["evidence"]), 300))
        for sentence in evidence[:_MAX_EVIDENCE]:
            rows.append(["Evidence", sentence])
    return {"head": head, "sub": sub, "rows": rows}


def _proposals(graph: nx.MultiDiGraph, paper) -> list[tuple]:
    return [
        (concept, d)
        for _, concept, d in graph.out_edges(paper, data=True)
        if d.get("type") == PROPOSES
    ][:_MAX_EVIDENCE]


def _edge_tip(types: list[str], weight: float, datas: list[dict]) -> str:
    """Edge tooltips are plain strings: vis-network shows them with innerText."""
    if types == [CO_OCCURS]:
        return f"Co-occurs in {int(weight)} paper{'s' if weight != 1 else ''}"
    if types == [IS_A]:
        return f"A kind of the other ({datas[0].get('reason', 'head phrase')})"
    lines = [" + ".join(types)]
    for d in datas:
        if d.get("evidence"):
            lines.append(_short(str(d["evidence"]), 300))
            break
    return "\n".join(lines)


# --- the page --------------------------------------------------------------------------


def _render(net: Network, graph: nx.MultiDiGraph, keep: set, *, title: str, physics: bool):
    nodes, edges, _heading, _height, _width, options = net.get_network_data()
    present = _count_labels(graph, keep)
    legend = [
        {"label": label, "count": present.get(label, 0), **STYLES.get(label, OTHER_STYLE)}
        for label in NODE_LABELS
        if present.get(label, 0)
    ]
    data = {
        "nodes": nodes,
        "edges": edges,
        "options": json.loads(options),
        "physics": physics,
        "large": len(nodes) > PHYSICS_MAX_NODES,
        "legend": legend,
        "dim": {"background": "rgba(200,200,200,0.35)", "border": "rgba(170,170,170,0.45)"},
        "dimEdge": "rgba(200,200,200,0.25)",
    }
    template = page_templates().get_template("view.html")
    return template.render(
        title=title,
        legend=legend,
        data_json=script_json(data),
        vis_js=inline_asset(VIS_DIR / "vis-network.min.js"),
        vis_css=inline_asset(VIS_DIR / "vis-network.css"),
        name_index_js=inline_asset(ASSETS / "name_index.js"),
        view_js=inline_asset(ASSETS / "view.js"),
        view_css=inline_asset(ASSETS / "view.css"),
        node_count=len(nodes),
        edge_count=len(edges),
    )
