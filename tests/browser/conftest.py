"""Headless Chromium for the HTML view tests: one browser per session, one page per test.

Every page is opened from a file with all other requests blocked and recorded, and
with console errors and uncaught exceptions collected, so a test can assert that the
view works offline and cleanly.
"""

from __future__ import annotations

import os
import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx
import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"

#: set by the page if any payload ever runs: window.alert, or an onerror handler
HOOKS = """
window.__xss = 0;
window.alert = function () { window.__xss += 1; };
window.confirm = window.alert;
window.prompt = window.alert;
"""


@dataclass
class OpenedPage:
    """A loaded view and everything it tried or complained about."""

    page: object
    blocked: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def js(self, expression: str, arg=None):
        return self.page.evaluate(expression, arg)

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / name
        self.page.screenshot(path=str(path))
        return path

    def node_on_screen(self, node_id: str) -> tuple[float, float]:
        """Page coordinates of a node's centre."""
        point = self.js(
            """(id) => {
                const net = paperkgView.network;
                const dom = net.canvasToDOM(net.getPositions([id])[id]);
                const box = document.getElementById('pk-network').getBoundingClientRect();
                return [box.left + dom.x, box.top + dom.y];
            }""",
            node_id,
        )
        return point[0], point[1]


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        reason = f"no Chromium at {CHROMIUM}: run ./install.sh as root (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(reason + "; CI must run the browser tests, not skip them")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_view(browser):
    """``open_view(path)`` loads a written view and waits until it is interactive."""
    pages = []

    def open_(path: Path, *, timeout_s: float = 30, ready: str = "paperkgView") -> OpenedPage:
        """``ready``: the page's global that says when it is interactive (paperkgMap for maps)."""
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        pages.append(page)
        opened = OpenedPage(page)

        def block(route):
            opened.blocked.append(route.request.url)
            route.abort()

        page.route(lambda url: not url.startswith("file:"), block)
        page.on("pageerror", lambda e: opened.errors.append(f"uncaught: {e}"))
        page.on(
            "console",
            lambda m: (
                opened.errors.append(f"console.{m.type}: {m.text}")
                if m.type in ("error", "warning")
                else None
            ),
        )
        page.add_init_script(HOOKS)
        page.goto(Path(path).resolve().as_uri())
        page.wait_for_function(
            f"() => window.{ready} && window.{ready}.readyAt !== null",
            timeout=timeout_s * 1000,
        )
        return opened

    yield open_
    for page in pages:
        page.close()


PAYLOAD_IMG = "<img src=x onerror=alert(1)>"
PAYLOAD_SCRIPT = "</script><script>alert(2)</script><!--"


@pytest.fixture
def tiny_graph() -> nx.DiGraph:
    """Three papers, six concepts, and XSS payloads in a title, an abstract and an alias."""
    papers = [
        {"id": "p1", "name": "LADS", "title": "LADS: label-aware distillation", "year": 2025,
         "venue": "ICLR", "abstract": "We propose LADS and evaluate on CIFAR-10."},
        {"id": "p2", "name": "Light-DDG", "title": "A light predictor", "year": 2025,
         "venue": "ICLR", "abstract": "We use knowledge distillation on ImageNet-100."},
        {"id": "p3", "name": "Payload paper", "title": f"Attack {PAYLOAD_IMG}", "year": 2024,
         "venue": "ICLR", "abstract": f"Abstract with {PAYLOAD_SCRIPT} inside."},
    ]  # fmt: skip
    concepts = [
        {"id": "Method:lads", "label": "Method", "name": "LADS",
         "aliases": ["LADS", "label-aware distillation"]},
        {"id": "Method:knowledge distillation", "label": "Method",
         "name": "knowledge distillation", "aliases": ["KD", f"KD {PAYLOAD_IMG}"]},
        {"id": "Dataset:cifar-10", "label": "Dataset", "name": "CIFAR-10",
         "aliases": ["CIFAR10"]},
        {"id": "Dataset:imagenet-100", "label": "Dataset", "name": "ImageNet-100", "aliases": []},
        {"id": "Task:image classification", "label": "Task", "name": "image classification",
         "aliases": []},
        {"id": "Metric:accuracy", "label": "Metric", "name": "accuracy", "aliases": ["acc"]},
    ]  # fmt: skip
    links = [
        ("p1", "Method:lads", "PROPOSES", "We propose LADS."),
        ("p1", "Dataset:cifar-10", "EVALUATES_ON", "We evaluate on CIFAR-10."),
        ("p1", "Task:image classification", "ADDRESSES", "for image classification"),
        ("p2", "Method:knowledge distillation", "USES", "We use knowledge distillation."),
        ("p2", "Dataset:imagenet-100", "EVALUATES_ON", "on ImageNet-100"),
        ("p2", "Task:image classification", "ADDRESSES", "classification"),
        ("p3", "Method:knowledge distillation", "USES", f"Evidence {PAYLOAD_SCRIPT}"),
        ("p3", "Metric:accuracy", "USES", "accuracy"),
    ]
    return make_graph(papers, concepts, links)


