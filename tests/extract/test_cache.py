"""The extraction cache: a rebuild extracts only what changed, and never trusts a bad entry."""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

from paperkg.api import build
from paperkg.cli import app
from paperkg.extract.cache import ExtractionCache, pipeline_identity
from paperkg.extract.pipeline import resolve_model
from paperkg.graph.io import save_graph
from paperkg.records import Mention, Paper, PaperMentions


def paper(pid: str, text: str) -> Paper:
    return Paper(id=pid, abstract=text, text=text, source=f"t#{pid}")


def test_an_entry_is_found_by_the_text_and_carries_the_new_record(tmp_path):
    cache = ExtractionCache(tmp_path, identity="x")
    cache.put(PaperMentions(paper("a", "We use BERT."), [Mention("BERT", "METHOD", 7, 11, "")]))
    same_text = Paper(id="b", abstract="We use BERT.", text="We use BERT.", source="other#9")
    hit = cache.get(same_text)
    assert hit.paper is same_text and [m.text for m in hit.mentions] == ["BERT"]
    assert cache.get(paper("c", "We use GPT.")) is None
    assert (cache.hits, cache.misses) == (1, 1)


def test_another_pipeline_reads_none_of_the_entries(tmp_path):
    ExtractionCache(tmp_path, identity="one").put(PaperMentions(paper("a", "text"), []))
    assert ExtractionCache(tmp_path, identity="two").get(paper("a", "text")) is None


def test_a_corrupt_entry_counts_as_missing(tmp_path):
    cache = ExtractionCache(tmp_path, identity="x")
    cache.put(PaperMentions(paper("a", "text"), []))
    (entry,) = list(tmp_path.rglob("*.json"))
    entry.write_text('{"document": "text", "mentions": [', encoding="utf-8")  # a killed writer
    assert cache.get(paper("a", "text")) is None
    entry.write_text(json.dumps({"document": "other", "mentions": [], "acronyms": {}}))
    assert cache.get(paper("a", "text")) is None  # a hash collision is not a hit


def test_the_identity_follows_the_model_files(tmp_path):
    model = resolve_model(None)
    copy = tmp_path / "model"
    shutil.copytree(model, copy)
    assert pipeline_identity(copy) == pipeline_identity(model)
    (copy / "meta.json").write_text((copy / "meta.json").read_text() + " ")
    assert pipeline_identity(copy) != pipeline_identity(model)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, repo_root):
    folder = tmp_path_factory.mktemp("corpus")
    text = (repo_root / "examples" / "iclr2025_abstracts.txt").read_text(encoding="utf-8")
    blocks = text.split("\n\n")
    (folder / "first.txt").write_text("\n\n".join(blocks[:12]), encoding="utf-8")
    (folder / "more.txt").write_text("\n\n".join(blocks[:1] + blocks[12:]), encoding="utf-8")
    return folder


def test_a_rebuild_extracts_only_new_papers_and_builds_the_same_graph(corpus, tmp_path):
    cache = tmp_path / "cache"
    first = build([corpus / "first.txt"], cache_dir=cache, jobs=1)
    assert first.from_cache == 0
    again = build([corpus / "first.txt"], cache_dir=cache, jobs=1)
    assert again.from_cache == len(again.read.papers)
    save_graph(first.graph, tmp_path / "a.json")
    save_graph(again.graph, tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    grown = build([corpus / "first.txt", corpus / "more.txt"], cache_dir=cache, jobs=1)
    assert grown.from_cache == len(first.read.papers)
    assert len(grown.read.papers) > len(first.read.papers)
    uncached = build([corpus / "first.txt", corpus / "more.txt"], jobs=1)
    save_graph(grown.graph, tmp_path / "c.json")
    save_graph(uncached.graph, tmp_path / "d.json")
    assert (tmp_path / "c.json").read_bytes() == (tmp_path / "d.json").read_bytes()


def test_the_build_summary_says_what_came_from_the_cache(corpus, tmp_path):
    args = ["build", str(corpus / "first.txt"), "-o", str(tmp_path / "out"), "-j", "1"]
    args += ["--cache-dir", str(tmp_path / "cache")]
    assert "from the extraction cache" not in CliRunner().invoke(app, args).output
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "of them from the extraction cache" in result.output
    result = CliRunner().invoke(app, [*args, "--no-cache"])
    assert "from the extraction cache" not in result.output


def test_cached_papers_can_be_counted_at_once_so_a_rate_counts_extracted_ones(corpus, tmp_path):
    cache = tmp_path / "cache"
    build([corpus / "first.txt"], cache_dir=cache, jobs=1)
    counted, extracted = [], []

    grown = build(
        [corpus / "first.txt", corpus / "more.txt"],
        cache_dir=cache,
        jobs=1,
        on_cached=counted.append,
        on_paper=extracted.append,
    )

    assert counted == [grown.from_cache]
    assert len(extracted) == len(grown.read.papers) - grown.from_cache > 0
