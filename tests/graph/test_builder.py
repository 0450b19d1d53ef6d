"""The graph schema on a tiny hand-made corpus: two papers, three concepts."""

import json

import networkx as nx
import pandas as pd
import pytest

from paperkg.errors import GraphError
from paperkg.export.graphml import write_graphml
from paperkg.graph import build_knowledge_graph, load_graph, save_graph
from paperkg.records import Concept, Mention, Paper, PaperMentions, Resolution

S1 = "We propose GraphX, a graph neural network, and test it on CIFAR-10."
S2 = "We apply GraphX to node classification on CIFAR-10."


def mention(text, label, sentence, proposed=False):
    start = sentence.index(text)
    return Mention(text, label, start, start + len(text), sentence, proposed=proposed)


@pytest.fixture
def tiny_corpus():
    """Two papers' mentions and their resolution."""
    p1 = Paper(id="p1", abstract=S1, text=S1, source="a.txt#1", year=2024, venue="ICLR")
    p2 = Paper(id="p2", abstract=S2, text=S2, source="a.txt#2", title="Applying GraphX")
    results = [
        PaperMentions(
            p1, [mention("GraphX", "METHOD", S1, True), mention("CIFAR-10", "DATASET", S1)]
        ),
        PaperMentions(
            p2,
            [
                mention("GraphX", "METHOD", S2),
                mention("node classification", "TASK", S2),
                mention("CIFAR-10", "DATASET", S2),
            ],
        ),
    ]
    concepts = {
        "Method:graphx": Concept("Method:graphx", "Method", "graphx", "GraphX", {"GraphX": 2}),
        "Dataset:cifar-10": Concept(
            "Dataset:cifar-10", "Dataset", "cifar-10", "CIFAR-10", {"CIFAR-10": 2}
        ),
        "Task:node classification": Concept(
            "Task:node classification",
            "Task",
            "node classification",
            "node classification",
            {"node classification": 1},
        ),
    }
    resolution = Resolution(
        concepts=concepts,
        concept_of=[
            ["Method:graphx", "Dataset:cifar-10"],
            ["Method:graphx", "Task:node classification", "Dataset:cifar-10"],
        ],
        mention_count=5,
    )
    return results, resolution


@pytest.fixture
def tiny_graph(tiny_corpus):
    return build_knowledge_graph(*tiny_corpus)


def test_the_graph_is_a_digraph_with_the_edge_type_as_an_attribute(tiny_graph):
    assert type(tiny_graph) is nx.DiGraph
    assert {t for *_, t in tiny_graph.edges(data="type")} == {
        "PROPOSES",
        "USES",
        "EVALUATES_ON",
        "ADDRESSES",
        "CO_OCCURS_WITH",
    }


def test_nodes_carry_label_and_name(tiny_graph):
    assert tiny_graph.nodes["paper:p1"]["label"] == "Paper"
    assert (
        tiny_graph.nodes["paper:p1"]["name"] == "GraphX"
    )  # untitled: named after what it proposes
    assert tiny_graph.nodes["paper:p2"]["name"] == "Applying GraphX"
    cifar = tiny_graph.nodes["Dataset:cifar-10"]
    assert (cifar["label"], cifar["name"], cifar["paper_count"]) == ("Dataset", "CIFAR-10", 2)
    assert tiny_graph.nodes["paper:p1"]["source"] == "a.txt#1"


def test_paper_edges_are_typed_with_evidence(tiny_graph):
    def edge_type(u, v):
        return tiny_graph.edges[u, v]["type"]

    assert tiny_graph.edges["paper:p1", "Method:graphx"]["evidence"] == S1
    assert edge_type("paper:p1", "Method:graphx") == "PROPOSES"  # not USES as well
    assert edge_type("paper:p2", "Method:graphx") == "USES"
    assert edge_type("paper:p2", "Dataset:cifar-10") == "EVALUATES_ON"
    assert edge_type("paper:p2", "Task:node classification") == "ADDRESSES"


