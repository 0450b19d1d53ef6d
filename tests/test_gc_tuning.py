"""A build collects garbage less often, and hands the caller's collector back as it was."""

import gc

import pytest

from paperkg.api import build, write_outputs
from paperkg.errors import InputError
from paperkg.gc_tuning import BUILD_GC_THRESHOLD


@pytest.fixture
def caller_threshold():
    before = gc.get_threshold()
    gc.set_threshold(555, 7, 9)
    yield (555, 7, 9)
    gc.set_threshold(*before)


def test_a_build_runs_with_the_build_threshold_and_restores_the_callers(tmp_path, caller_threshold):
    data = tmp_path / "a.jsonl"
    data.write_text('{"id": "p", "abstract": "We train Zyxwvut networks on the QPRST dataset."}\n')
    seen = []

    result = build([data], on_read=lambda read: seen.append(gc.get_threshold()))
    write_outputs(result.graph, tmp_path / "out", html=False, neo4j_bundle=False)

    assert seen == [BUILD_GC_THRESHOLD]
    assert gc.get_threshold() == caller_threshold


def test_a_failed_build_restores_the_callers_threshold(tmp_path, caller_threshold):
    with pytest.raises(InputError):
        build([tmp_path / "missing.jsonl"])

    assert gc.get_threshold() == caller_threshold


def test_overlapping_builds_in_threads_restore_the_callers_threshold(caller_threshold):
    import threading

    from paperkg.gc_tuning import fewer_collections

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


def test_the_commands_summary_runs_with_the_build_threshold_too(tmp_path, caller_threshold):
    from paperkg.cli.build import print_summary

    data = tmp_path / "a.jsonl"
    data.write_text('{"id": "p", "abstract": "We train Zyxwvut networks on the QPRST dataset."}\n')
    result = build([data])
    seen = []
    counted = result.concepts_per_label
    result.concepts_per_label = lambda: seen.append(gc.get_threshold()) or counted()

    print_summary(result)

    assert seen == [BUILD_GC_THRESHOLD]
    assert gc.get_threshold() == caller_threshold
