"""The concept map in headless Chromium: a field of thousands of papers, drawn as its concepts."""

from __future__ import annotations

import networkx as nx
import pytest
from synthetic_field import synthetic_field

from paperkg.export.html_map import write_map_html

from .conftest import PAYLOAD_IMG, PAYLOAD_SCRIPT

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def field():
    """2,000 synthetic papers in 20 topics, shaped like a conference (graph.synthetic)."""
    return synthetic_field(2000, seed=0)


@pytest.fixture
def field_map(field, open_view, tmp_path):
    report = write_map_html(field, tmp_path / "map.html")
    return open_view(report.path, ready="paperkgMap"), report


def concept_on_screen(opened, index: int) -> tuple[float, float]:
    return tuple(
        opened.js(
            """(id) => {
                const net = paperkgMap.network;
                const dom = net.canvasToDOM(net.getPositions([id])[id]);
                const box = document.getElementById('pk-network').getBoundingClientRect();
                return [box.left + dom.x, box.top + dom.y];
            }""",
            index,
        )
    )


def check_default_map(opened) -> dict:
    """What a map of a large corpus must show when it opens; returns the measures."""
    measures = opened.js(
        """() => ({
            drawn: paperkgMap.network.body.nodeIndices.length,
            papers: paperkgMap.nodes.get().filter(n => n.shape === 'square').length,
            labels: paperkgMap.drawnLabelCount(),
            readyMs: paperkgMap.readyAt,
        })"""
    )
    assert measures["drawn"] >= 200
    assert measures["papers"] == 0  # concepts only: papers are in the panel
    assert measures["labels"] >= 30
    assert measures["readyMs"] < 3000
    assert opened.errors == [] and opened.blocked == []
    return measures


def test_a_map_of_2000_papers_opens_with_concepts_and_readable_labels(field_map):
    opened, report = field_map
    measures = check_default_map(opened)
    assert measures["drawn"] == report.concepts_drawn == 300
    opened.screenshot("map_synthetic_2000.png")


def test_clicking_a_concept_lists_its_papers_and_a_paper_its_concepts(field_map):
    opened, _ = field_map
    x, y = concept_on_screen(opened, 0)
    opened.page.mouse.click(x, y)
    opened.page.wait_for_selector("#pk-panel:not([hidden])")
    concept = opened.js("paperkgMap.nodes.get(0).title.split('\\n')[0]")
    assert opened.page.inner_text("#pk-panel h2") == concept
    papers = opened.js("document.querySelectorAll('#pk-panel ul.pk-papers > li').length")
    listed = opened.js("JSON.parse(document.getElementById('pk-data').textContent).nodes[0].papers")
    assert papers == min(listed, 200)
    opened.page.click("#pk-panel ul.pk-papers > li:first-child button.pk-link")
    assert opened.js("paperkgMap.shown.paper") is not None
    assert concept in opened.page.inner_text("#pk-panel")
    # and back to a concept from the paper
    opened.page.click(f"#pk-panel button.pk-link:text-is('{concept}')")
    assert opened.js("paperkgMap.shown.concept") == 0
    assert opened.errors == []


def test_search_finds_a_concept_by_an_alias(field_map):
    opened, _ = field_map
    index, name, alias = opened.js(
        """() => {
            const nodes = JSON.parse(document.getElementById('pk-data').textContent).nodes;
            const n = nodes.find(n => n.aliases.length && n.id > 0);
            return [n.id, n.name, n.aliases[0]];
        }"""
    )
    assert alias != name
    opened.page.fill("#pk-query", alias.upper())
    opened.page.press("#pk-query", "Enter")
    assert opened.page.inner_text("#pk-status").startswith(name)
    assert opened.page.inner_text("#pk-panel h2") == name
    assert opened.js("paperkgMap.network.getSelectedNodes()") == [index]
    opened.page.fill("#pk-query", "zzz nothing")
    opened.page.press("#pk-query", "Enter")
    assert "Nothing named" in opened.page.inner_text("#pk-status")