def test_a_paper_that_proposes_and_uses_a_concept_has_one_edge_counting_both():
    text = "We propose GraphX. GraphX is fast."
    paper = Paper(id="p1", abstract=text, text=text, source="a.txt#1")
    mentions = [Mention("GraphX", "METHOD", 11, 17, "We propose GraphX.", proposed=True),
                Mention("GraphX", "METHOD", 19, 25, "GraphX is fast.")]  # fmt: skip
    concepts = {"Method:graphx": Concept("Method:graphx", "Method", "graphx", "GraphX")}
    resolution = Resolution(concepts, [["Method:graphx"] * 2], mention_count=2)

    graph = build_knowledge_graph([PaperMentions(paper, mentions)], resolution)

    assert list(graph.edges(data=True)) == [
        (
            "paper:p1",
            "Method:graphx",
            {"type": "PROPOSES", "evidence": "We propose GraphX.", "count": 2, "weight": 2},
        )
    ]


def test_a_second_edge_for_a_pair_is_refused_not_overwritten(tiny_corpus):
    a, b = "Dataset:cifar-10", "Method:graphx"
    twice = pd.DataFrame({"a": [a, a], "b": [b, b], "papers": [2, 1]})  # one pair, two rows

    with pytest.raises(GraphError, match="a second edge 'Dataset:cifar-10' -> 'Method:graphx'"):
        build_knowledge_graph(*tiny_corpus, cooccurrences=twice)


def test_cooccurrence_weight_counts_papers(tiny_graph):
    a, b = sorted(["Method:graphx", "Dataset:cifar-10"])
    assert tiny_graph.edges[a, b] == {"type": "CO_OCCURS_WITH", "weight": 2}
    a, b = sorted(["Method:graphx", "Task:node classification"])
    assert tiny_graph.edges[a, b] == {"type": "CO_OCCURS_WITH", "weight": 1}


def test_graph_json_round_trips_to_an_equal_graph(tiny_graph, tmp_path):
    path = save_graph(tiny_graph, tmp_path / "graph.json")
    back = load_graph(tmp_path)
    assert nx.utils.graphs_equal(tiny_graph, back)
    assert dict(back.nodes(data=True)) == dict(tiny_graph.nodes(data=True))
    assert json.loads(path.read_text())["nodes"]


def test_graphml_stores_lists_as_strings(tiny_graph, tmp_path):
    path = write_graphml(tiny_graph, tmp_path / "graph.graphml")
    back = nx.read_graphml(path)
    assert back.nodes["Method:graphx"]["aliases"] == "GraphX"
    assert back.nodes["paper:p1"]["year"] == 2024
    assert back.number_of_edges() == tiny_graph.number_of_edges()


def test_an_edge_only_corpus_term_matches_support_is_marked():
    text = "We use GraphX here. GraphX again."
    p = Paper(id="p1", abstract=text, text=text, source="a.txt#1")
    found = Mention("GraphX", "METHOD", 7, 13, "We use GraphX here.", corpus_match=True)
    tagged = Mention("GraphX", "METHOD", 20, 26, "GraphX again.")
    concepts = {"Method:graphx": Concept("Method:graphx", "Method", "graphx", "GraphX", {})}

    def graph(mentions):
        resolution = Resolution(concepts, [["Method:graphx"] * len(mentions)], len(mentions))
        return build_knowledge_graph([PaperMentions(p, mentions)], resolution)

    assert graph([found]).edges["paper:p1", "Method:graphx"]["corpus_match"] is True
    edge = graph([found, tagged]).edges["paper:p1", "Method:graphx"]
    assert "corpus_match" not in edge
    assert edge["evidence"] == "GraphX again."  # the NER's own sentence


def test_a_paper_node_holds_the_papers_authors_and_keywords():
    paper = Paper(id="p", abstract=S1, text=S1, source="a#1", authors=["Ada"], keywords=["gnn"])
    results = [PaperMentions(paper, [mention("GraphX", "METHOD", S1)])]
    concepts = {"Method:graphx": Concept("Method:graphx", "Method", "graphx", "GraphX")}
    graph = build_knowledge_graph(results, Resolution(concepts, [["Method:graphx"]]))

    node = graph.nodes["paper:p"]
    assert node["authors"] == ["Ada"] and node["keywords"] == ["gnn"]