@pytest.fixture
def synthetic_graph():
    """``synthetic_graph(n)``: a paperkg-shaped graph of ``n`` nodes (60 % papers)."""
    return make_synthetic_graph


def make_synthetic_graph(n_nodes: int, seed: int = 0) -> nx.DiGraph:
    rng = random.Random(seed)
    n_papers = int(n_nodes * 0.6)
    labels = ["Method", "Dataset", "Task", "Metric"]
    concepts = [
        {"id": f"{labels[i % 4]}:c{i}", "label": labels[i % 4], "name": f"{labels[i % 4]} {i}",
         "aliases": [f"c{i}"]}
        for i in range(n_nodes - n_papers)
    ]  # fmt: skip
    papers = [{"id": f"x{i}", "name": f"Paper {i}", "title": f"Paper {i}"} for i in range(n_papers)]
    weights = [1 / (rank + 1) for rank in range(len(concepts))]
    links = []
    for i, p in enumerate(papers):
        chosen = {c["id"] for c in rng.choices(concepts, weights=weights, k=2 + i % 3)}
        links.extend((p["id"], c, "USES", "evidence") for c in sorted(chosen))
    return make_graph(papers, concepts, links)


def make_graph(papers: list[dict], concepts: list[dict], links: list[tuple]) -> nx.DiGraph:
    """A graph following ``paperkg.graph.schema`` from plain rows.

    ``links`` are ``(paper id, concept id, edge type, evidence)``; co-occurrence edges
    and paper counts are derived from them the way the graph builder does.
    """
    g = nx.DiGraph()
    for p in papers:
        g.add_node(f"paper:{p['id']}", label="Paper", **{k: v for k, v in p.items() if k != "id"})
    for c in concepts:
        g.add_node(c["id"], **{k: v for k, v in c.items() if k != "id"})
    for paper, concept, edge_type, evidence in links:
        g.add_edge(
            f"paper:{paper}",
            concept,
            type=edge_type,
            evidence=evidence,
            count=1,
            weight=1,
        )
    for c in concepts:
        g.nodes[c["id"]]["paper_count"] = len(set(g.predecessors(c["id"])))
    ids = sorted(c["id"] for c in concepts)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            shared = set(g.predecessors(a)) & set(g.predecessors(b))
            if shared:
                g.add_edge(a, b, type="CO_OCCURS_WITH", weight=len(shared))
    return g


@pytest.fixture(scope="session")
def neurips_build(shared_data, tmp_path_factory) -> Path:
    """``paperkg build`` of NeurIPS 2023's orals and spotlights in ../shared: 445 real
    abstracts, enough for a map of 300 concepts, in a seventh of the whole corpus's
    time (its 2,773 posters are read by tests/extract/readers)."""
    from paperkg.api import build, write_outputs

    out = tmp_path_factory.mktemp("neurips2023")
    folder = shared_data / "neurips2023"
    result = build([folder / "oral.csv", folder / "spotlight.csv"])
    write_outputs(result.graph, out, neo4j_bundle=False)
    return out
