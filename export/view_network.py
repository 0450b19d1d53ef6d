"""How the paper view draws what it keeps: vis-network nodes and edges, their looks and tooltips.

Nodes are sized by their papers, edges by their weight, paper-proposes-concept
edges stand out in one colour, and every tooltip is plain strings (a title, a
subtitle, rows) that the page turns into DOM text nodes, so nothing a paper says
is ever read as HTML. The records are the plain dicts vis-network's DataSets
take (the same keys pyvis's ``Node``/``Edge`` would write).

Examples
--------
>>> import networkx as nx
>>> g = nx.DiGraph()
>>> g.add_node("paper:1", label="Paper", name="P1", title="P1")
>>> g.add_node("Method:lads", label="Method", name="LADS", paper_count=1)
>>> g.add_edge("paper:1", "Method:lads", type="PROPOSES")
>>> pairs = {("paper:1", "Method:lads"): [g.edges["paper:1", "Method:lads"]]}
>>> where = {"paper:1": (0.0, 0.0), "Method:lads": (40.0, 0.0)}
>>> nodes, edges, options = view_network(g, set(g.nodes), pairs, where, physics=True)
>>> [(n["id"], n["shape"]) for n in nodes]
[('Method:lads', 'dot'), ('paper:1', 'square')]
>>> edges[0]["title"]  # a tooltip is plain text
'PROPOSES'
"""

from __future__ import annotations

import math

import networkx as nx

from ..defaults import PHYSICS_MAX_NODES
from ..graph.schema import CO_OCCURS, CONCEPT_LABELS, IS_A, PAPER, PROPOSES
from .styles import OTHER_STYLE, STYLES, short
from .view_selection import pair_weight, paper_count, papers_of

__all__ = ["view_network"]

_EDGE_COLOR = "#b8c0c8"
_PROPOSES_COLOR = "#d55e00"

_MAX_LABEL = 40
_MAX_ABSTRACT = 400
_MAX_EVIDENCE = 3


def view_network(
    graph: nx.DiGraph, keep: set, pairs: dict, positions: dict, *, physics: bool
) -> tuple[list[dict], list[dict], dict]:
    """The drawn nodes and edges as vis-network records, and vis-network's options."""
    top = max((paper_count(graph, n) for n in keep if _is_concept(graph, n)), default=1) or 1
    nodes = [_node_options(graph, n, positions[n], top) for n in sorted(keep, key=str)]
    top_weight = max((pair_weight(es) for es in pairs.values()), default=1) or 1
    edges = [
        _edge_options(number, u, v, datas, top_weight)
        for number, ((u, v), datas) in enumerate(pairs.items())
    ]
    return nodes, edges, _network_options(big=len(keep) > PHYSICS_MAX_NODES, physics=physics)


def _node_options(graph: nx.DiGraph, n, position: tuple, top: int) -> dict:
    """The node record of ``n``: shape and colour by label, size by papers, tooltip."""
    data = graph.nodes[n]
    label = str(data.get("label", "?"))
    style = STYLES.get(label, OTHER_STYLE)
    x, y = position
    if label == PAPER:
        size, font = 10, {"size": 12, "color": "#52606d"}
    else:
        size = 10 + 22 * math.sqrt(paper_count(graph, n) / top)
        font = {"size": 14, "color": "#1f2933"}
    name = _node_name(data, n)
    return {
        "color": {
            "background": style["color"],
            "border": style["border"],
            "highlight": {"background": style["color"], "border": "#111111"},
        },
        "size": round(size, 1),
        "font": font,
        "x": round(x, 1),
        "y": round(y, 1),
        "kg": {
            "label": label,
            "name": name,
            "aliases": _aliases(data, name),
            "tip": _node_tip(graph, n),
        },
        "id": str(n),
        "label": short(name, 28 if label == PAPER else _MAX_LABEL),
        "shape": style["shape"],
    }


def _edge_options(number: int, u, v, datas: list[dict], top_weight: float) -> dict:
    """The edge record of one drawn pair: width by weight, PROPOSES in its own colour."""
    types = sorted({str(d.get("type", "")) for d in datas})
    weight = pair_weight(datas)
    return {
        "id": f"e{number}",
        "width": round(1 + 5 * math.sqrt(weight / top_weight), 2),
        "color": _PROPOSES_COLOR if PROPOSES in types else _EDGE_COLOR,
        "title": _edge_tip(types, weight, datas),
        "from": str(u),
        "to": str(v),
    }


def _network_options(*, big: bool, physics: bool) -> dict:
    """vis-network's options: a big view hides edges while it moves; physics on or off."""
    return {
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


def _is_concept(graph: nx.DiGraph, n) -> bool:
    return graph.nodes[n].get("label") in CONCEPT_LABELS


def _node_name(data: dict, node) -> str:
    name = data.get("name") or data.get("title") or node
    return str(name)


def _aliases(data: dict, name: str) -> list[str]:
    aliases = data.get("aliases") or []
    if isinstance(aliases, str):  # GraphML round trips lists as strings
        aliases = [a for a in aliases.split("|") if a]
    return [str(a) for a in aliases if str(a) != name]


def _node_tip(graph: nx.DiGraph, n) -> dict:
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
            rows.append(["Authors", short(", ".join(map(str, data["authors"])), 200)])
        for concept, edge in _proposals(graph, n):
            evidence = (
                f": \u201c{short(str(edge['evidence']), 200)}\u201d" if edge.get("evidence") else ""
            )
            rows.append(["Proposes", f"{_node_name(graph.nodes[concept], concept)}{evidence}"])
        if data.get("abstract"):
            rows.append(["Abstract", short(str(data["abstract"]), _MAX_ABSTRACT)])
    else:
        head = _node_name(data, n)
        count = paper_count(graph, n)
        sub = f"{label} · {count} paper{'s' if count != 1 else ''}"
        aliases = _aliases(data, head)
        if aliases:
            rows.append(["Aliases", short(", ".join(aliases), 300)])
        evidence = []
        for p in papers_of(graph, n):
            if graph.edges[p, n].get("evidence"):
                evidence.append(short(str(graph.edges[p, n]["evidence"]), 300))
        for sentence in evidence[:_MAX_EVIDENCE]:
            rows.append(["Evidence", sentence])
    return {"head": head, "sub": sub, "rows": rows}


def _proposals(graph: nx.DiGraph, paper) -> list[tuple]:
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
            lines.append(short(str(d["evidence"]), 300))
            break
    return "\n".join(lines)
