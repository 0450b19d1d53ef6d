"""A rebuild starts from the names the last build worked out, and builds the same graph."""

import pickle

from paperkg.api import build
from paperkg.extract.resolve import keys, name_memos
from paperkg.graph.io import save_graph

ABSTRACTS = [
    '{"id": "a", "abstract": "We propose GraphZip, a graph neural network (GNN) for node '
    'classification on the Cora dataset, and compare it with Graph Attention Networks."}',
    '{"id": "b", "abstract": "We evaluate graph neural networks and GraphZip on Cora and '
    'PubMed for node classification, measured by accuracy."}',
]


def _memo_file(cache):
    [path] = (cache / "names").glob("*.pickle")
    return path


def test_a_rebuild_reads_the_saved_names_and_builds_the_same_graph(tmp_path):
    data = tmp_path / "a.jsonl"
    data.write_text("\n".join(ABSTRACTS) + "\n")
    cache = tmp_path / "cache"

    first = build([data], cache_dir=cache, jobs=1)
    saved = _memo_file(cache)
    written = saved.stat().st_mtime_ns
    answers = pickle.loads(saved.read_bytes())
    again = build([data], cache_dir=cache, jobs=1)
    plain = build([data], jobs=1)

    assert answers["paperkg.extract.resolve.keys.canonical_key"][("GNN", "METHOD")] == "gnn"
    assert saved.stat().st_mtime_ns == written  # every name came from the file: not rewritten
    for result, name in [(first, "first"), (again, "again"), (plain, "plain")]:
        save_graph(result.graph, tmp_path / f"{name}.json")
    assert (tmp_path / "again.json").read_bytes() == (tmp_path / "plain.json").read_bytes()
    assert (tmp_path / "first.json").read_bytes() == (tmp_path / "plain.json").read_bytes()


def test_the_file_keeps_only_the_names_of_the_last_build(tmp_path):
    cache = tmp_path / "cache"
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    one.write_text('{"id": "a", "abstract": "We train Zyxwvut networks on the QPRST dataset."}\n')
    two.write_text(
        '{"id": "b", "abstract": "We fine-tune BERT on SQuAD for question answering."}\n'
    )

    build([one], cache_dir=cache, jobs=1)
    build([two], cache_dir=cache, jobs=1)

    surfaces = {
        args[0] for memo in pickle.loads(_memo_file(cache).read_bytes()).values() for args in memo
    }
    assert "BERT" in surfaces
    assert not any("Zyxwvut" in s for s in surfaces)


def test_a_damaged_file_is_computed_again(tmp_path, caplog):
    data = tmp_path / "a.jsonl"
    data.write_text("\n".join(ABSTRACTS) + "\n")
    cache = tmp_path / "cache"
    build([data], cache_dir=cache, jobs=1)
    _memo_file(cache).write_bytes(b"not a pickle")

    again = build([data], cache_dir=cache, jobs=1)

    assert "name memos: ignoring" in caplog.text
    save_graph(again.graph, tmp_path / "again.json")
    save_graph(build([data], jobs=1).graph, tmp_path / "plain.json")
    assert (tmp_path / "again.json").read_bytes() == (tmp_path / "plain.json").read_bytes()
    assert pickle.loads(_memo_file(cache).read_bytes())  # written whole again


def test_answers_from_the_file_count_as_asked_for():
    name_memos.forget_memoised_names()
    keys.canonical_key.earlier = {("Graph Neural Networks", "METHOD"): "graph neural network"}

    assert keys.canonical_key("Graph Neural Networks", "METHOD") == "graph neural network"
    assert keys.canonical_key.computed == 0
    assert keys.canonical_key.answers == {
        ("Graph Neural Networks", "METHOD"): "graph neural network"
    }
    name_memos.forget_memoised_names()
