"""A build collects garbage less often, and hands the caller's collector back as it was."""

import gc

import pytest

from paperkg.api import build, write_outputs
from paperkg.errors import InputError
from paperkg.gc_tuning import BUILD_GC_THRESHOLD, fewer_collections, paused_collections


@pytest.fixture
def one_paper(tmp_path):
    data = tmp_path / "a.jsonl"
    data.write_text('{"id": "p", "abstract": "We train Zyxwvut networks on the QPRST dataset."}\n')
    return data


@pytest.fixture
def caller_threshold():
    before = gc.get_threshold()
    gc.set_threshold(555, 7, 9)
    yield (555, 7, 9)
    gc.set_threshold(*before)


def test_a_build_runs_with_the_build_threshold_and_restores_the_callers(
    one_paper, tmp_path, caller_threshold
):
    seen = []

    result = build([one_paper], on_read=lambda read: seen.append(gc.get_threshold()))
    write_outputs(result.graph, tmp_path / "out", html=False, neo4j_bundle=False)

    assert seen == [BUILD_GC_THRESHOLD]
    assert gc.get_threshold() == caller_threshold


def test_a_failed_build_restores_the_callers_threshold(tmp_path, caller_threshold):
    with pytest.raises(InputError):
        build([tmp_path / "missing.jsonl"])

    assert gc.get_threshold() == caller_threshold


def test_overlapping_builds_in_threads_restore_the_callers_threshold(caller_threshold):
    import threading

    a_started, b_started, a_done = threading.Event(), threading.Event(), threading.Event()
    during_b = []

    def first():
        with fewer_collections():
            a_started.set()
            b_started.wait(10)
        a_done.set()

    def second():
        a_started.wait(10)
        with fewer_collections():
            b_started.set()
            a_done.wait(10)  # the first ends while this one still runs
            during_b.append(gc.get_threshold())

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)

    assert during_b == [BUILD_GC_THRESHOLD]
    assert gc.get_threshold() == caller_threshold


def _frozen(obj) -> bool:
    """Whether the collector is kept from ``obj``: tracked, yet in none of its generations."""
    return gc.is_tracked(obj) and not any(o is obj for o in gc.get_objects())


def test_a_paused_block_freezes_what_it_made_until_the_build_ends():
    with fewer_collections():
        with paused_collections():
            assert not gc.isenabled()
            made = [[i] for i in range(1000)]
        assert gc.isenabled()
        assert _frozen(made) and _frozen(made[-1])  # out of the collector's reach, unscanned
    assert not _frozen(made)  # handed back, to the oldest generation
    assert gc.get_freeze_count() == 0


def test_a_callers_own_frozen_objects_and_switched_off_collector_stay_so():
    mine = [0]
    gc.disable()
    gc.freeze()
    try:
        with fewer_collections(), paused_collections():
            made = [[i] for i in range(1000)]
        assert not gc.isenabled()
        assert _frozen(mine)  # not unfrozen
        assert not _frozen(made)  # nor anything added to what the caller froze
    finally:
        gc.unfreeze()
        gc.enable()


@pytest.fixture
def the_command(monkeypatch):
    """This process as the ``paperkg`` command's: paperkg owns it."""
    from paperkg.extract import spacy_import

    monkeypatch.setattr(spacy_import, "_owned", True)


def _noting_the_collector(monkeypatch):
    """Whether the collector ran as the cache was read and the name memos loaded."""
    import paperkg.api as api
    from paperkg.extract.cache import ExtractionCache

    seen = {"cache read": [], "memos loaded": []}
    get, load = ExtractionCache.get, api.load_name_memos

    def noted_get(self, paper):
        seen["cache read"].append(gc.isenabled())
        return get(self, paper)

    def noted_load(*args):
        seen["memos loaded"].append(gc.isenabled())
        return load(*args)

    monkeypatch.setattr(ExtractionCache, "get", noted_get)
    monkeypatch.setattr(api, "load_name_memos", noted_load)
    return seen


def test_the_command_pauses_the_collector_to_read_the_cache_and_for_the_corpus_steps(
    one_paper, tmp_path, the_command, monkeypatch
):
    seen = _noting_the_collector(monkeypatch)
    steps = []

    build([one_paper], jobs=1, cache_dir=tmp_path / "cache")  # fills the cache
    build(
        [one_paper],
        jobs=1,
        cache_dir=tmp_path / "cache",
        on_step=lambda _: steps.append(gc.isenabled()),
    )

    assert steps == [False, False, False, False]  # the corpus steps
    assert seen == {"cache read": [False, False], "memos loaded": [False, False]}
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_a_build_in_a_callers_process_leaves_its_collector_alone(one_paper, tmp_path, monkeypatch):
    seen = _noting_the_collector(monkeypatch)
    steps = []

    build(
        [one_paper],
        jobs=1,
        cache_dir=tmp_path / "cache",
        on_step=lambda _: steps.append((gc.isenabled(), gc.get_freeze_count())),
    )

    assert steps == [(True, 0)] * 4
    assert seen == {"cache read": [True], "memos loaded": [True]}


def test_a_failed_build_leaves_the_collector_on_and_nothing_frozen(one_paper, the_command):
    import paperkg.api as api

    collecting = []

    def fail(*args, **kwargs):
        collecting.append(gc.isenabled())
        raise RuntimeError("a fault in the graph step")

    mp = pytest.MonkeyPatch()
    mp.setattr(api, "build_knowledge_graph", fail)
    try:
        with pytest.raises(RuntimeError, match="graph step"):
            build([one_paper], jobs=1)
    finally:
        mp.undo()

    assert collecting == [False]  # it failed paused
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_overlapping_build_blocks_only_pause():
    with fewer_collections(), fewer_collections():  # two builds at once, in threads
        with paused_collections():
            made = [[i] for i in range(100)]
        assert not _frozen(made)  # frozen, it would wait for both to end
    assert gc.isenabled()
