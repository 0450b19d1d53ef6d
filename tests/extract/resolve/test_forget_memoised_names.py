"""The name functions' memo caches are emptied once the corpus steps are done."""

from paperkg.extract.resolve import canonical_key, forget_memoised_names, keys, memo


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

    for memoised in memo._MEMOISED:
        assert memoised.cache_info().currsize == 0, memoised.__qualname__


def test_every_name_memo_of_the_corpus_steps_is_registered():
    """Every cached function of the corpus steps is a name memo that a build empties,
    except a model's loader (one small file per process, not a name of the corpus)."""
    import importlib
    import pkgutil

    import paperkg.extract.corpus
    import paperkg.extract.resolve

    names = [
        "paperkg.extract.corpus.corpus_terms",
        "paperkg.extract.corpus.labels",
        "paperkg.extract.corpus.titles",
    ]
    for package in (paperkg.extract.corpus, paperkg.extract.resolve):
        names += [
            info.name for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
        ]
    modules = [importlib.import_module(name) for name in names]
    assert keys in modules
    memos = {
        f"{m.__name__}.{name}"
        for m in modules
        for name, value in vars(m).items()
        if hasattr(value, "cache_clear")
        and value.__module__ == m.__name__
        and not name.startswith("load_")
    }
    registered = {
        f"{m.__module__}.{m.__qualname__}"
        for m in memo._MEMOISED
        if m.__module__ in names
        and getattr(importlib.import_module(m.__module__), m.__qualname__, None) is m
    }  # not a doctest's own memo (memo.py's "shout")
    assert memos == registered
    assert "paperkg.extract.corpus.labels.label_from_name" in registered


def test_a_build_that_fails_after_resolution_leaves_no_name_memoised(tmp_path, monkeypatch):
    import pytest

    import paperkg.api as api
    import paperkg.stages as stages

    def broken_step(*args, **kwargs):
        raise RuntimeError("a step after resolution failed")

    monkeypatch.setattr(stages, "decide_concepts", broken_step)  # before the build's own emptying
    data = tmp_path / "a.jsonl"
    data.write_text('{"id": "p", "abstract": "We train Zyxwvut networks on the QPRST dataset."}\n')

    with pytest.raises(RuntimeError):
        api.build([data], cache_dir=None)

    assert keys.clean_surface.cache_info().currsize == 0


def test_the_graph_is_made_with_no_name_of_resolution_memoised(tmp_path, monkeypatch):
    import paperkg.stages as stages
    from paperkg.api import build

    memoised_then = []
    make_graph = stages.build_knowledge_graph

    def watched(*args, **kwargs):
        memoised_then.append(canonical_key.cache_info().currsize)
        return make_graph(*args, **kwargs)

    monkeypatch.setattr(stages, "build_knowledge_graph", watched)
    data = tmp_path / "a.jsonl"
    data.write_text('{"id": "p", "abstract": "We train Zyxwvut networks on the QPRST dataset."}\n')
    build([data], cache_dir=None)

    assert memoised_then == [0]