def test_filters_hide_and_restore_without_losing_nodes(field_map):
    opened, report = field_map
    total = report.concepts_drawn
    methods = report.drawn_by_label["Method"]
    opened.js("paperkgMap.setLabels(['Method'])")
    assert opened.js("paperkgMap.visibleNodeCount()") == methods
    opened.js("paperkgMap.setLabels(['Method', 'Dataset', 'Task', 'Metric'])")
    assert opened.js("paperkgMap.visibleNodeCount()") == total
    opened.js("paperkgMap.setMinPapers(40)")
    few = opened.js("paperkgMap.visibleNodeCount()")
    assert 0 < few < total
    opened.js("paperkgMap.setYears(2024, 2024)")
    assert opened.js("paperkgMap.visibleNodeCount()") < few
    opened.js("paperkgMap.setYears(2019, 2024)")
    opened.js("paperkgMap.setMinPapers(1)")
    assert opened.js("paperkgMap.visibleNodeCount()") == total
    assert opened.js("paperkgMap.network.body.nodeIndices.length") == total
    assert opened.errors == []


def test_colour_by_year_recolours_and_shows_the_scale(field_map):
    opened, _ = field_map
    before = opened.js("paperkgMap.nodes.get().map(n => n.color.background)")
    opened.js("paperkgMap.setColour('year')")
    after = opened.js("paperkgMap.nodes.get().map(n => n.color.background)")
    assert sum(a != b for a, b in zip(before, after, strict=True)) > len(before) / 2
    assert opened.js("document.getElementById('pk-year-scale').hidden") is False
    opened.js("paperkgMap.setColour('cluster')")
    assert opened.js("paperkgMap.nodes.get().map(n => n.color.background)") == before


def test_the_view_is_saved_as_a_png(field_map, tmp_path):
    opened, _ = field_map
    with opened.page.expect_download() as download:
        opened.page.click("#pk-png")
    saved = tmp_path / "saved.png"
    download.value.save_as(saved)
    data = saved.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


def test_input_text_is_shown_as_text_and_never_runs(open_view, tmp_path):
    g = nx.DiGraph()
    for i in range(3):
        g.add_node(f"paper:{i}", label="Paper", name=f"P{i}", title=f"{PAYLOAD_IMG} title {i}",
                   venue=PAYLOAD_SCRIPT, doi="javascript:alert(3)")  # fmt: skip
        for c in (f"KD {PAYLOAD_IMG}", "BERT"):
            g.add_node(f"Method:{c}", label="Method", name=c, aliases=[PAYLOAD_SCRIPT])
            g.add_edge(f"paper:{i}", f"Method:{c}", type="USES",
                       evidence=PAYLOAD_SCRIPT)  # fmt: skip
    report = write_map_html(g, tmp_path / "xss.html", title=PAYLOAD_IMG)
    opened = open_view(report.path, ready="paperkgMap")
    opened.js("paperkgMap.search('KD')")
    panel = opened.page.inner_text("#pk-panel")
    assert PAYLOAD_IMG in panel and PAYLOAD_SCRIPT in panel
    opened.page.click("#pk-panel ul.pk-papers > li:first-child button.pk-link")
    assert PAYLOAD_IMG in opened.page.inner_text("#pk-panel h2")
    assert opened.js("document.querySelectorAll('#pk-panel a[href^=javascript]').length") == 0
    assert opened.js("window.__xss") == 0
    assert opened.js("document.querySelectorAll('img').length") == 0
    assert opened.errors == []


@pytest.mark.shared_data
def test_the_neurips_2023_map(neurips_build, open_view):
    """A real corpus: NeurIPS 2023 orals and spotlights built by paperkg, graph.html opened as is."""
    opened = open_view(neurips_build / "graph.html", ready="paperkgMap")
    assert check_default_map(opened)["drawn"] == 300  # 2,008 concepts: the map's full share
    opened.screenshot("map_neurips2023.png")
    assert opened.js("paperkgMap.search('GNN')") is not None
    assert "graph neural network" in opened.page.inner_text("#pk-panel h2").lower()


def test_an_empty_graph_gives_an_empty_map_without_errors(open_view, tmp_path):
    report = write_map_html(nx.DiGraph(), tmp_path / "empty.html")
    opened = open_view(report.path, ready="paperkgMap")
    assert opened.js("paperkgMap.visibleNodeCount()") == 0
    assert opened.js("paperkgMap.search('anything')") is None
    assert opened.errors == []
