"""The concept map: which concepts, how strongly linked, which clusters, where."""

from __future__ import annotations

import networkx as nx
import pytest
from synthetic_field import synthetic_field

from paperkg.errors import GraphError
from paperkg.graph import one_edge_per_pair
from paperkg.graph.concept_map import OTHER_COLOR, concept_map


def field_graph(papers: dict[str, list[str]], *, via: dict | None = None) -> nx.DiGraph:
    """Papers -> concept names (all Methods); ``via`` marks inferred links (paper, concept)."""
    g = nx.DiGraph()
    for pid, concepts in papers.items():
        g.add_node(f"paper:{pid}", label="Paper", name=pid, year=2020 + len(pid) % 3)
        for c in concepts:
            g.add_node(f"Method:{c}", label="Method", name=c)
            data = {"via": ["x"]} if via and (pid, c) in via else {}
            g.add_edge(f"paper:{pid}", f"Method:{c}", type="USES", **data)
    return g


def two_topics() -> nx.DiGraph:
    """Vision papers use ResNet/ImageNet/ViT, language papers BERT/GLUE/SQuAD; all use Adam."""
    papers = {}
    for i in range(6):
        papers[f"v{i}"] = ["ResNet", "ImageNet", "ViT", "Adam"][: 3 + i % 2]
        papers[f"l{i}"] = ["BERT", "GLUE", "SQuAD", "Adam"][: 3 + i % 2]
    return field_graph(papers)


def test_most_used_concepts_are_kept_and_the_rest_is_said():
    m = concept_map(two_topics(), max_nodes=4)
    assert [n.papers for n in m.nodes] == sorted((n.papers for n in m.nodes), reverse=True)
    assert len(m.nodes) == 4 and m.concepts_left_out == 3
    assert any("beyond max_nodes=4" in r for r in m.reasons)


def test_association_strength_is_cooccurrence_over_chance():
    # A, B in every paper; C and D only together, in one paper
    g = field_graph({"1": ["A", "B"], "2": ["A", "B"], "3": ["A", "B", "C", "D"]})
    m = concept_map(g, min_cooccurrence=1, links_per_node=10)
    strength = {(link.source, link.target): link.strength for link in m.links}
    # s_A = s_B = 5 (A-B three times, A-C, A-D), s_C = s_D = 3, 2m = 16
    assert strength[("Method:A", "Method:B")] == pytest.approx(16 * 3 / 25, abs=1e-3)
    assert strength[("Method:C", "Method:D")] == pytest.approx(16 * 1 / 9, abs=1e-3)


def test_links_inferred_through_is_a_are_not_cooccurrence():
    g = field_graph({"1": ["latent diffusion", "diffusion"], "2": ["latent diffusion", "diffusion"]},
                    via={("1", "diffusion"), ("2", "diffusion")})  # fmt: skip
    m = concept_map(g, min_cooccurrence=1)
    assert [n.name for n in m.nodes] == ["latent diffusion"] and m.links == []


def test_a_format_1_multigraph_is_refused_and_maps_once_converted():
    digraph = field_graph({"1": ["A", "B"], "2": ["A", "B", "C"]}, via={("2", "C")})
    multi = nx.MultiDiGraph()  # graph.json format 1: the edge type was the edge key
    multi.add_nodes_from(digraph.nodes(data=True))
    for u, v, data in digraph.edges(data=True):
        attrs = dict(data)
        multi.add_edge(u, v, key=attrs.pop("type"), **attrs)

    def drawn(m):
        return [(n.name, n.papers) for n in m.nodes], [(k.source, k.target) for k in m.links]

    with pytest.raises(GraphError, match=r"one_edge_per_pair\(graph\)"):
        concept_map(multi)
    converted = concept_map(one_edge_per_pair(multi), min_cooccurrence=1)
    assert drawn(converted) == drawn(concept_map(digraph, min_cooccurrence=1))
    assert drawn(converted)[0] == [("A", 2), ("B", 2)]  # C only inferred: not on the map


def test_each_concept_keeps_only_its_strongest_links():
    papers = {f"p{i}": ["hub", f"c{i}"] for i in range(10)}
    papers.update({f"q{i}": ["hub", f"c{i}"] for i in range(10)})
    m = concept_map(field_graph(papers), min_cooccurrence=1, links_per_node=2)
    # each c_i keeps its one link to the hub, so all ten stay although the hub keeps two
    assert len(m.links) == 10
    m = concept_map(field_graph(papers), min_cooccurrence=3)
    assert m.links == [] and m.links_left_out == 0


def test_topics_become_clusters_named_by_their_concepts():
    m = concept_map(two_topics(), min_cooccurrence=1)
    clusters = {frozenset(c.concepts) for c in m.clusters}
    vision = frozenset({"Method:ResNet", "Method:ImageNet", "Method:ViT"})
    language = frozenset({"Method:BERT", "Method:GLUE", "Method:SQuAD"})
    assert any(vision <= c for c in clusters) and any(language <= c for c in clusters)
    assert all(c.color != OTHER_COLOR for c in m.clusters)
    for c in m.clusters:
        assert c.name.split(", ")[0] in {n.name for n in m.nodes if n.id in c.concepts}


def test_the_same_graph_gives_the_same_map():
    g = synthetic_field(600, seed=3)
    a, b = concept_map(g, seed=0), concept_map(g, seed=0)
    assert [(n.id, n.x, n.y, n.cluster) for n in a.nodes] == [
        (n.id, n.x, n.y, n.cluster) for n in b.nodes
    ]
    assert [(x.source, x.target) for x in a.links] == [(x.source, x.target) for x in b.links]


def test_clusters_are_drawn_apart():
    """The mean distance inside a cluster is well below the mean distance between clusters."""
    m = concept_map(synthetic_field(2000, seed=0), max_nodes=300)
    by_cluster: dict[int, list] = {}
    for n in m.nodes:
        if n.cluster >= 0:
            by_cluster.setdefault(n.cluster, []).append((n.x, n.y))
    centres = {c: (sum(p[0] for p in ps) / len(ps), sum(p[1] for p in ps) / len(ps))
               for c, ps in by_cluster.items()}  # fmt: skip

    def dist(a, b):
        return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5

    inside = sum(dist(p, centres[c]) for c, ps in by_cluster.items() for p in ps) / sum(
        len(ps) for ps in by_cluster.values()
    )
    between = [dist(a, b) for i, a in enumerate(centres.values())
               for b in list(centres.values())[i + 1 :]]  # fmt: skip
    assert inside < 0.6 * (sum(between) / len(between))


def test_mean_year_and_proposals_are_carried():
    g = two_topics()
    g.add_edge("paper:v0", "Method:ViT", type="PROPOSES")
    m = concept_map(g, min_cooccurrence=1)
    vit = next(n for n in m.nodes if n.name == "ViT")
    assert vit.proposed_by == 1 and 2020 <= vit.mean_year <= 2022


@pytest.mark.parametrize("papers", [{}, {"only": ["BERT"]}])
def test_empty_and_one_paper_graphs(papers):
    m = concept_map(field_graph(papers))
    assert len(m.nodes) == len(papers) and m.links == []
