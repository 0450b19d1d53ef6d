"""A corpus graph keeps its edge keys in EdgeKeys, and networkx and its users see a
MultiDiGraph all the same."""

import copy
import pickle
import sys

import networkx as nx
import pytest

from paperkg.graph.edge_keys import EdgeKeys, KnowledgeGraph

EDGES = [
    ("paper:1", "Method:bert", "USES", {"weight": 2, "evidence": "We use BERT."}),
    ("paper:1", "Method:bert", "PROPOSES", {"weight": 1}),  # a second key for one pair
    ("paper:1", "Task:qa", "ADDRESSES", {"weight": 1}),
    ("Method:bert", "Task:qa", "CO_OCCURS_WITH", {"weight": 3}),
]


def both_graphs():
    plain, compact = nx.MultiDiGraph(), KnowledgeGraph()
    for graph in (plain, compact):
        for u, v, key, attrs in EDGES:
            graph.add_edge(u, v, key=key, **attrs)
    return plain, compact


def test_one_key_takes_less_memory_than_a_dict():
    keys = EdgeKeys()
    keys["USES"] = {}
    assert sys.getsizeof(keys) < sys.getsizeof({"USES": {}}) / 2


def test_a_corpus_graph_is_a_multidigraph_with_the_same_edges():
    plain, compact = both_graphs()
    assert isinstance(compact, nx.MultiDiGraph)
    assert type(compact._succ["paper:1"]["Task:qa"]) is EdgeKeys
    assert list(compact.edges(keys=True, data=True)) == list(plain.edges(keys=True, data=True))
    assert nx.utils.graphs_equal(compact, plain)
    assert compact["paper:1"]["Method:bert"]["USES"]["evidence"] == "We use BERT."
    assert compact.number_of_edges("paper:1", "Method:bert") == 2
    assert compact.has_edge("paper:1", "Task:qa", key="ADDRESSES")
    assert not compact.has_edge("paper:1", "Task:qa", key="USES")
    assert compact.get_edge_data("paper:1", "Task:qa") == {"ADDRESSES": {"weight": 1}}
    assert dict(compact.in_degree()) == dict(plain.in_degree())


def test_edges_are_removed_and_added_again_like_a_dicts():
    plain, compact = both_graphs()
    for graph in (plain, compact):
        graph.add_edge("paper:1", "Method:bert", key="EVALUATES_ON")
        graph.remove_edge("paper:1", "Method:bert")  # no key: the newest goes, as in a dict
        graph.remove_edge("paper:1", "Method:bert", key="USES")
        graph.remove_edge("paper:1", "Task:qa")
        graph.add_edge("paper:1", "Method:bert", key="USES", weight=5)
        graph.add_edge("paper:1", "Method:bert")  # a new integer key
    assert list(compact.edges(keys=True, data=True)) == list(plain.edges(keys=True, data=True))
    with pytest.raises(nx.NetworkXError):
        compact.remove_edge("paper:1", "Task:qa")


def test_the_mapping_behaves_like_a_dict_from_empty_to_many_keys():
    keys, same = EdgeKeys(), {}
    for mapping in (keys, same):
        mapping["a"] = 1
        mapping["a"] = 2  # the one key again: replaced, not a second
        mapping["b"] = 3
        del mapping["a"]
    assert keys == same and list(keys.items()) == list(same.items()) and len(keys) == 1
    del keys["b"]
    assert len(keys) == 0 and list(keys) == [] and keys.get("b", "none") == "none"
    with pytest.raises(KeyError):
        keys["b"]
    with pytest.raises(KeyError):
        del keys["b"]
    nan = float("nan")  # a dict finds a key by identity first
    keys[nan] = 1
    keys[nan] = 2
    assert nan in keys and len(keys) == 1 and keys.keys() == {nan: 2}.keys()
    with pytest.raises(TypeError):
        EdgeKeys()[["unhashable"]] = 1


def test_copies_and_pickles_are_equal_graphs():
    plain, compact = both_graphs()
    for other in (
        pickle.loads(pickle.dumps(compact)),
        copy.deepcopy(compact),
        compact.copy(),
        compact.reverse().reverse(),
    ):
        assert nx.utils.graphs_equal(other, plain)
        assert list(other.edges(keys=True, data=True)) == list(plain.edges(keys=True, data=True))


def test_attribute_dicts_are_stored_as_given_not_copied():
    graph, attrs, data = KnowledgeGraph(), {"label": "Method"}, {"type": "USES", "weight": 1}
    graph.add_node_keeping("Method:bert", attrs)
    graph.add_edge_keeping("paper:1", "Method:bert", "USES", data)
    assert graph.nodes["Method:bert"] is attrs
    assert graph.edges["paper:1", "Method:bert", "USES"] is data
    assert graph.pred["Method:bert"]["paper:1"]["USES"] is data


def test_a_papers_neighbours_are_a_dict_a_concepts_are_edge_keys():
    """A paper links to many concepts (a dict is faster there); most concepts have one
    paper, and an EdgeKeys holds it in a third of a dict's memory."""
    plain, compact = nx.MultiDiGraph(), KnowledgeGraph()
    compact.add_node_keeping("paper:1", {"label": "Paper"}, many_neighbours=True)
    plain.add_node("paper:1", label="Paper")
    for graph in (plain, compact):
        for u, v, key, attrs in EDGES:
            graph.add_edge(u, v, key=key, **attrs)
    assert type(compact._succ["paper:1"]) is dict
    assert type(compact._pred["Task:qa"]) is EdgeKeys and len(compact._pred["Task:qa"]) == 2
    assert sys.getsizeof(compact._succ["Task:qa"]) < sys.getsizeof({})
    assert nx.utils.graphs_equal(compact, plain)
    for graph in (plain, compact):
        graph.remove_node("Method:bert")
    assert nx.utils.graphs_equal(compact, plain) and dict(compact.degree()) == dict(plain.degree())
