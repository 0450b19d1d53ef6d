"""The HTML view in a real headless Chromium: offline, searchable, filterable, safe."""

from __future__ import annotations

import re

import pytest

from paperkg.export.html import PHYSICS_MAX_NODES, write_html

pytestmark = pytest.mark.browser

PAYLOAD_IMG = "<img src=x onerror=alert(1)>"
PAYLOAD_SCRIPT = "</script><script>alert(2)</script><!--"


def test_view_loads_offline_with_every_node_drawn(tiny_graph, open_view, tmp_path):
    report = write_html(tiny_graph, tmp_path / "graph.html")
    view = open_view(report.path)

    assert view.errors == []
    assert view.blocked == []  # nothing outside the file was even attempted
    assert view.js("paperkgView.drawnNodeCount()") == tiny_graph.number_of_nodes() == 9
    assert view.js("paperkgView.drawnEdgeCount()") == report.edges_drawn
    assert view.screenshot("view_tiny.png").stat().st_size > 10_000


def test_file_references_nothing_remote(tiny_graph, tmp_path):
    html = write_html(tiny_graph, tmp_path / "graph.html").path.read_text(encoding="utf-8")

    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)\s*=", html, re.I)
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.I)
    assert not re.search(r"""url\(\s*["']?\s*(https?:)?//""", html, re.I)
    assert "@import" not in html


def test_xss_payloads_show_as_text_and_never_run(tiny_graph, open_view, tmp_path):
    # physics off: the nodes stay at their precomputed places, so the pointer lands on
    # the node it was aimed at (a moving node made this hover miss now and then)
    view = open_view(write_html(tiny_graph, tmp_path / "graph.html", physics=False).path)
    assert view.js("paperkgView.network.physics.physicsEnabled") is False

    # hover the payload paper until its tooltip shows
    x, y = view.node_on_screen("paper:p3")
    view.page.mouse.move(x - 30, y - 30)
    view.page.mouse.move(x, y, steps=5)
    tip = view.page.locator("div.vis-tooltip")
    tip.wait_for(state="visible", timeout=5000)
    text = tip.inner_text()
    assert f"Attack {PAYLOAD_IMG}" in text
    assert "</script><script>alert(2)</script>" in text
    assert tip.locator("img, script").count() == 0
    view.screenshot("view_xss_tooltip.png")

    # the aliases offered by the search box are text too
    options = view.js("[...document.querySelectorAll('#pk-names option')].map(o => o.value)")
    assert f"KD {PAYLOAD_IMG}" in options
    assert view.js("document.querySelectorAll('img').length") == 0
    assert view.js("window.__xss") == 0
    assert view.errors == []


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("LADS", "Method:lads"),  # name
        ("label-aware distillation", "Method:lads"),  # alias
        ("cifar10", "Dataset:cifar-10"),  # alias, any case
        ("imagenet", "Dataset:imagenet-100"),  # part of a name
    ],
)
def test_search_finds_and_focuses_a_node(tiny_graph, open_view, tmp_path, query, expected):
    view = open_view(write_html(tiny_graph, tmp_path / "graph.html").path)

    view.page.fill("#pk-query", query)
    view.page.press("#pk-query", "Enter")

    assert view.js("paperkgView.network.getSelectedNodes()") == [expected]
    assert view.js("paperkgView.highlighted") == expected
    centre = view.js("paperkgView.network.getViewPosition()")
    node = view.js(f"paperkgView.network.getPositions(['{expected}'])['{expected}']")
    assert abs(centre["x"] - node["x"]) < 5 and abs(centre["y"] - node["y"]) < 5
    assert view.page.inner_text("#pk-status").startswith(
        view.js(f"paperkgView.nodes.get('{expected}').kg.name")
    )


def test_search_says_when_nothing_matches(tiny_graph, open_view, tmp_path):
    view = open_view(write_html(tiny_graph, tmp_path / "graph.html").path)

    view.page.fill("#pk-query", "no such thing")
    view.page.press("#pk-query", "Enter")

    assert view.page.inner_text("#pk-status") == "Nothing named \u201cno such thing\u201d"
    assert view.js("paperkgView.network.getSelectedNodes()") == []


