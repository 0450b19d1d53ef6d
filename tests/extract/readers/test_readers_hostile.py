"""Hostile records: each is read, cut or repaired with a note, and never costs the others."""

from __future__ import annotations

import json

from paperkg.api import build, write_outputs
from paperkg.extract.readers import read_inputs
from paperkg.extract.readers.inputs import MAX_TEXT_CHARS
from paperkg.graph.io import load_graph


def _jsonl(path, *records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_a_5_mb_abstract_is_read_up_to_a_sentence_and_said_so(tmp_path):
    huge = "We propose FooNet for image classification. " * 120_000
    path = _jsonl(tmp_path / "a.jsonl", {"id": "huge", "abstract": huge})

    read = read_inputs([path])

    (paper,) = read.papers
    assert len(paper.text) <= MAX_TEXT_CHARS and paper.text.endswith("classification.")
    assert paper.abstract == huge.strip()  # the record itself is kept whole
    assert any("a.jsonl#1" in n and "5,279,999 characters" in n for n in read.notes)


def test_lone_surrogates_become_visible_replacements_with_a_note(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text(
        '{"id": "s", "title": "A \\ud800 title", "abstract": "We use ResNet \\udfff on CIFAR.",'
        ' "authors": ["Ann \\ud83d"]}\n',
        encoding="utf-8",
    )

    read = read_inputs([path])

    (paper,) = read.papers
    assert paper.title == "A \ufffd title"
    assert paper.abstract == "We use ResNet \ufffd on CIFAR."
    assert paper.authors == ["Ann \ufffd"]
    assert read.notes[0].startswith(f"{path}#1: lone surrogates")
    paper.document.encode("utf-8")  # no UnicodeEncodeError anywhere downstream


def test_a_build_keeps_the_good_records_beside_hostile_ones(tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_text(
        json.dumps({"id": "good1", "abstract": "We train BERT on SQuAD for question answering."})
        + "\n"
        + json.dumps({"id": "huge", "abstract": "We apply ResNet to ImageNet. " * 200_000})
        + "\n"
        + '{"id": "sur", "abstract": "We use GPT-4 \\ud800 on MMLU for reasoning."}\n'
        + "{broken json\n"
        + json.dumps({"id": "good2", "abstract": "We evaluate T5 on GLUE for summarization."})
        + "\n",
        encoding="utf-8",
    )

    result = build([path], jobs=1)
    write_outputs(result.graph, tmp_path / "out")

    assert [p.id for p in result.read.papers] == ["good1", "huge", "sur", "good2"]
    assert [s.source for s in result.read.skipped] == [f"{path}#4"]
    back = load_graph(tmp_path / "out" / "graph.json")
    assert {n for n, d in back.nodes(data=True) if d["label"] == "Paper"} == {
        "paper:good1",
        "paper:huge",
        "paper:sur",
        "paper:good2",
    }