def test_the_resolution_is_left_as_it_was_and_builds_the_same_graph_again():
    text = "We propose a latent diffusion model, a kind of diffusion model, for image generation."
    paper = Paper(id="p1", abstract=text, text=text, source="a.txt#1")
    mentions = [
        mention("latent diffusion model", "METHOD", text, True),
        mention("diffusion model", "METHOD", text),
        mention("image generation", "TASK", text),
    ]
    ids = ["Method:latent diffusion model", "Method:diffusion model", "Task:image generation"]
    concepts = {
        cid: Concept(cid, cid.split(":")[0], cid.split(":")[1], m.text, {m.text: 1})
        for cid, m in zip(ids, mentions, strict=True)
    }
    concepts["Task:unlinked"] = Concept("Task:unlinked", "Task", "unlinked", "unlinked", {})
    results, resolution = [PaperMentions(paper, mentions)], Resolution(concepts, [ids], 3)

    graph = build_knowledge_graph(results, resolution)
    again = build_knowledge_graph(results, resolution)

    assert list(again.nodes(data=True)) == list(graph.nodes(data=True))
    assert list(again.edges(data=True)) == list(graph.edges(data=True))
    assert graph.edges["Method:latent diffusion model", "Method:diffusion model"] == {
        "type": "IS_A",
        "reason": "head phrase: 'diffusion model'",
        "weight": 1,
    }
    assert "Task:unlinked" not in graph
    assert len(resolution.concepts) == 4 and resolution.concept_of == [ids]


def test_concept_nodes_count_the_papers_and_mentions_that_link_to_them():
    """Papers and mentions differ: p1 names GraphX twice, and "diffusion model" is
    named by p3 and only inferred for p2 (the broader concept of what p2 names), so
    one of its two papers has no mention of it."""
    s1 = "We propose GraphX. GraphX is a graph model."
    s2 = "We use GraphX and a latent diffusion model."
    s3 = "We study diffusion models."
    p1 = Paper(id="p1", abstract=s1, text=s1, source="a.txt#1")
    p2 = Paper(id="p2", abstract=s2, text=s2, source="a.txt#2")
    p3 = Paper(id="p3", abstract=s3, text=s3, source="a.txt#3")
    graphx = [Mention("GraphX", "METHOD", 11, 17, "We propose GraphX.", proposed=True),
              Mention("GraphX", "METHOD", 19, 25, "GraphX is a graph model.")]  # fmt: skip
    results = [
        PaperMentions(p1, graphx),
        PaperMentions(
            p2, [mention("GraphX", "METHOD", s2), mention("latent diffusion model", "METHOD", s2)]
        ),
        PaperMentions(p3, [mention("diffusion models", "METHOD", s3)]),
    ]
    ids = ["Method:graphx", "Method:latent diffusion model", "Method:diffusion model"]
    concepts = {cid: Concept(cid, "Method", cid[7:], cid[7:], {cid[7:]: 1}) for cid in ids}
    resolution = Resolution(concepts, [ids[:1] * 2, ids[:2], ids[2:]], mention_count=5)

    graph = build_knowledge_graph(results, resolution)

    counts = {
        n: (d["paper_count"], d["mention_count"])
        for n, d in graph.nodes(data=True)
        if d["label"] != "Paper"
    }
    assert counts == {
        "Method:graphx": (2, 3),
        "Method:latent diffusion model": (1, 1),
        "Method:diffusion model": (2, 1),
    }
    assert list(counts) == ids  # in the order papers first link to them


def test_a_concept_id_that_is_a_paper_node_id_is_refused():
    sentence = "We use GraphX."
    paper = Paper(id="p1", abstract=sentence, text=sentence, source="a.txt#1")
    concepts = {"paper:p1": Concept("paper:p1", "Method", "graphx", "GraphX", {"GraphX": 1})}
    resolution = Resolution(concepts, [["paper:p1"]], mention_count=1)

    with pytest.raises(ValueError, match="paper:p1"):
        build_knowledge_graph(
            [PaperMentions(paper, [mention("GraphX", "METHOD", sentence)])], resolution
        )