def test_label_filter_hides_nodes_and_brings_every_one_back(tiny_graph, open_view, tmp_path):
    view = open_view(write_html(tiny_graph, tmp_path / "graph.html").path)
    total = tiny_graph.number_of_nodes()

    view.page.uncheck("#pk-legend input[data-label=Paper]")
    assert view.js("paperkgView.drawnNodeCount()") == total - 3
    view.page.uncheck("#pk-legend input[data-label=Method]")
    assert view.js("paperkgView.drawnNodeCount()") == total - 3 - 2
    drawn = view.js("paperkgView.network.body.nodeIndices")
    assert not any(n.startswith(("paper:", "Method:")) for n in drawn)

    # pyvis #193: after filtering, restoring must bring back every node and edge
    for label in ("Paper", "Method", "Dataset", "Task", "Metric"):
        view.page.uncheck(f"#pk-legend input[data-label={label}]")
    assert view.js("paperkgView.drawnNodeCount()") == 0
    for label in ("Paper", "Method", "Dataset", "Task", "Metric"):
        view.page.check(f"#pk-legend input[data-label={label}]")
    assert view.js("paperkgView.drawnNodeCount()") == total
    assert view.js("paperkgView.drawnEdgeCount()") == view.js("paperkgView.edges.length")
    assert view.errors == []


def test_search_turns_the_label_of_a_hidden_node_back_on(tiny_graph, open_view, tmp_path):
    view = open_view(write_html(tiny_graph, tmp_path / "graph.html").path)

    view.page.uncheck("#pk-legend input[data-label=Dataset]")
    view.page.fill("#pk-query", "CIFAR-10")
    view.page.press("#pk-query", "Enter")

    assert view.page.is_checked("#pk-legend input[data-label=Dataset]")
    assert view.js("paperkgView.drawnNodeCount()") == tiny_graph.number_of_nodes()


def test_click_highlights_neighbours_and_empty_space_resets(tiny_graph, open_view, tmp_path):
    # physics off from the start: nodes stay where we click
    view = open_view(write_html(tiny_graph, tmp_path / "graph.html", physics=False).path)

    view.page.mouse.click(*view.node_on_screen("Dataset:cifar-10"))

    assert view.js("paperkgView.highlighted") == "Dataset:cifar-10"
    dim = view.js("JSON.stringify(paperkgView.nodes.get('Dataset:imagenet-100').color)")
    assert "rgba(200,200,200" in dim
    kept = view.js("JSON.stringify(paperkgView.nodes.get('paper:p1').color)")  # its paper
    assert "rgba" not in kept
    view.screenshot("view_highlight.png")

    view.page.mouse.click(1270, 790)  # a corner, far from every node
    assert view.js("paperkgView.highlighted") is None
    assert "rgba" not in view.js(
        "JSON.stringify(paperkgView.nodes.get('Dataset:imagenet-100').color)"
    )


def test_large_graph_is_laid_out_in_advance(synthetic_graph, open_view, tmp_path):
    graph = synthetic_graph(PHYSICS_MAX_NODES + 200)
    report = write_html(graph, tmp_path / "big.html", max_nodes=450)

    assert report.physics is False
    assert report.nodes_drawn == 450
    assert report.nodes_left_out == graph.number_of_nodes() - 450
    view = open_view(report.path)
    assert view.errors == [] and view.blocked == []
    assert view.js("paperkgView.drawnNodeCount()") == 450
    assert view.js("paperkgView.network.physics.physicsEnabled") is False

    # large views highlight by selecting the node and its neighbours (recolouring is slow)
    found = view.js("paperkgView.search('Method 0')")
    neighbours = view.js(f"paperkgView.network.getConnectedNodes('{found}')")
    selected = view.js("paperkgView.network.getSelectedNodes()")
    assert found == "Method:c0" and len(neighbours) > 10
    assert sorted(selected) == sorted([found, *neighbours])
    view.screenshot("view_large.png")


def test_empty_graph_gives_an_empty_page_without_errors(open_view, tmp_path):
    import networkx as nx

    view = open_view(write_html(nx.DiGraph(), tmp_path / "empty.html").path)

    assert view.errors == []
    assert view.js("paperkgView.drawnNodeCount()") == 0


def test_example_corpus_view(example_graph, open_view, tmp_path):
    report = write_html(example_graph, tmp_path / "graph.html")
    view = open_view(report.path)

    assert view.errors == [] and view.blocked == []
    assert view.js("paperkgView.drawnNodeCount()") == example_graph.number_of_nodes()
    assert view.js("paperkgView.search('Light-DDG')") is not None
    assert view.js("paperkgView.nodes.get(paperkgView.highlighted).kg.name").lower() == "light-ddg"
    view.screenshot("view_example.png")
