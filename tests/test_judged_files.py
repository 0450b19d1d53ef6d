"""The judged NeurIPS samples in bench/judged are data the benchmark trusts: keep them well-formed."""

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
JUDGED = ROOT / "bench" / "judged" / "neurips2023_links.jsonl"


def _judging():
    spec = importlib.util.spec_from_file_location("judging", ROOT / "bench" / "judging.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
