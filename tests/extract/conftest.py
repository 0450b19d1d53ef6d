"""Fixtures of the extraction tests: the tiny gold corpora laid out as the public releases."""

import shutil
from pathlib import Path

import pytest

from paperkg.records import Mention, Paper, PaperMentions

GOLD = Path(__file__).resolve().parents[1] / "fixtures" / "gold"


@pytest.fixture(scope="session")
def tiny_corpora(tmp_path_factory) -> dict[str, Path]:
    """``scierc``/``scier`` folders and the ``tdmsci`` file, as `paperkg train` takes them."""
    data = tmp_path_factory.mktemp("data")
    (data / "scierc").mkdir()
    for split in ("train", "dev"):
        shutil.copy(GOLD / "tiny_scierc.json", data / "scierc" / f"{split}.json")
    (data / "scier").mkdir()
    shutil.copy(GOLD / "tiny_scier.jsonl", data / "scier" / "train.jsonl")
    shutil.copy(GOLD / "tiny_scier_plm.jsonl", data / "scier" / "dev.plm.jsonl")
    return {
        "scierc": data / "scierc",
        "scier": data / "scier",
        "tdmsci": GOLD / "tiny_tdmsci.conll",
    }


def titled(paper_id: str, title: str, abstract: str, spans: list[tuple[str, str]]):
    """A paper with a title whose ``spans`` are found in order in its title, then its
    abstract (offsets into ``Paper.document``, as the pipeline gives them)."""
    paper = Paper(id=paper_id, abstract=abstract, text=abstract, source="t", title=title)
    document, mentions, position = paper.document, [], 0
    for surface, label in spans:
        start = document.index(surface, position)
        position = start + len(surface)
        mentions.append(Mention(surface, label, start, position, ""))
    return PaperMentions(paper, mentions)
