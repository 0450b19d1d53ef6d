"""The extraction cache: a rebuild extracts only what changed, and never trusts a bad entry."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from paperkg.api import build
from paperkg.cli import app
from paperkg.extract.nlp.cache import ExtractionCache, pipeline_identity
from paperkg.extract.nlp.pipeline import resolve_model
from paperkg.graph.io import save_graph
from paperkg.records import Mention, Paper, PaperMentions


def paper(pid: str, text: str) -> Paper:
    return Paper(id=pid, abstract=text, text=text, source=f"t#{pid}")


def bert(pid: str, text: str = "We use BERT.") -> PaperMentions:
    return PaperMentions(paper(pid, text), [Mention("BERT", "METHOD", 7, 11, text)], {"B": "BERT"})


def test_an_entry_is_found_by_the_text_and_carries_the_new_record(tmp_path):
    cache = ExtractionCache(tmp_path, identity="x")
    cache.put(bert("a"))
    same_text = Paper(id="b", abstract="We use BERT.", text="We use BERT.", source="other#9")
    hit = cache.get(same_text)
    assert hit.paper is same_text
    assert hit.mentions == [Mention("BERT", "METHOD", 7, 11, "We use BERT.")]
    assert hit.acronyms == {"B": "BERT"}
    assert cache.get(paper("c", "We use GPT.")) is None
    assert (cache.hits, cache.misses) == (1, 1)


def test_a_build_reads_all_its_papers_at_once_and_writes_them_at_once(tmp_path):
    cache = ExtractionCache(tmp_path, identity="x")
    cache.put_many([bert("a", "We use BERT."), bert("b", "We use BERT twice.")])
    wanted = [paper("1", "We use BERT twice."), paper("2", "New."), paper("3", "We use BERT.")]
    found = cache.get_many(wanted)
    assert [r.paper.id if r else None for r in found] == ["1", None, "3"]
    assert (cache.hits, cache.misses) == (2, 1)


def test_a_changed_text_or_pipeline_misses(tmp_path):
    ExtractionCache(tmp_path, identity="one").put(bert("a", "We use BERT."))
    assert ExtractionCache(tmp_path, identity="one").get(paper("a", "We use BERT!")) is None
    assert ExtractionCache(tmp_path, identity="two").get(paper("a", "We use BERT.")) is None
    assert ExtractionCache(tmp_path, identity="one").get(paper("a", "We use BERT.")) is not None


def test_the_cache_is_one_sqlite_file_any_program_can_read(tmp_path):
    ExtractionCache(tmp_path, identity="x").put_many([bert("a"), bert("b", "We use GPT.")])
    assert [p.name for p in tmp_path.iterdir()] == ["extractions.sqlite"]
    with sqlite3.connect(tmp_path / "extractions.sqlite") as db:
        rows = db.execute("SELECT pipeline, document FROM extractions ORDER BY document").fetchall()
    assert rows == [("x", "We use BERT."), ("x", "We use GPT.")]


def test_a_hash_collision_or_a_damaged_row_is_not_a_hit(tmp_path, caplog):
    cache = ExtractionCache(tmp_path, identity="x")
    cache.put_many([bert("a", "one"), bert("b", "two")])
    with sqlite3.connect(tmp_path / "extractions.sqlite") as db:
        db.execute("UPDATE extractions SET document = 'another' WHERE document = 'one'")
        db.execute("UPDATE extractions SET mentions = '[{\"text\": ' WHERE document = 'two'")
    assert cache.get_many([paper("a", "one"), paper("b", "two")]) == [None, None]
    assert "extraction cache: ignoring the row of text" in caplog.text


def write_garbage(path):
    path.write_bytes(b"half a page of a disk that died" * 100)


def write_another_format(path):
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 1")


@pytest.mark.parametrize("damage", [write_garbage, write_another_format])
def test_a_file_that_cannot_be_the_cache_is_replaced_with_a_warning(tmp_path, caplog, damage):
    cache = ExtractionCache(tmp_path, identity="x")
    cache.put(bert("a"))
    damage(tmp_path / "extractions.sqlite")

    assert cache.get(paper("a", "We use BERT.")) is None
    (warning,) = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warning.startswith(f"extraction cache: replacing {tmp_path / 'extractions.sqlite'} (")
    cache.put(bert("a"))
    assert cache.get(paper("a", "We use BERT.")).mentions == bert("a").mentions


#: one process of the test below: waits for the word, then puts 150 papers one
#: transaction each (half of them texts the other process puts too), then 150 at once
WRITER = """
import pathlib, sys, time
from paperkg.extract.nlp.cache import ExtractionCache
from paperkg.records import Mention, Paper, PaperMentions

