"""The standby extractor: loaded while a rebuild reads, it extracts what the cache lacks."""

from __future__ import annotations

import os
import time

import pytest

import paperkg.api as api
from paperkg.api import build
from paperkg.errors import PaperkgError
from paperkg.extract import spacy_import, workers
from paperkg.extract import standby as standby_module
from paperkg.extract.cache import ExtractionCache
from paperkg.extract.extractor import extract_mentions
from paperkg.extract.readers import read_inputs
from paperkg.extract.standby import StandbyExtractor, extract_on_two_cores
from paperkg.graph.io import save_graph
from paperkg.processes import available_cores

pytestmark = pytest.mark.skipif(not StandbyExtractor.available(), reason="needs fork (Linux)")


def test_it_finds_what_this_process_finds(nlp, repo_root):
    papers = read_inputs([repo_root / "examples" / "iclr2025_abstracts.txt"]).papers[:6]
    seen = []

    with StandbyExtractor(None) as standby:
        found = standby.extract(papers, on_paper=seen.append)

    assert found == extract_mentions(nlp, papers)
    assert seen == papers


@pytest.fixture
def loaded_worker(nlp, monkeypatch):
    """This process as a loaded standby worker (its pipeline is the suite's)."""
    if available_cores() < 2:
        pytest.skip("the standby shares its papers only with a second core")
    monkeypatch.setattr(workers, "_worker_nlp", nlp)
    # other tests imported PyTorch into this process; the suite's pipeline runs without it
    monkeypatch.setattr(standby_module, "_forks_safely", lambda: True)


def test_a_loaded_worker_shares_the_papers_with_a_forked_copy(
    loaded_worker, nlp, repo_root, tmp_path, monkeypatch
):
    papers = read_inputs([repo_root / "examples" / "iclr2025_abstracts.txt"]).papers[:6]
    helper_extract = standby_module._extract_into

    def noted(connection, share):  # the helper says who it is and what it got
        (tmp_path / "helper").write_text(f"{os.getpid()} {len(share)}")
        helper_extract(connection, share)

    monkeypatch.setattr(standby_module, "_extract_into", noted)
    found = extract_on_two_cores(papers)

    assert found == extract_mentions(nlp, papers)
    pid, shared = map(int, (tmp_path / "helper").read_text().split())
    assert pid != os.getpid() and shared == 3


def test_a_helper_that_dies_only_costs_its_half(loaded_worker, nlp, repo_root, monkeypatch):
    papers = read_inputs([repo_root / "examples" / "iclr2025_abstracts.txt"]).papers[:6]
    monkeypatch.setattr(standby_module, "_extract_into", lambda *args: os._exit(9))  # out of memory
    assert extract_on_two_cores(papers) == extract_mentions(nlp, papers)


def test_a_model_that_cannot_load_is_an_error_when_papers_come(tmp_path, repo_root):
    papers = read_inputs([repo_root / "examples" / "iclr2025_abstracts.txt"]).papers[:1]

    with StandbyExtractor(str(tmp_path / "no-such-model")) as standby:
        with pytest.raises(PaperkgError, match="no-such-model"):
            standby.extract(papers)


def test_closing_it_while_it_loads_stops_it_at_once():
    standby = StandbyExtractor(None)
    started = time.monotonic()
    standby.close()
    assert time.monotonic() - started < 2
    assert not standby._process.is_alive()


@pytest.fixture
def grown(tmp_path, repo_root):
    """Input files of a corpus and a cache holding the first file's papers only."""
    blocks = (repo_root / "examples" / "iclr2025_abstracts.txt").read_text().split("\n\n")
    (tmp_path / "first.txt").write_text("\n\n".join(blocks[:12]))
    (tmp_path / "more.txt").write_text("\n\n".join(blocks[:1] + blocks[12:]))
    build([tmp_path / "first.txt"], cache_dir=tmp_path / "cache", jobs=1)
    return [tmp_path / "first.txt", tmp_path / "more.txt"], tmp_path / "cache"


