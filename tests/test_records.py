"""The records passed between stages."""

import pytest

from paperkg.extract.readers import read_inputs
from paperkg.records import Paper


def test_the_pipeline_reads_the_title_as_a_first_sentence():
    paper = Paper(
        id="p", abstract="We propose X.", text="We propose X.", source="s", title="X: A Method"
    )
    assert paper.document == "X: A Method.\n\nWe propose X."
    asked = Paper(id="q", abstract="a", text="a", source="s", title="Does X Work?")
    assert asked.document == "Does X Work?\n\na"
    assert Paper(id="r", abstract="a", text="a", source="s").document == "a"


def test_the_title_is_cleaned_for_the_pipeline_and_kept_as_written(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text(
        '{"title": "Near-Optimal $k$-Clustering in the Sliding Window Model", '
        '"abstract": "We study clustering."}\n'
    )
    (paper,) = read_inputs([path]).papers
    assert paper.title == "Near-Optimal $k$-Clustering in the Sliding Window Model"
    assert paper.document.startswith("Near-Optimal k-Clustering in the Sliding Window Model.\n\n")


@pytest.mark.parametrize(
    "title, gap",
    [("A Study of X", ".\n\n"), ("Does X work?", "\n\n"), ("  Spaced title.  ", "\n\n")],
)
def test_a_document_says_where_its_title_ends_and_its_abstract_begins(title, gap):
    paper = Paper(id="p", abstract="We propose X.", text="We propose X.", source="t", title=title)
    document = paper.document
    assert document[: paper.title_end] == title.strip()
    assert document[paper.title_end : paper.abstract_start] == gap
    assert document[paper.abstract_start :] == paper.text


def test_a_document_without_a_title_is_its_abstract():
    paper = Paper(id="p", abstract="We propose X.", text="We propose X.", source="t")
    assert (paper.title_end, paper.abstract_start, paper.document) == (0, 0, paper.text)
