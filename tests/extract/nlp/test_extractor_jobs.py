"""Extraction in several processes gives what one process gives, in the same order."""

from dataclasses import replace

from paperkg.extract.nlp.extractor import extract_mentions
from paperkg.extract.readers import read_inputs


def test_two_processes_extract_what_one_does(nlp, repo_root):
    papers = read_inputs([repo_root / "examples" / "iclr2025_abstracts.txt"]).papers
    # 76 papers: more than one chunk of 64, so both workers get work
    many = [replace(p, id=f"{p.id}-{i}") for i in range(4) for p in papers]
    seen = []
    one = extract_mentions(nlp, many)
    two = extract_mentions(None, many, jobs=2, on_paper=seen.append)
    assert two == one
    assert [p.id for p in seen] == [p.id for p in many]  # progress in input order
