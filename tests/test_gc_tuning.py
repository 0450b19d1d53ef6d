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
