"""paperkg's in-domain annotations (ids, fields, offsets) read with their papers as gold."""

import json
import logging

import pytest

from paperkg.errors import InputError
from paperkg.extract.evaluate.annotations import read_annotations
from paperkg.extract.evaluate.gold import GoldSpan
from paperkg.records import Paper

ABSTRACT = "We propose IEBins for monocular depth estimation. It is a neural network."
PAPER = Paper(
    id="p1",
    abstract=ABSTRACT,
    text=ABSTRACT,
    source="x.csv#1",
    title="IEBins: Iterative Elastic Bins",
)


def row(split="train", **changes):
    concepts = [
        {"name": "Iterative Elastic Bins", "label": "Method", "specific": True,
         "mentions": [["title", 0, 6, "IEBins"], ["title", 8, 30, "Iterative Elastic Bins"],
                      ["abstract", 11, 17, "IEBins"]]},
        {"name": "monocular depth estimation", "label": "Task", "specific": True,
         "mentions": [["abstract", 22, 48, "monocular depth estimation"]]},
        {"name": "neural network", "label": "Method", "specific": False,
         "mentions": [["abstract", 58, 72, "neural network"]]},
    ]  # fmt: skip
    return {"paper_id": "p1", "split": split, "concepts": concepts, **changes}


def write(path, *rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_a_paper_is_its_document_with_its_specific_mentions(tmp_path):
    splits = read_annotations([write(tmp_path / "a.jsonl", row())], {"p1": PAPER})

    (doc,) = splits["train"]
    assert doc.text == PAPER.document == "IEBins: Iterative Elastic Bins.\n\n" + ABSTRACT
    start = PAPER.abstract_start
    assert doc.spans == [
        GoldSpan(0, 6, "METHOD"),
        GoldSpan(8, 30, "METHOD"),
        GoldSpan(start + 11, start + 17, "METHOD"),
        GoldSpan(start + 22, start + 48, "TASK"),
    ]  # the generic "neural network" is no mention: it is outside, as any other word


def test_offsets_point_into_the_abstract_as_annotated_latex_and_all(tmp_path):
    raw = r"We train \texttt{D-Net} on CIFAR-10."
    paper = Paper(id="p1", abstract=raw, text="We train D-Net on CIFAR-10.", source="x")
    mention = ["abstract", raw.index("CIFAR"), raw.index("CIFAR") + 8, "CIFAR-10"]
    concept = {"name": "CIFAR-10", "label": "Dataset", "specific": True, "mentions": [mention]}
    path = write(tmp_path / "a.jsonl", {"paper_id": "p1", "concepts": [concept]})

    (doc,) = read_annotations([path], {"p1": paper})["train"]  # no split: train

    assert doc.text == raw
    assert [doc.text[s.start : s.end] for s in doc.spans] == ["CIFAR-10"]


def test_papers_go_to_the_split_their_row_names(tmp_path):
    other = Paper(id="p2", abstract="Nothing here.", text="Nothing here.", source="x.csv#2")
    rows = [row("select"), {"paper_id": "p2", "split": "test", "concepts": []}]
    splits = read_annotations([write(tmp_path / "a.jsonl", *rows)], {"p1": PAPER, "p2": other})

    assert {name: [d.id for d in docs] for name, docs in splits.items()} == {
        "select": ["p1"],
        "test": ["p2"],
    }


def test_a_paper_whose_text_changed_is_left_out_with_a_warning_naming_it(tmp_path, caplog):
    changed = Paper(id="p1", abstract="We propose Bins.", text="We propose Bins.", source="x")
    path = write(tmp_path / "a.jsonl", row())

    with caplog.at_level(logging.WARNING):
        splits = read_annotations([path], {"p1": changed})

    assert splits == {}
    assert f"{path}:1: paper p1 no longer reads 'IEBins'" in caplog.text


def test_a_paper_missing_from_the_inputs_is_left_out_with_a_warning(tmp_path, caplog):
    path = write(tmp_path / "a.jsonl", row())
    with caplog.at_level(logging.WARNING):
        assert read_annotations([path], {}) == {}
    assert f"{path}:1: paper p1 is not in the inputs" in caplog.text


def test_a_broken_line_is_one_error_naming_file_and_line(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps(row()) + "\n{not json\n")
    with pytest.raises(InputError, match=r"a\.jsonl:2: not a JSON object"):
        read_annotations([path], {"p1": PAPER})


@pytest.mark.shared_data
def test_every_annotated_neurips_paper_reads_back_at_its_offsets(shared_data, repo_root, caplog):
    """The 3,120 annotated NeurIPS 2023 papers: every specific mention is where it says."""
    from paperkg.extract.readers import read_inputs

    inputs = sorted((shared_data / "neurips2023").glob("*.csv"))
    papers = {p.id: p for p in read_inputs(inputs).papers}
    folder = repo_root / "bench" / "judged" / "annotations"
    files = sorted(f for f in folder.glob("*.jsonl") if not f.name.startswith("check"))
    rows = [json.loads(line) for f in files for line in f.read_text().splitlines() if line]

    with caplog.at_level(logging.WARNING):
        splits = read_annotations(files, papers)

    assert caplog.text == ""
    assert {name: len(docs) for name, docs in splits.items()} == {
        "test": 160,
        "select": 120,
        "train": 2840,
    }
    specific = sum(len(c["mentions"]) for r in rows for c in r["concepts"] if c["specific"])
    assert sum(len(doc.spans) for docs in splits.values() for doc in docs) == specific
