"""graph.json: format 2 (a DiGraph) written and read back, format 1 (a keyed MultiDiGraph) read.

``fixtures/graph/format1.json`` was written by ``save_graph`` of paperkg before
format 2: two papers, a proposed concept, a broader concept inferred ``via`` it,
co-occurrence and IS_A, every edge keyed by its type.
"""

import json
from pathlib import Path

import networkx as nx
import pytest

from paperkg.errors import GraphError
from paperkg.graph import load_graph, save_graph

FORMAT_1 = Path(__file__).resolve().parents[1] / "fixtures" / "graph" / "format1.json"


def test_a_format_1_file_reads_as_the_digraph_of_its_edges():
    old = json.loads(FORMAT_1.read_text())

    graph = load_graph(FORMAT_1)

    assert type(graph) is nx.DiGraph
    assert list(graph.nodes(data=True)) == [(node.pop("id"), node) for node in old["nodes"]]
    # each edge as it was, in order, without its key: the key repeated the type
    edges = []
    for edge in old["edges"]:
        assert edge.pop("key") == edge["type"]
        edges.append((edge.pop("source"), edge.pop("target"), edge))
    assert list(graph.edges(data=True)) == edges
    assert graph.edges["paper:p1", "Method:transformer"]["via"] == [
        "Method:structure-aware transformer"
    ]


def test_a_format_1_file_saved_again_differs_only_in_its_format_fields(tmp_path):
    old = json.loads(FORMAT_1.read_text())

    new = json.loads(save_graph(load_graph(FORMAT_1), tmp_path / "graph.json").read_text())

    assert (new["multigraph"], new["graph"]) == (False, {"paperkg_format": 2})
    assert (old["multigraph"], old["graph"]) == (True, {"paperkg_format": 1})
    assert new["nodes"] == old["nodes"]
    assert new["edges"] == [{k: v for k, v in e.items() if k != "key"} for e in old["edges"]]


def test_format_2_round_trips_to_an_equal_graph(tmp_path):
    graph = load_graph(FORMAT_1)

    again = load_graph(save_graph(graph, tmp_path / "graph.json"))

    assert list(again.nodes(data=True)) == list(graph.nodes(data=True))
    assert list(again.edges(data=True)) == list(graph.edges(data=True))


def test_a_format_1_file_with_two_edges_for_a_pair_is_refused(tmp_path):
    data = json.loads(FORMAT_1.read_text())
    data["edges"].append({**data["edges"][0], "type": "USES", "key": "USES"})
    (tmp_path / "graph.json").write_text(json.dumps(data))

    with pytest.raises(GraphError, match="two edges 'paper:p1' -> 'Method:structure-aware"):
        load_graph(tmp_path)


def test_a_format_2_file_with_two_edges_for_a_pair_is_refused_not_merged(tmp_path):
    data = json.loads(save_graph(load_graph(FORMAT_1), tmp_path / "graph.json").read_text())
    data["edges"].append({**data["edges"][0], "type": "USES", "count": 1})
    (tmp_path / "graph.json").write_text(json.dumps(data))

    with pytest.raises(GraphError, match="lists 9 edges but only 8 distinct pairs of nodes"):
        load_graph(tmp_path)


def test_a_graph_json_whose_graph_is_not_an_object_gets_one_clear_error(tmp_path):
    data = json.loads(FORMAT_1.read_text())
    data["graph"] = None
    (tmp_path / "graph.json").write_text(json.dumps(data))

    with pytest.raises(GraphError, match="'graph' should be an object"):
        load_graph(tmp_path)


def test_a_newer_format_is_refused_with_what_to_do(tmp_path):
    data = json.loads(FORMAT_1.read_text())
    data["graph"]["paperkg_format"] = 3
    (tmp_path / "graph.json").write_text(json.dumps(data))

    with pytest.raises(GraphError, match="format 3: this paperkg reads formats 1 and 2; upgrade"):
        load_graph(tmp_path)


def test_saving_a_multigraph_is_refused_with_the_conversion_to_use(tmp_path):
    with pytest.raises(GraphError, match=r"one_edge_per_pair\(graph\)"):
        save_graph(nx.MultiDiGraph(), tmp_path / "graph.json")
