"""The map of a field as one self-contained HTML page: concepts as nodes, papers on demand.

What a user of co-word maps (VOSviewer, CiteSpace) expects from a corpus of
thousands of papers: the few hundred most used concepts
(:func:`paperkg.graph.concept_map.concept_map`), sized by papers, coloured by
cluster with a legend that names each cluster, linked by association strength,
laid out beforehand so the page is usable as soon as it is drawn. Clicking a
concept opens a panel with its papers (title, year, venue, link, the sentence
behind the link), what proposes it and what it goes with; clicking a paper
there shows its concepts. Filters by label, papers and years, search by name
or alias, a colour-by-year overlay and a PNG button.

It keeps every guarantee of :mod:`paperkg.export.html`: one offline file
(vis-network inlined, :mod:`.offline_page`), the data as escaped JSON
(:mod:`.script_json`) and every input string put into the page as text, never
as HTML.

Examples
--------
>>> import networkx as nx, tempfile, pathlib
>>> g = nx.DiGraph()
>>> for i, concepts in enumerate([["BERT", "GLUE"], ["BERT", "GLUE"], ["BERT", "SQuAD"]]):
...     g.add_node(f"paper:{i}", label="Paper", name=f"P{i}", title=f"Paper {i}", year=2020 + i)
...     for c in concepts:
...         g.add_node(f"Method:{c}", label="Method", name=c, paper_count=0)
...         g.add_edge(f"paper:{i}", f"Method:{c}", type="USES", evidence="We use it.")
>>> report = write_map_html(g, pathlib.Path(tempfile.mkdtemp()) / "map.html")
>>> (report.concepts_drawn, report.links_drawn, report.papers)
(3, 2, 3)
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from ..defaults import DEFAULT_MAP_NODES, MAP_MIN_PAPERS
from ..errors import ExportError
from ..graph.concept_map import OTHER_COLOR, ConceptMap, MapNode, concept_map
from ..graph.schema import CONCEPT_LABELS, PAPER, PAPER_EDGE_TYPES, PROPOSES
from ..graph.validate import check_graph
from .offline_page import ASSETS, inline_asset, render_page, write_page
from .styles import STYLES, short

__all__ = [
    "MAP_MIN_PAPERS",
    "MAX_PAPERS_LISTED",
    "MapReport",
    "prefers_map",
    "write_map_html",
]

log = logging.getLogger(__name__)

#: papers listed in a concept's panel (the most recent first); the rest are counted
MAX_PAPERS_LISTED = 200
#: co-occurring concepts listed in a concept's panel
_NEIGHBOURS_LISTED = 10
_MAX_EVIDENCE = 300
#: labels placed, without overlap, for the first view of a map
LABELS_AT_FIRST_VIEW = 120
#: vis-network draws a label when its font is at least this many pixels on screen
LABEL_DRAW_PX = 8
_MAX_TITLE = 300


@dataclass
class MapReport:
    """What :func:`write_map_html` drew and what it left out."""

    path: Path
    concepts_drawn: int
    links_drawn: int
    clusters: int
    #: papers behind the drawn concepts (listed in their panels)
    papers: int
    concepts_left_out: int
    links_left_out: int
    drawn_by_label: dict[str, int] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)
    file_size: int = 0

    # the paper-concept view's report has these too, so a caller can treat both alike
    @property
    def nodes_left_out(self) -> int:
        return self.concepts_left_out

    @property
    def edges_left_out(self) -> int:
        return self.links_left_out

    def summary(self) -> list[str]:
        """Short human-readable lines, e.g. for the CLI."""
        drawn = ", ".join(f"{n} {label}" for label, n in self.drawn_by_label.items() if n)
        lines = [
            f"Drew a map of {self.concepts_drawn} concepts ({drawn or 'none'}), "
            f"{self.links_drawn} links and {self.clusters} clusters from {self.papers} papers "
            f"into {self.path} ({self.file_size / 1e6:.1f} MB)."
        ]
        if self.reasons:
            lines.append("Left out:")
            lines.extend(f"  - {reason}" for reason in self.reasons)
        return lines


def prefers_map(graph: nx.DiGraph) -> bool:
    """Whether a graph is better seen as a map: more than :data:`MAP_MIN_PAPERS` papers."""
    papers = sum(1 for _, d in graph.nodes(data=True) if d.get("label") == PAPER)
    return papers > MAP_MIN_PAPERS


def write_map_html(
    graph: nx.DiGraph,
    path: str | Path,
    *,
    max_nodes: int = DEFAULT_MAP_NODES,
    labels: Iterable[str] | None = None,
    min_papers: int = 1,
    title: str = "paperkg map",
    seed: int = 0,
) -> MapReport:
    """Write the concept map of ``graph`` as a self-contained HTML page at ``path``.

    Parameters
    ----------
    graph : networkx.DiGraph
        A paperkg graph.
    path : str or Path
        The HTML file to write (its folder is created).
    max_nodes : int
        Concepts on the map, the most used first.
    labels : iterable of str, optional
        Concept labels to map (default: all four); "Paper" is ignored, papers
        are listed in the panels.
    min_papers : int
        Leave out concepts used by fewer papers.
    title : str
        The page title (escaped).
    seed : int
        Seed of the clustering and the layout: the same graph gives the same page.

    Returns
    -------
    MapReport
        Counts of what was drawn and left out.

    Raises
    ------
    ExportError
        For an unknown label, a limit below 1, or a file that cannot be written.
    """
    check_graph(graph)
    path = Path(path)
    wanted = _check_labels(labels)
    if max_nodes < 1:
        raise ExportError(f"max_nodes must be at least 1, got {max_nodes}; pass e.g. 300")
    if min_papers < 0:
        raise ExportError(f"min_papers must be 0 or more, got {min_papers}")
    cmap = concept_map(graph, max_nodes=max_nodes, labels=wanted, min_papers=min_papers, seed=seed)
    data = map_data(graph, cmap)
    write_page(path, _render(data, title=title))
    by_label = dict.fromkeys(CONCEPT_LABELS, 0)
    for node in cmap.nodes:
        by_label[node.label] = by_label.get(node.label, 0) + 1
    report = MapReport(
        path=path,
        concepts_drawn=len(cmap.nodes),
        links_drawn=len(cmap.links),
        clusters=len(cmap.clusters),
        papers=cmap.papers,
        concepts_left_out=cmap.concepts_left_out,
        links_left_out=cmap.links_left_out,
        drawn_by_label=by_label,
        reasons=list(cmap.reasons),
        file_size=path.stat().st_size,
    )
    log.info("wrote %s: %d concepts, %d links", path, len(cmap.nodes), len(cmap.links))
    return report


def map_data(graph: nx.DiGraph, cmap: ConceptMap) -> dict:
    """Everything the page needs, as plain JSON-ready values (strings stay strings).

    Papers and evidence sentences are stored once and referred to by index, so
    a concept's panel can list hundreds of papers without the file growing with
    every concept that shares them.
    """
    index = {node.id: i for i, node in enumerate(cmap.nodes)}
    listings = _Listings(graph)
    neighbours = _neighbours(cmap, index)
    sizes, fonts = _sizes_and_fonts(cmap)
    nodes = [
        _map_node(graph, i, node, listings, size=sizes[i], font=fonts[i], near=neighbours[i])
        for i, node in enumerate(cmap.nodes)
    ]
    years = [n["year"] for n in nodes if n["year"] is not None]
    paper_years = [p[1] for p in listings.papers if p[1] is not None]
    return {
        "nodes": nodes,
        "links": [
            [index[link.source], index[link.target], link.papers, link.strength]
            for link in cmap.links
        ],
        "clusters": [
            {"id": c.id, "name": c.name, "size": c.size, "color": c.color} for c in cmap.clusters
        ],
        "other": OTHER_COLOR,
        "labelDrawPx": LABEL_DRAW_PX,
        "papers": listings.papers,
        "evidence": listings.evidence,
        "edgeTypes": list(PAPER_EDGE_TYPES),
        "years": [min(paper_years), max(paper_years)] if paper_years else None,
        "meanYears": [min(years), max(years)] if years else None,
        "labels": [
            {"label": label, **STYLES[label]}
            for label in CONCEPT_LABELS
            if any(n["label"] == label for n in nodes)
        ],
    }


class _Listings:
    """The papers and evidence sentences the concepts' panels list, each stored once.

    A panel refers to them by their index in :attr:`papers` and :attr:`evidence`,
    numbered in the order they are first listed.
    """

    def __init__(self, graph: nx.DiGraph):
        self.graph = graph
        #: ``[title, year, venue, url]`` per paper
        self.papers: list[list] = []
        self.evidence: list[str] = []
        self._paper_index: dict = {}
        self._evidence_index: dict[str, int] = {}

    def paper(self, p) -> int:
        """The index of paper ``p``, stored the first time it is listed."""
        if p not in self._paper_index:
            d = self.graph.nodes[p]
            self._paper_index[p] = len(self.papers)
            self.papers.append(
                [
                    short(str(d.get("title") or d.get("name") or p), _MAX_TITLE),
                    d.get("year") if isinstance(d.get("year"), int) else None,
                    str(d.get("venue") or ""),
                    _paper_url(d),
                ]
            )
        return self._paper_index[p]

    def sentence(self, text) -> int:
        """The index of an evidence sentence (shortened), or -1 for none."""
        if not text:
            return -1
        text = short(str(text), _MAX_EVIDENCE)
        if text not in self._evidence_index:
            self._evidence_index[text] = len(self.evidence)
            self.evidence.append(text)
        return self._evidence_index[text]


def _map_node(
    graph: nx.DiGraph,
    i: int,
    node: MapNode,
    listings: _Listings,
    *,
    size: float,
    font: float,
    near: list[list],
) -> dict:
    """Concept ``i`` of the map as the page reads it, its papers listed most recent first."""
    links = _paper_links(graph, node.id)
    links.sort(key=lambda pl: (-(pl[1] or 0), pl[2] != PROPOSES, str(pl[0])))
    listed = [
        [listings.paper(p), PAPER_EDGE_TYPES.index(kind), listings.sentence(ev)]
        for p, _year, kind, ev in links[:MAX_PAPERS_LISTED]
    ]
    style = STYLES.get(node.label, STYLES["Method"])
    return {
        "id": i,
        "name": node.name,
        "label": node.label,
        "aliases": node.aliases,
        "papers": node.papers,
        "cluster": node.cluster,
        "x": node.x,
        "y": node.y,
        "year": node.mean_year,
        "proposed": node.proposed_by,
        "shape": style["shape"],
        "size": size,
        "font": font,
        "list": listed,
        "more": max(len(links) - MAX_PAPERS_LISTED, 0),
        "years": _year_counts(links),
        "near": near,
    }


def _sizes_and_fonts(cmap: ConceptMap) -> tuple[list[float], list[float]]:
    """Node sizes and label font sizes, in map units, chosen for the first view of the page.

    The page opens fitted to the map; at that zoom (estimated for a 1200 x 700
    pixel map) a node is 3 to 20 pixels wide by its papers, and the labels of
    the most used concepts are drawn at 9 to 22 pixels, one after the other
    while they do not overlap a label already placed (up to
    :data:`LABELS_AT_FIRST_VIEW`). The other labels are sized to stay below
    vis-network's draw threshold (:data:`LABEL_DRAW_PX`) until one zooms in,
    larger concepts first, as on a geographic map.
    """
    nodes = cmap.nodes
    if not nodes:
        return [], []
    xs = [n.x for n in nodes]
    ys = [n.y for n in nodes]
    width = max(max(xs) - min(xs), 1.0)
    height = max(max(ys) - min(ys), 1.0)
    scale = min(1200 / width, 700 / height, 2.0)  # pixels per map unit at the first view
    top = max(n.papers for n in nodes) or 1
    sizes, fonts, placed = [], [], []
    for n in nodes:  # most used first
        share = math.sqrt(n.papers / top)
        sizes.append(round((3 + 17 * share) / scale, 1))
        px = 9 + 13 * share
        w = 0.55 * px * min(len(n.name), 40)
        # vis-network writes a dot's label under it: from its bottom edge, one line high
        top_px = n.y * scale + 3 + 17 * share
        box = (n.x * scale - w / 2, top_px, n.x * scale + w / 2, top_px + 1.25 * px)
        if len(placed) < LABELS_AT_FIRST_VIEW and not any(_overlap(box, b) for b in placed):
            placed.append(box)
        else:
            px = (LABEL_DRAW_PX - 2.5) * (0.5 + 0.5 * share)  # below the threshold until zoomed
        fonts.append(round(px / scale, 1))
    return sizes, fonts


def _overlap(a: tuple, b: tuple) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _check_labels(labels: Iterable[str] | None) -> set[str]:
    if labels is None:
        return set(CONCEPT_LABELS)
    wanted = {str(label).strip() for label in labels if str(label).strip()}
    unknown = wanted - set(CONCEPT_LABELS) - {PAPER}
    if unknown:
        raise ExportError(
            f"unknown label(s) {', '.join(sorted(unknown))}; use any of {', '.join(CONCEPT_LABELS)}"
        )
    return wanted - {PAPER} or set(CONCEPT_LABELS)


def _paper_links(graph: nx.DiGraph, concept) -> list[tuple]:
    """``(paper, year, edge type, evidence)`` of the papers that mention the concept themselves."""
    best: dict = {}
    for p, _, d in graph.in_edges(concept, data=True):
        if graph.nodes[p].get("label") != PAPER or d.get("via"):
            continue
        kind = d.get("type")
        if kind not in PAPER_EDGE_TYPES:
            continue
        year = graph.nodes[p].get("year")
        row = (p, year if isinstance(year, int) else None, kind, d.get("evidence"))
        if p not in best or kind == PROPOSES:
            best[p] = row
    return list(best.values())


def _year_counts(links: list[tuple]) -> list[list[int]]:
    """``[[year, papers], …]`` of a concept's papers with a year, for the page's year filter."""
    counts: dict[int, int] = {}
    for _p, year, _kind, _ev in links:
        if year is not None:
            counts[year] = counts.get(year, 0) + 1
    return [[year, n] for year, n in sorted(counts.items())]


def _neighbours(cmap: ConceptMap, index: dict) -> list[list[list]]:
    """Each concept's strongest co-occurring concepts on the map: ``[node, papers]``."""
    near: list[list] = [[] for _ in cmap.nodes]
    for link in cmap.links:
        s, t = index[link.source], index[link.target]
        near[s].append((link.papers, link.strength, t))
        near[t].append((link.papers, link.strength, s))
    return [
        [[j, n] for n, _s, j in sorted(rows, key=lambda r: (-r[0], -r[1], r[2]))][
            :_NEIGHBOURS_LISTED
        ]
        for rows in near
    ]


def _paper_url(data: dict) -> str:
    doi = str(data.get("doi") or "").strip()
    if doi:
        return doi if doi.startswith("http") else f"https://doi.org/{doi}"
    url = str(data.get("url") or data.get("code_url") or "").strip()
    return url if url.startswith(("http://", "https://")) else ""


def _render(data: dict, *, title: str) -> Iterator[str]:
    return render_page(
        "map.html",
        data,
        title=title,
        map_js=inline_asset(ASSETS / "map.js"),
        map_css=inline_asset(ASSETS / "map.css"),
        node_count=len(data["nodes"]),
        link_count=len(data["links"]),
        paper_count=len(data["papers"]),
    )
