"""The page data is written in pieces that join to the same escaped JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from synthetic_field import synthetic_field

from paperkg.errors import ExportError
from paperkg.export.html_map import write_map_html
from paperkg.export.script_json import script_json_pieces, with_script_json

from .test_html_map import page_data


def escaped_json(data) -> str:
    """What the page held before it was written in pieces: one dumps, then the escapes."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    for raw, escaped in [("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")]:  # fmt: skip
        text = text.replace(raw, escaped)
    return text


texts = st.text(alphabet=st.sampled_from(list('ab <>&"\\é…\u2028\u2029\n')), max_size=6)
json_like = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | texts,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.tuples(inner, inner)
        | st.dictionaries(texts, inner, max_size=4)
        | st.dictionaries(st.integers(), inner, max_size=3)  # keys json.dumps turns into strings
    ),
    max_leaves=25,
)


@given(json_like, st.integers(min_value=1, max_value=4))
def test_the_pieces_join_to_the_escaped_json(data, items_per_piece):
    pieces = list(script_json_pieces(data, items_per_piece=items_per_piece))

    assert "".join(pieces) == escaped_json(data)


def test_no_piece_holds_a_long_list_whole():
    data = {"papers": [[f"paper {i} <i>", i] for i in range(20_000)], "n": 1}

    pieces = list(script_json_pieces(data))

    assert max(map(len, pieces)) < len("".join(pieces)) / 20
    assert json.loads("".join(pieces)) == json.loads(json.dumps(data))


def test_the_mark_in_a_page_becomes_the_data():
    page = ["<p>before</p><script>", "MARK", "</script>", "<p>after</p>"]

    written = "".join(with_script_json(page, "MARK", {"t": "</script>"}))

    assert written == '<p>before</p><script>{"t": "\\u003c/script\\u003e"}</script><p>after</p>'


@pytest.mark.parametrize("page", [["<script>", "</script>"], ["<script>MARK", "MARK</script>"]])
def test_a_page_without_one_mark_fails_rather_than_lose_or_repeat_its_data(page):
    with pytest.raises(ExportError, match="mark"):
        list(with_script_json(page, "MARK", {"t": 1}))


def test_the_page_around_the_data_is_written_in_pieces_too():
    data = {"papers": [[f"paper {i}", i] for i in range(20_000)]}

    pieces = list(with_script_json(["<script>", "MARK", "</script>"], "MARK", data))

    assert max(map(len, pieces)) < len("".join(pieces)) / 20


def test_the_map_page_holds_its_data_once_and_no_mark(tmp_path):
    report = write_map_html(synthetic_field(800, seed=2), tmp_path / "map.html")

    html = report.path.read_text(encoding="utf-8")
    data = page_data(report.path)
    assert "paperkg-data-" not in html
    assert html.count('id="pk-data"') == 1
    assert len(data["nodes"]) == report.concepts_drawn and data["papers"]
