"""The judged NeurIPS samples in bench/judged are data the benchmark trusts: keep them well-formed."""

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
JUDGED = ROOT / "bench" / "judged" / "neurips2023_links.jsonl"


def _bench(name: str):
    """The benchmark script ``bench/<name>.py`` as a module (bench/ on the path: the
    scripts import each other)."""
    import sys

    if str(ROOT / "bench") not in sys.path:
        sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _judging():
    return _bench("judging")


def test_every_judged_link_has_a_known_verdict_and_label():
    judging = _judging()
    rows = [json.loads(line) for line in JUDGED.read_text(encoding="utf-8").splitlines() if line]
    assert {row["sample"] for row in rows} == {"dev", "dev2", "test"}
    for row in rows:
        for link in row["links"]:
            assert link["verdict"] in judging.VERDICTS, (row["paper_id"], link)
            assert link["label"] in judging.LABELS, (row["paper_id"], link)


def test_a_misspelt_verdict_is_refused_with_the_paper_named(tmp_path):
    judging = _judging()
    bad = tmp_path / "judged.jsonl"
    row = {
        "paper_id": "p1",
        "sample": "dev",
        "key": {},
        "links": [{"name": "BERT", "label": "Method", "verdict": "cut wrongly"}],
    }
    bad.write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="paper p1, link 'BERT'"):
        judging.load_judged(bad)


def test_every_judged_title_name_has_a_known_verdict():
    path = ROOT / "bench" / "judged" / "neurips2023_title_names.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    assert rows
    for row in rows:
        assert row["verdict"] in {"name", "slogan", "topic"}, row
        assert row["paper_id"] and row["phrase"], row


def _annotation():
    return _bench("annotation")


def test_every_annotated_paper_is_in_its_batch_with_known_labels_and_flags():
    annotation = _annotation()
    files = sorted(annotation.ANNOTATIONS.glob("*.jsonl"))
    assert {f.stem for f in files} >= {"test-1", "select-1", "train-1", "check-1"}
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            assert row["batch"] == path.stem and row["split"] == annotation.split_of(path.stem)
            for concept in row["concepts"]:
                assert annotation.check_concept({**concept, "surfaces": ["x"]}) is None, concept
                for field, start, end, text in concept["mentions"]:
                    assert field in annotation.FIELDS and 0 <= start < end and text


@pytest.mark.shared_data
def test_every_annotated_span_is_where_its_offsets_say(shared_data):
    annotation = _annotation()
    papers = annotation.load_papers()
    batches = annotation.batches(list(papers))
    test_ids = {pid for b, ids in batches.items() if b.startswith("test") for pid in ids}
    train_ids = {pid for b, ids in batches.items() if b.startswith("train") for pid in ids}
    assert not test_ids & train_ids  # the held-out set is apart
    for path in sorted(annotation.ANNOTATIONS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            paper = papers[row["paper_id"]]
            assert row["paper_id"] in batches[row["batch"]]
            assert row["text_sha1"] == annotation.text_hash(paper), "the reader changed"
            texts = annotation.fields_of(paper)
            for concept in row["concepts"]:
                for field, start, end, text in concept["mentions"]:
                    assert texts[field][start:end] == text, (row["paper_id"], text)


def test_links_are_judged_against_a_papers_annotation_by_rule():
    annotated = _bench("annotated")

    def concept(name, label, *surfaces, specific=True):
        mentions = [["abstract", 0, len(s), s] for s in surfaces]
        return {"name": name, "label": label, "specific": specific, "mentions": mentions}

    paper = [
        concept("reinforcement learning from human feedback", "Method", "RLHF"),
        concept("EB-TC$\\varepsilon$", "Method", "EB-TC$\\varepsilon$"),
        concept("training data", "Dataset", "training data", specific=False),
    ]

    def verdict(name, label, aliases=()):
        return annotated.judge_link({"name": name, "label": label, "aliases": aliases}, paper)[0]

    assert verdict("RLHF", "Method") == "right"
    assert verdict("Reinforcement Learning from Human Feedback", "Method") == "right"
    assert verdict("EB-TCε", "Method") == "right"  # LaTeX read as the pipeline reads it
    assert verdict("RLHF", "Task") == "wrong_label"
    assert verdict("human feedback", "Method") == "cut_wrongly"
    assert verdict("training data", "Dataset") == "generic"
