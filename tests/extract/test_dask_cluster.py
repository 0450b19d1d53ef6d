"""Extraction on a Dask cluster: a real LocalCluster of two worker processes."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperkg.api import build, write_outputs
from paperkg.errors import ExtractionError
from paperkg.extract import dask_cluster
from paperkg.extract.readers import read_inputs

pytest.importorskip("dask.distributed")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "iclr2025_abstracts.txt"


@pytest.fixture(scope="module")
def cluster():
    from dask.distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        yield cluster


def test_a_dask_build_writes_the_same_graph_as_a_local_one(cluster, tmp_path):
    local = build([EXAMPLE], jobs=1)
    seen = []
    on_dask = build([EXAMPLE], dask=cluster.scheduler_address, on_paper=seen.append)

    assert len(seen) == len(local.read.papers) == 19
    write_outputs(local.graph, tmp_path / "local", html=False, neo4j_bundle=False)
    write_outputs(on_dask.graph, tmp_path / "dask", html=False, neo4j_bundle=False)
    assert (tmp_path / "dask" / "graph.json").read_bytes() == (
        tmp_path / "local" / "graph.json"
    ).read_bytes()


def test_the_cluster_extracts_only_what_the_cache_lacks(cluster, tmp_path):
    papers = build([EXAMPLE], cache_dir=tmp_path, dask=cluster.scheduler_address)
    again = build([EXAMPLE], cache_dir=tmp_path, dask="tcp://127.0.0.1:1")

    # every paper came from the cache, so the unreachable scheduler was never asked
    assert papers.from_cache == 0
    assert again.from_cache == 19


def test_workers_with_another_pipeline_are_refused(cluster, monkeypatch):
    # a fault not made real here (a worker with another paperkg installed):
    # this machine's identity is changed instead
    monkeypatch.setattr(dask_cluster, "_local_identity", lambda model: "another pipeline")
    papers = read_inputs([EXAMPLE]).papers[:3]

    with pytest.raises(ExtractionError, match="run another pipeline than this machine"):
        dask_cluster.extract_on_dask(cluster.scheduler_address, None, papers)


def test_an_unreachable_scheduler_is_one_clear_error():
    papers = read_inputs([EXAMPLE]).papers[:1]

    with pytest.raises(ExtractionError, match=r"cannot reach the Dask scheduler.*dask scheduler"):
        dask_cluster.extract_on_dask("tcp://127.0.0.1:1", None, papers, connect_timeout=1)
