"""Benchmark the HTML view: file size and time until the page is interactive.

For synthetic paperkg graphs of 500, 2,000 and 10,000 nodes this writes

* ``ours``: :func:`paperkg.export.html.write_html` (all nodes drawn), and
* ``pyvis default``: ``pyvis.network.Network(cdn_resources="in_line")`` filled with
  ``from_nx`` and written with ``write_html``, i.e. pyvis's default settings,

then opens each page in headless Chromium (``/usr/bin/chromium``) with every
non-file request blocked and measures the time from navigation start until the
page is interactive:

* ours: ``window.paperkgView.readyAt``, set at the first ``afterDrawing`` after
  vis-network's ``stabilizationIterationsDone`` (physics on) or at the first
  ``afterDrawing`` (positions computed in Python, physics off);
* pyvis default: the moment its loading bar is hidden (``opacity 0``, set on
  ``stabilizationIterationsDone``), followed by the next frame drawn; pages of
  100 nodes or fewer have no bar and count at the first ``afterDrawing``.

Waits are capped (``--cap``, default 60 s) and reported as ``>60 s``.

The concept map (:func:`paperkg.export.html_map.write_map_html`, the default
view above 300 papers) is measured on realistic synthetic corpora
(``bench/synthetic_field.py``) of 2,000, 10,000 and 50,000
papers drawn as 300, 1,000 and 5,000 concepts (``--maps``), beside the
paper-concept view of the same corpus with its defaults, in the same run; the
map counts as interactive at ``window.paperkgMap.readyAt`` (first drawing).

Run: ``python3 bench/html_view.py [--sizes 500,2000,10000] [--maps 2000:300,10000:1000,50000:5000]
[--cap 60] [--out bench/results]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import networkx as nx

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
CHROMIUM = "/usr/bin/chromium"


def synthetic_graph(n_nodes: int, seed: int = 0) -> nx.DiGraph:
    """A paperkg-shaped graph: 60 % papers, each linked to 2-6 concepts chosen with a
    Zipf-like popularity, and co-occurrence edges between the concepts of a paper."""
    rng = random.Random(seed)
    g = nx.DiGraph()
    n_papers = int(n_nodes * 0.6)
    n_concepts = n_nodes - n_papers
    split = (("Method", 0.4), ("Dataset", 0.25), ("Task", 0.25), ("Metric", 0.1))
    concepts = []
    for label, share in split:
        for i in range(max(1, round(n_concepts * share))):
            if len(concepts) >= n_concepts:
                break
            node = f"{label}:c{i}"
            g.add_node(node, label=label, name=f"{label} {i}", aliases=[f"{label[0]}{i}"])
            concepts.append(node)
    popularity = [1 / (rank + 1) ** 0.9 for rank in range(len(concepts))]
    rng.shuffle(concepts)
    for p in range(n_papers):
        paper = f"paper:{p}"
        g.add_node(
            paper,
            label="Paper",
            name=f"Paper {p}",
            title=f"A study of thing {p}",
            year=2020 + p % 6,
            venue="ICLR",
            abstract="We propose a method. " * 20,
        )
        chosen = set(rng.choices(concepts, weights=popularity, k=rng.randint(2, 6)))
        for c in chosen:
            edge_type = {"Method": "USES", "Dataset": "EVALUATES_ON"}.get(
                g.nodes[c]["label"], "ADDRESSES"
            )
            g.add_edge(paper, c, type=edge_type, evidence="We use it.", count=1)
        chosen = sorted(chosen)
        for i, a in enumerate(chosen):
            for b in chosen[i + 1 :]:
                if g.has_edge(a, b):
                    g.edges[a, b]["weight"] += 1
                else:
                    g.add_edge(a, b, type="CO_OCCURS_WITH", weight=1)
    for c in concepts:
        g.nodes[c]["paper_count"] = sum(
            1 for p in g.predecessors(c) if g.nodes[p]["label"] == "Paper"
        )
    return g


def write_default_pyvis(graph: nx.DiGraph, path: Path) -> None:
    """pyvis with its default settings (inline resources so the file opens offline).

    The same page ``Network().from_nx(simple_graph)`` writes: nodes with label,
    title and pyvis's default size 10, edges of width 1. Edges are appended as
    pyvis ``Edge`` records because ``add_edge`` on an undirected Network scans all
    earlier edges (O(E^2): minutes at 55,000 edges); the graph has no duplicates,
    so the page is identical.
    """
    from pyvis.edge import Edge
    from pyvis.network import Network

    net = Network(cdn_resources="in_line")
    for n, d in graph.nodes(data=True):
        net.add_node(n, label=d.get("name", n), title=d.get("title", d.get("name", n)), size=10)
    seen = set()
    for u, v in graph.edges():
        if (u, v) not in seen and (v, u) not in seen:
            seen.add((u, v))
            net.edges.append(Edge(u, v, False, width=1).options)
    net.write_html(str(path))


PYVIS_READY = """() => {
  const bar = document.getElementById('loadingBar');
  if (bar) return bar.style.opacity === '0' ? performance.now() : null;
  return window.__drawn || null;
}"""
HOOK_FIRST_DRAW = """
(() => {
  const t0 = setInterval(() => {
    if (window.network && window.network.once) {
      clearInterval(t0);
      window.network.once('afterDrawing', () => { window.__drawn = performance.now(); });
    }
  }, 5);
})();
"""


def time_to_interactive(
    path: Path, *, ours: bool, cap: float, ready: str = "paperkgView"
) -> tuple[float | None, list]:
    """Milliseconds from navigation start until interactive, or None past ``cap`` seconds.

    Each page is measured by a child process with its own Chromium: a page that
    keeps the browser's main thread busy (default pyvis at 10,000 nodes) can hang
    Playwright itself, so the child's whole process group is killed at the cap.
    """
    cmd = [sys.executable, __file__, "--measure", str(path), "--cap", str(cap), "--ready", ready]
    if ours:
        cmd.append("--ours")
    child = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, _ = child.communicate(timeout=cap + 30)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        return None, ["browser hung past the cap and was killed"]
    result = json.loads(out.strip().splitlines()[-1])
    return result["ready"], result["problems"]


def measure(path: Path, *, ours: bool, cap: float, ready_global: str = "paperkgView") -> dict:
    """Open ``path`` in a fresh headless Chromium (all non-file requests blocked)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        problems: list[str] = []

        def block(route):
            problems.append(f"blocked {route.request.url}")
            route.abort()

        page.route(lambda url: not url.startswith("file:"), block)
        page.on("pageerror", lambda e: problems.append(f"error {e}"))
        if not ours:
            page.add_init_script(HOOK_FIRST_DRAW)
        page.goto(path.resolve().as_uri(), wait_until="commit", timeout=cap * 1000)
        ready_js = (
            f"() => window.{ready_global} && window.{ready_global}.readyAt" if ours else PYVIS_READY
        )
        try:
            handle = page.wait_for_function(ready_js, timeout=cap * 1000, polling=50)
            ready = float(handle.json_value())
        except Exception:  # playwright's TimeoutError: report the cap honestly
            ready = None
        return {"ready": ready, "problems": problems}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="500,2000,10000")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds to wait per page")
    parser.add_argument("--out", type=Path, default=Path("bench/results"))
    parser.add_argument("--skip-default", action="store_true", help="only time our view")
    parser.add_argument(
        "--physics-sizes",
        default="",
        help="also time our view with live physics forced on at these sizes, e.g. 200,400,800 "
        "(how PHYSICS_MAX_NODES was chosen)",
    )
    parser.add_argument(
        "--maps",
        default="2000:300,10000:1000,50000:5000",
        help="papers:concepts of the concept maps to time ('' = none)",
    )
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--ready", default="paperkgView", help=argparse.SUPPRESS)
    parser.add_argument("--ours", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:  # child process of time_to_interactive
        print(
            json.dumps(measure(args.measure, ours=args.ours, cap=args.cap, ready_global=args.ready))
        )
        return 0
    sys.path.insert(0, str(Path(__file__).resolve().parents[1].parent))
    from paperkg.export.html import write_html

    args.out.mkdir(parents=True, exist_ok=True)
    runs = []  # (size, page name, ours, physics forced on)
    for size in (int(s) for s in args.sizes.split(",")):
        runs.append((size, "ours", True, None))
        if not args.skip_default:
            runs.append((size, "pyvis default", False, None))
    for size in (int(s) for s in args.physics_sizes.split(",") if s):
        runs.append((size, "ours", True, True))

    rows = []
    for size, name, ours, physics in runs:
        graph = synthetic_graph(size)
        path = (
            args.out
            / f"view_{size}_{'ours' if ours else 'pyvis'}{'_physics' if physics else ''}.html"
        )
        t = time.perf_counter()
        if ours:
            report = write_html(graph, path, max_nodes=size, physics=physics)
            mode = ("physics*" if physics else "physics") if report.physics else "precomputed"
        else:
            write_default_pyvis(graph, path)
            mode = "physics"
        write_s = time.perf_counter() - t
        ready, problems = time_to_interactive(path, ours=ours, cap=args.cap)
        mb = path.stat().st_size / 1e6
        rows.append((size, graph.number_of_edges(), name, mode, mb, write_s, ready, len(problems)))
        print(f"  {size} {name} {mode}: ready={ready} problems={problems[:3]}", file=sys.stderr)

    print(
        f"{'nodes':>6} {'edges':>6}  {'page':<14} {'layout':<11} {'MB':>5} "
        f"{'write s':>7} {'interactive':>12} {'blocked/errors':>14}"
    )
    for size, n_edges, name, mode, mb, write_s, ready, problems in rows:
        shown = f">{args.cap:.0f} s" if ready is None else f"{ready / 1000:.2f} s"
        print(
            f"{size:>6} {n_edges:>6}  {name:<14} {mode:<11} {mb:>5.1f} "
            f"{write_s:>7.1f} {shown:>12} {problems:>14}"
        )
    print(
        "edges: in the graph (ours draws at most max(3 per node, 5000)); physics* = forced on; "
        "blocked/errors: requests to the network blocked (pyvis's CDN links) plus page errors"
    )
    if args.maps:
        print()
        print_maps(args)
    return 0


def print_maps(args) -> None:
    """The concept map beside the paper-concept view, on the same synthetic corpora."""
    from synthetic_field import synthetic_field

    from paperkg.export.html import write_html
    from paperkg.export.html_map import write_map_html

    rows = []
    for spec in args.maps.split(","):
        papers, concepts = (int(x) for x in spec.split(":"))
        graph = synthetic_field(papers)
        for name in ("concept map", "papers view"):
            path = args.out / f"{'map' if name == 'concept map' else 'papers'}_{papers}.html"
            t = time.perf_counter()
            if name == "concept map":
                report = write_map_html(graph, path, max_nodes=concepts)
                drawn = f"{report.concepts_drawn} concepts, {report.links_drawn} links"
                ready_global = "paperkgMap"
            else:
                report = write_html(graph, path)
                drawn = f"{report.nodes_drawn} nodes, {report.edges_drawn} edges"
                ready_global = "paperkgView"
            write_s = time.perf_counter() - t
            ready, problems = time_to_interactive(path, ours=True, cap=args.cap, ready=ready_global)
            rows.append((papers, name, drawn, path.stat().st_size / 1e6, write_s, ready, problems))
            print(f"  {papers} {name}: ready={ready} problems={problems[:3]}", file=sys.stderr)
    print(
        f"{'papers':>6}  {'page':<12} {'drawn':<30} {'MB':>5} {'write s':>7} "
        f"{'interactive':>12} {'errors':>6}"
    )
    for papers, name, drawn, mb, write_s, ready, problems in rows:
        shown = f">{args.cap:.0f} s" if ready is None else f"{ready / 1000:.2f} s"
        print(
            f"{papers:>6}  {name:<12} {drawn:<30} {mb:>5.1f} {write_s:>7.1f} "
            f"{shown:>12} {len(problems):>6}"
        )
    print(
        "synthetic corpora (paperkg.graph.synthetic); papers view = paperkg view --mode papers "
        "with its defaults (at most 2,000 nodes)"
    )


if __name__ == "__main__":
    raise SystemExit(main())
