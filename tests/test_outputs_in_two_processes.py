"""With two cores, a second process writes graph.json and neo4j/: the same files, sooner."""

import os

import pytest

import paperkg.api as api
from paperkg.api import write_outputs, writes_in_two_processes
from paperkg.export.neo4j_bundle import write_neo4j_bundle
from paperkg.extract import spacy_import
from paperkg.processes import fork_available

needs_fork = pytest.mark.skipif(not fork_available(), reason="needs fork (Linux)")


@needs_fork
def test_one_and_two_processes_write_the_sameoutput_files(example_graph, tmp_path, output_files):
    one = write_outputs(example_graph, tmp_path / "one", jobs=1)
    two = write_outputs(example_graph, tmp_path / "two", jobs=2)

    assert writes_in_two_processes(example_graph, 2)
    assert [p.name for p in one.paths] == [p.name for p in two.paths]
    assert output_files(tmp_path / "one") == output_files(tmp_path / "two")
    assert "neo4j/nodes_Paper.csv" in output_files(tmp_path / "two")


@needs_fork
def test_a_failure_in_the_second_process_leaves_the_last_outputs(
    example_graph, tmp_path, output_files
):
    out = tmp_path / "out"
    write_outputs(example_graph, out, jobs=2)
    before = output_files(out)

    parent = os.getpid()

    def disk_full(graph, folder, keep_from=None):  # a fault that cannot be made real here
        if os.getpid() != parent:  # only in the second process: the error crosses back
            raise OSError(28, "No space left on device", str(folder))
        write_neo4j_bundle(graph, folder, keep_from)

    mp = pytest.MonkeyPatch()
    mp.setattr(api, "write_neo4j_bundle", disk_full)  # the fork inherits it
    try:
        with pytest.raises(OSError, match="No space left on device"):
            write_outputs(example_graph, out, jobs=2)
    finally:
        mp.undo()

    assert output_files(out) == before
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]


def test_one_job_or_a_large_graph_writes_in_one_process(example_graph, monkeypatch):
    assert not writes_in_two_processes(example_graph, 1)
    monkeypatch.setattr(spacy_import, "_owned", False)  # a notebook, a web server
    assert not writes_in_two_processes(example_graph, None)  # their process: theirs to fork
    monkeypatch.setattr(spacy_import, "_owned", True)  # the paperkg command
    assert writes_in_two_processes(example_graph, None) == (os.cpu_count() > 1)
    monkeypatch.setattr(api, "TWO_PROCESS_MAX_ELEMENTS", len(example_graph) - 1)
    assert not writes_in_two_processes(example_graph, 2)


@needs_fork
def test_the_steps_name_what_the_second_process_writes(example_graph, tmp_path):
    steps = []

    write_outputs(example_graph, tmp_path / "out", jobs=2, on_step=steps.append)

    assert steps == [
        "writing graph.json and neo4j/ (second process)",
        "writing graph.graphml",
        "writing graph.html",
        "finishing graph.json and neo4j/",
    ]


@needs_fork
def test_without_a_page_graph_json_is_written_here_beside_graphml(
    example_graph, tmp_path, output_files
):
    steps = []

    write_outputs(example_graph, tmp_path / "one", html=False, jobs=1)
    write_outputs(example_graph, tmp_path / "two", html=False, jobs=2, on_step=steps.append)

    assert steps == [
        "writing neo4j/ (second process)",
        "writing graph.json",
        "writing graph.graphml",
        "finishing neo4j/",
    ]
    assert output_files(tmp_path / "one") == output_files(tmp_path / "two")
    assert "graph.json" in output_files(tmp_path / "two")


@needs_fork
def test_without_a_page_or_a_bundle_graph_json_is_written_aside(example_graph, tmp_path):
    steps = []

    write_outputs(
        example_graph,
        tmp_path / "out",
        html=False,
        neo4j_bundle=False,
        jobs=2,
        on_step=steps.append,
    )

    assert steps == [
        "writing graph.json (second process)",
        "writing graph.graphml",
        "finishing graph.json",
    ]
    assert (tmp_path / "out" / "graph.json").is_file()