folder, name = pathlib.Path(sys.argv[1]), sys.argv[2]
def result(text):
    paper = Paper(id=text, abstract=text, text=text, source="t")
    return PaperMentions(paper, [Mention(text, "METHOD", 0, len(text), text)], {})
while not (folder / "go").exists():
    time.sleep(0.01)
cache = ExtractionCache(folder, identity="x")
for i in range(150):
    cache.put(result(f"{name} {i}" if i % 2 else f"shared {i}"))
cache.put_many([result(f"{name} batch {i}") for i in range(150)])
"""


def test_two_processes_writing_at_once_leave_a_cache_that_reads_back_whole(tmp_path):
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(tmp_path), name], stderr=subprocess.PIPE
        )
        for name in ("left", "right")
    ]
    time.sleep(1)  # both importing paperkg
    (tmp_path / "go").touch()
    for writer in writers:
        _, errors = writer.communicate(timeout=120)
        assert writer.returncode == 0 and b"extraction cache" not in errors, errors.decode()

    texts = [f"shared {i}" for i in range(0, 150, 2)]
    for name in ("left", "right"):
        texts += [f"{name} {i}" for i in range(1, 150, 2)] + [
            f"{name} batch {i}" for i in range(150)
        ]
    cache = ExtractionCache(tmp_path, identity="x")
    found = cache.get_many([paper(text, text) for text in texts])
    assert [r.mentions[0].text if r else None for r in found] == texts
    with sqlite3.connect(tmp_path / "extractions.sqlite") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT count(*) FROM extractions").fetchone() == (len(texts),)


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


def test_a_damaged_cache_costs_a_build_a_warning_and_a_new_extraction(corpus, tmp_path, caplog):
    cache = tmp_path / "cache"
    first = build([corpus / "first.txt"], cache_dir=cache, jobs=1)
    write_garbage(cache / "extractions.sqlite")

    again = build([corpus / "first.txt"], cache_dir=cache, jobs=1)
    assert again.from_cache == 0
    assert f"extraction cache: replacing {cache / 'extractions.sqlite'}" in caplog.text
    assert build([corpus / "first.txt"], cache_dir=cache).from_cache == len(first.read.papers)


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


def test_a_rebuild_reads_its_results_from_the_cache_a_block_at_a_time(tmp_path, monkeypatch):
    from paperkg.extract.corpus import record_blocks
    from paperkg.extract.nlp.cache import CachedRecords

    monkeypatch.setattr(record_blocks, "RECORD_BLOCK", 2)
    cache = ExtractionCache(tmp_path, identity="x")
    stored = [bert(str(i), f"We use BERT {i} times.") for i in range(5)]
    cache.put_many(stored)
    papers = [r.paper for r in stored] + [paper("new", "We use GPT.")]
    fresh = PaperMentions(papers[-1], [Mention("GPT", "METHOD", 7, 10, "We use GPT.")])
    assert cache.stored(papers) == [True] * 5 + [False]

    records = CachedRecords(cache, papers, {5: fresh}, extract_again=None)

    assert list(records) == [*stored, fresh] and records[3] == stored[3]
    assert records[1:4] == stored[1:4] and len(records) == 6


def test_a_stored_result_that_no_longer_reads_back_is_extracted_again(tmp_path):
    from paperkg.extract.nlp.cache import CachedRecords

    cache = ExtractionCache(tmp_path, identity="x")
    cache.put_many([bert("a", "one"), bert("b", "two")])
    papers = [paper("a", "one"), paper("b", "two")]
    assert cache.stored(papers) == [True, True]
    with sqlite3.connect(tmp_path / "extractions.sqlite") as db:  # damaged after the check
        db.execute("UPDATE extractions SET mentions = '[{\"text\": ' WHERE document = 'two'")

    def extract_again(lost):
        return [PaperMentions(p, [Mention("two", "TASK", 0, 3, "two")]) for p in lost]

    records = CachedRecords(cache, papers, {}, extract_again)

    assert [r.mentions[0].text for r in records] == ["BERT", "two"]
    assert cache.get(papers[1]).mentions == [Mention("two", "TASK", 0, 3, "two")]  # stored
