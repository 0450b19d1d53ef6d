"""A rebuild starts from the names the last build worked out, and builds the same graph."""

import json
import pickle
import shutil
import sys

import pytest

from paperkg.api import build
from paperkg.extract.resolve import keys, name_memos
from paperkg.extract.resolve.name_memos import code_identity
from paperkg.graph.io import save_graph

ABSTRACTS = [
    '{"id": "a", "abstract": "We propose GraphZip, a graph neural network (GNN) for node '
    'classification on the Cora dataset, and compare it with Graph Attention Networks."}',
    '{"id": "b", "abstract": "We evaluate graph neural networks and GraphZip on Cora and '
    'PubMed for node classification, measured by accuracy."}',
]


def _memo_file(cache):
    [path] = (cache / "names").glob("*/*.json")
    return path


def _same_graph(result, tmp_path, other):
    save_graph(result.graph, tmp_path / "one.json")
    save_graph(other.graph, tmp_path / "other.json")
    return (tmp_path / "one.json").read_bytes() == (tmp_path / "other.json").read_bytes()


def test_a_rebuild_reads_the_saved_names_and_builds_the_same_graph(tmp_path):
    data = tmp_path / "a.jsonl"
    data.write_text("\n".join(ABSTRACTS) + "\n")
    cache = tmp_path / "cache"

    first = build([data], cache_dir=cache, jobs=1)
    saved = _memo_file(cache)
    written = saved.stat().st_ino
    answers = name_memos._decoded(
        json.loads(saved.read_text())["memos"]["paperkg.extract.resolve.keys.canonical_key"]
    )
    again = build([data], cache_dir=cache, jobs=1)
    plain = build([data], jobs=1)

    assert answers[("GNN", "METHOD")] == "gnn"
    assert _memo_file(cache).stat().st_ino == written  # all names came from it: not rewritten
    assert _same_graph(again, tmp_path, plain)
    assert _same_graph(first, tmp_path, plain)


def test_names_read_from_the_file_are_interned_in_the_graph(tmp_path):
    # the file's answers are new strings each: a concept's key and name are interned
    # all the same, as when they are worked out (see test_resolve_keys)
    data = tmp_path / "a.jsonl"
    data.write_text("\n".join(ABSTRACTS) + "\n")
    build([data], cache_dir=tmp_path / "cache", jobs=1)
    again = build([data], cache_dir=tmp_path / "cache", jobs=1)

    concepts = [d for _, d in again.graph.nodes(data=True) if d["label"] != "Paper"]
    assert concepts
    assert all(d["key"] is sys.intern(d["key"]) for d in concepts)
    assert all(d["name"] is sys.intern(d["name"]) for d in concepts)


def test_the_file_keeps_only_the_names_of_the_last_build_of_those_inputs(tmp_path):
    cache = tmp_path / "cache"
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(
        '{"id": "a", "abstract": "We train Zyxwvut networks on the QPRST dataset."}\n'
    )
    build([corpus], cache_dir=cache, jobs=1)
    corpus.write_text(
        '{"id": "b", "abstract": "We fine-tune BERT on SQuAD for question answering."}\n'
    )

    build([corpus], cache_dir=cache, jobs=1)

    saved = json.loads(_memo_file(cache).read_text())["memos"]
    surfaces = {name for columns in saved.values() for name in columns["args"][0]}
    assert "BERT" in surfaces
    assert not any("Zyxwvut" in s for s in surfaces)


def test_only_the_corpora_built_last_keep_their_names(tmp_path, monkeypatch):
    monkeypatch.setattr(name_memos, "KEEP_CORPORA", 2)
    cache = tmp_path / "cache"
    for name in ["one", "two", "three"]:
        corpus = tmp_path / f"{name}.jsonl"
        corpus.write_text(
            f'{{"id": "{name}", "abstract": "We train {name.title()}Net on Cora."}}\n'
        )
        build([corpus], cache_dir=cache, jobs=1)

    assert len(list((cache / "names").glob("*/*.json"))) == 2


def test_a_damaged_file_is_computed_again(tmp_path, caplog):
    data = tmp_path / "a.jsonl"
    data.write_text("\n".join(ABSTRACTS) + "\n")
    cache = tmp_path / "cache"
    build([data], cache_dir=cache, jobs=1)
    _memo_file(cache).write_text('{"memos": ["not", "a", "dict"]}')

    again = build([data], cache_dir=cache, jobs=1)

    assert "name memos: ignoring" in caplog.text
    assert _same_graph(again, tmp_path, build([data], jobs=1))
    assert json.loads(_memo_file(cache).read_text())["memos"]  # written whole again


def test_another_version_of_the_code_has_other_answers(tmp_path, repo_root):
    copy = tmp_path / "paperkg"
    shutil.copytree(
        repo_root / "extract", copy / "extract", ignore=shutil.ignore_patterns("models")
    )
    shutil.copy(repo_root / "records.py", copy / "records.py")
    before = code_identity(copy / "extract")
    lexicon = copy / "extract" / "resolve" / "lexicon.py"
    lexicon.write_text(lexicon.read_text() + "\n# one more generic word\n")

    assert code_identity(copy / "extract") != before
    assert code_identity(repo_root / "extract") == name_memos.CODE_IDENTITY


def test_answers_from_the_file_count_as_asked_for(tmp_path):
    name_memos.forget_memoised_names()
    try:
        name_memos.load_name_memos(tmp_path, ["nothing saved yet"])  # notes what is asked
        memo = keys.canonical_key.memo
        memo.earlier = {("Graph Neural Networks", "METHOD"): "graph neural network"}

        assert keys.canonical_key("Graph Neural Networks", "METHOD") == "graph neural network"
        assert memo.computed == 0
        assert memo.answers == {("Graph Neural Networks", "METHOD"): "graph neural network"}
    finally:
        name_memos.forget_memoised_names()


def test_a_memoised_function_still_takes_keywords_and_pickles_by_name():
    assert keys.canonical_key("GNNs", label="METHOD") == keys.canonical_key("GNNs", "METHOD")
    assert pickle.loads(pickle.dumps(keys.canonical_key)) is keys.canonical_key
    name_memos.forget_memoised_names()


@pytest.fixture(autouse=True)
def _no_memos_left():
    yield
    name_memos.forget_memoised_names()


def test_a_build_asking_for_more_names_than_the_budget_keeps_none(tmp_path, monkeypatch):
    """Noted answers cost memory twice (noted, then loaded); past the budget a build
    drops them, and its graph is the same."""
    data = tmp_path / "a.jsonl"
    data.write_text("\n".join(ABSTRACTS) + "\n")
    cache = tmp_path / "cache"
    monkeypatch.setattr(name_memos, "MAX_NOTED_ANSWERS", 20)

    over = build([data], cache_dir=cache, jobs=1)

    assert not (cache / "names").exists()
    assert _same_graph(over, tmp_path, build([data], jobs=1))
    monkeypatch.setattr(name_memos, "MAX_NOTED_ANSWERS", 10_000)
    build([data], cache_dir=cache, jobs=1)
    assert _memo_file(cache).exists()
    # the corpus grows past the budget: its smaller file is not loaded ever after
    monkeypatch.setattr(name_memos, "MAX_NOTED_ANSWERS", 20)
    data.write_text("\n".join(ABSTRACTS) + "\n" + ABSTRACTS[0].replace('"a"', '"c"') + "\n")
    build([data], cache_dir=cache, jobs=1)
    assert not list((cache / "names").glob("*/*.json"))
