"""The name functions' memo caches are emptied once the corpus steps are done."""

from paperkg.extract.resolve import canonical_key, forget_memoised_names, keys


def test_forgetting_empties_every_memo_and_keeps_the_answers():
    before = canonical_key("Graph Neural Networks", "METHOD")
    keys.display_name("graph neural networks", "METHOD")
    assert canonical_key.cache_info().currsize > 0

    forget_memoised_names()

    assert canonical_key.cache_info().currsize == 0
    assert keys.display_name.cache_info().currsize == 0
    assert canonical_key("Graph Neural Networks", "METHOD") == before


def test_a_build_leaves_no_surface_of_its_corpus_memoised(tmp_path):
    from paperkg.api import build

    data = tmp_path / "a.jsonl"
    data.write_text('{"id": "p", "abstract": "We train Zyxwvut networks on the QPRST dataset."}\n')
    build([data], cache_dir=None)

    assert keys.clean_surface.cache_info().currsize == 0
