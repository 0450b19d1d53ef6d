"""The report page in a real Chromium: every plot shows, nothing is fetched, the map is a click away."""

from pathlib import Path

import pytest

from paperkg.export.html import write_html
from paperkg.export.report import write_report
from paperkg.graph.synthetic import toy_field

pytestmark = pytest.mark.browser


@pytest.fixture
def report_page(browser, tmp_path):
    graph = toy_field()
    write_html(graph, tmp_path / "graph.html")
    index = write_report(graph, tmp_path / "report", map_html=tmp_path / "graph.html")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    remote, errors = [], []

    def block(route):
        remote.append(route.request.url)
        route.abort()

    page.route(lambda url: not url.startswith("file:"), block)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(Path(index).resolve().as_uri())
    page.wait_for_load_state("load")
    yield page, remote, errors
    page.close()


def test_every_plot_loads_offline(report_page):
    page, remote, errors = report_page
    images = page.evaluate(
        "[...document.images].map(i => [i.getAttribute('src'), i.complete, i.naturalWidth])"
    )
    names = {src for src, _, _ in images}
    assert {
        "map.png",
        "top_concepts.png",
        "method_task.png",
        "communities.png",
        "trends.png",
    } <= names
    assert all(complete and width > 200 for _, complete, width in images), images
    assert remote == [] and errors == []


def test_the_map_link_opens_the_interactive_view(report_page):
    page, _, errors = report_page
    page.get_by_role("link", name="Open the interactive map").first.click()
    page.wait_for_function("() => window.paperkgView && window.paperkgView.readyAt !== null")
    assert page.url.endswith("/graph.html")
    assert errors == []


def test_the_headline_tables_read_as_the_field(report_page):
    page, _, _ = report_page
    text = page.inner_text("body")
    assert "6 papers" in text
    assert "BERT · question answering · F1" in text  # a community, named
    assert "graph neural network" in page.inner_text("#central ~ table")
