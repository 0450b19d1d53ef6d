"""The records passed between stages."""

from paperkg.extract.readers import read_inputs
from paperkg.records import Mention, Paper


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


def test_mentions_from_another_process_share_their_offsets_and_names():
    """Extraction processes, the standby extractor and Dask workers send mentions
    pickled; each would come back with ints and names of its own."""
    import pickle

    found = Mention("graph neural network", "METHOD", 1000, 1021, "s.", proposed=True)
    a, b = (pickle.loads(pickle.dumps(found)) for _ in range(2))

    assert a == found and b == found
    assert a.start is b.start and a.end is b.end
    assert a.text is b.text and a.label is b.label
