"""Builds on a Dask cluster: a real LocalCluster of two worker processes extracts,
votes the labels and counts the co-occurrences."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperkg.api import build, write_outputs
from paperkg.errors import ExtractionError
from paperkg.extract.nlp import dask_cluster
from paperkg.extract.readers import read_inputs

pytest.importorskip("dask.distributed")

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "iclr2025_abstracts.txt"


def test_a_build_on_dask_writes_the_same_graph_as_one_in_memory(local_cluster, tmp_path):
    local = build([EXAMPLE], jobs=1)
    seen = []
    on_dask = build([EXAMPLE], dask=local_cluster.scheduler_address, on_paper=seen.append)

    assert len(seen) == len(local.read.papers) == 19
    write_outputs(local.graph, tmp_path / "local", html=False, neo4j_bundle=False)
    write_outputs(on_dask.graph, tmp_path / "dask", html=False, neo4j_bundle=False)
    assert (tmp_path / "dask" / "graph.json").read_bytes() == (
        tmp_path / "local" / "graph.json"
    ).read_bytes()


def test_a_build_from_the_cache_extracts_nothing_and_still_votes_and_counts_there(
    local_cluster, tmp_path
):
    from dask.distributed import Client, get_task_stream

    address = local_cluster.scheduler_address
    first = build([EXAMPLE], cache_dir=tmp_path, dask=address)
    extracted = []
    with Client(address) as client, get_task_stream(client) as tasks:
        again = build(
            [EXAMPLE], cache_dir=tmp_path, dask=address, on_paper=extracted.append,
            on_cached=lambda n: None,
        )  # fmt: skip
    ran = " ".join(str(task["key"]) for task in tasks.data)

    assert first.from_cache == 0
    assert again.from_cache == 19 and extracted == [] and "_extract_chunk" not in ran
    # the label vote and the co-occurrence count ran on the workers
    assert "_first_names" in ran and "pair_counts" in ran
    assert again.relabelled_mentions == first.relabelled_mentions > 0


def test_workers_with_another_pipeline_are_refused(local_cluster, monkeypatch):
    # a fault not made real here (a worker with another paperkg installed):
    # this machine's identity is changed instead
    monkeypatch.setattr(dask_cluster, "_local_identity", lambda model: "another pipeline")
    papers = read_inputs([EXAMPLE]).papers[:3]

    with pytest.raises(ExtractionError, match="run another pipeline than this machine"):
        dask_cluster.extract_on_dask(local_cluster.scheduler_address, None, papers)


def test_an_unreachable_scheduler_is_one_clear_error():
    papers = read_inputs([EXAMPLE]).papers[:1]

    with pytest.raises(ExtractionError, match=r"cannot reach the Dask scheduler.*dask scheduler"):
        dask_cluster.extract_on_dask("tcp://127.0.0.1:1", None, papers, connect_timeout=1)
