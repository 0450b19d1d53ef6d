"""The readers on real files: the bundled example and the NeurIPS 2023 CSVs."""

import re
from pathlib import Path

import pytest

from paperkg.extract.readers import read_inputs

REPO = Path(__file__).resolve().parents[3]
EXAMPLE = REPO / "examples" / "iclr2025_abstracts.txt"
NEURIPS = REPO.parent / "shared" / "data" / "neurips2023"


def test_bundled_example_gives_19_iclr_2025_papers():
    result = read_inputs([EXAMPLE])

    assert len(result.papers) == 19
    assert {(p.venue, p.year) for p in result.papers} == {("ICLR", 2025)}
    assert result.skipped == [] and result.duplicates == []
    assert len({p.id for p in result.papers}) == 19


def test_bundled_example_projector_paper_has_its_code_url():
    papers = read_inputs([EXAMPLE]).papers
    projector = next(p for p in papers if "projection head" in p.text)

    assert projector.code_urls == ["https://github.com/PKU-ML/Projector_Theory"]
    assert "CIFAR-10, CIFAR-100, and ImageNet-100" in projector.text
    assert r"\url{" in projector.abstract and "\\" not in projector.text


def test_bundled_example_text_has_no_latex_left():
    for paper in read_inputs([EXAMPLE]).papers:
        assert not re.search(r"\\[a-zA-Z]|\$|\{|\}", paper.text), paper.source


def _reference_row(line: str) -> tuple[str, str, list[str], str]:
    """The rule SOURCE.md gives for this file family, written out independently."""
    anchor = re.search(r",https://openreview\.net/forum\?id=[^,]+,", line)
    paper_id = line[: line.index(",")]
    title = line[len(paper_id) + 1 : anchor.start()]
    rest = line[anchor.end() :]
    end = rest.index('",') + 1 if rest.startswith('"') else rest.index(",")
    keywords, abstract = rest[:end].strip('"'), rest[end + 1 :]
    if abstract.startswith('"') and abstract.endswith('"'):
        abstract = abstract[1:-1]
    # the readers collapse spaces inside keywords and strip them around an abstract
    keywords = [" ".join(k.split()) for k in re.split(r"[;,]", keywords) if k.strip()]
    return paper_id, title, keywords, abstract.strip()


@pytest.mark.shared_data
@pytest.mark.skipif(not NEURIPS.is_dir(), reason="../shared/data/neurips2023 is absent")
def test_neurips_2023_csvs_with_broken_quoting_are_read_right():
    files = sorted(NEURIPS.glob("*.csv"))
    result = read_inputs(files)
    papers = {p.id: p for p in result.papers}

    right = 0
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            paper_id, title, keywords, abstract = _reference_row(line)
            paper = papers[paper_id]
            right += (paper.title, paper.keywords, paper.abstract) == (title, keywords, abstract)
    assert (len(result.papers), right, len(result.skipped)) == (3218, 3218, 0)
    assert sum("rows with broken quoting re-split" in n for n in result.notes) == 3