def _rebuilt_with(grown, owner, name, value):
    """A rebuild of ``grown`` (two cores) with ``owner.name`` set to ``value`` meanwhile."""
    inputs, cache = grown
    mp = pytest.MonkeyPatch()
    mp.setattr(owner, name, value)
    try:
        return build(inputs, cache_dir=cache, jobs=2)
    finally:
        mp.undo()


def _same_graph(one, other, tmp_path) -> bool:
    save_graph(one.graph, tmp_path / "one.json")
    save_graph(other.graph, tmp_path / "other.json")
    return (tmp_path / "one.json").read_bytes() == (tmp_path / "other.json").read_bytes()


def _noting(events):
    """StandbyExtractor.submit and ExtractionCache.get, each noting its call in ``events``."""
    submit, get = StandbyExtractor.submit, ExtractionCache.get

    def submitted(self, papers):
        events.append(("submit", len(papers)))
        return submit(self, papers)

    def read(self, paper):
        events.append(("get", 1))
        return get(self, paper)

    return submitted, read


def test_a_rebuild_with_new_papers_has_them_extracted_by_the_standby(grown, tmp_path):
    events = []
    submitted, read = _noting(events)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ExtractionCache, "get", read)
        rebuilt = _rebuilt_with(grown, StandbyExtractor, "submit", submitted)

    handed = [n for what, n in events if what == "submit"]
    assert handed == [len(rebuilt.read.papers) - rebuilt.from_cache] and handed[0] > 0
    # handed over before any entry of the cache is read: extracted meanwhile
    assert events[0][0] == "submit"
    assert _same_graph(rebuilt, build(grown[0], jobs=1), tmp_path)


def test_the_name_memos_load_while_the_standby_extracts(grown):
    events = []
    submitted, read = _noting(events)
    load = api.load_name_memos

    def submitted_and_awaited(self, papers):
        wait = submitted(self, papers)

        def awaited(*args):
            events.append(("results", 0))
            return wait(*args)

        return awaited

    def loaded(*args):
        events.append(("memos", 0))
        return load(*args)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ExtractionCache, "get", read)
        mp.setattr(api, "load_name_memos", loaded)
        _rebuilt_with(grown, StandbyExtractor, "submit", submitted_and_awaited)

    order = [what for what, _ in events if what != "get"]
    assert order == ["submit", "memos", "results"]
    # after the cache is read: the build needs both before it goes on
    assert events.index(("memos", 0)) > max(i for i, e in enumerate(events) if e[0] == "get")


def test_an_entry_that_does_not_read_back_is_extracted_after_the_new_papers(
    grown, tmp_path, caplog
):
    inputs, cache = grown
    entry = next(cache.rglob("*.json"))
    entry.write_text("{not json")
    events = []
    submitted, _ = _noting(events)

    rebuilt = _rebuilt_with(grown, StandbyExtractor, "submit", submitted)

    assert "extraction cache: ignoring" in caplog.text
    new = len(rebuilt.read.papers) - rebuilt.from_cache - 1
    assert [n for what, n in events if what == "submit"] == [new, 1]
    assert _same_graph(rebuilt, build(inputs, jobs=1), tmp_path)


def test_one_job_no_cache_or_a_callers_process_starts_no_standby(tmp_path, monkeypatch):
    monkeypatch.setattr(spacy_import, "_owned", False)
    assert api._standby_extractor(None, None, tmp_path, None) is None
    assert api._standby_extractor(None, 1, tmp_path, None) is None
    assert api._standby_extractor(None, 2, None, None) is None
    assert api._standby_extractor(None, 2, tmp_path, "local:2") is None


def test_a_standby_that_died_only_costs_its_speed_up(grown, tmp_path, caplog):
    start = api._standby_extractor

    def killed(*args):  # out of memory while loading: a fault made real with a kill
        standby = start(*args)
        standby._process.kill()
        standby._process.join()
        return standby

    rebuilt = _rebuilt_with(grown, api, "_standby_extractor", killed)

    assert "the standby extractor stopped" in caplog.text
    assert _same_graph(rebuilt, build(grown[0], jobs=1), tmp_path)
