"""GraphML that strict XML readers open, whatever characters the abstracts carry."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import networkx as nx

from paperkg.export.graphml import write_graphml

BAD = "Deep\x02 learning\ud800 at \x0bscale"


def test_control_characters_and_lone_surrogates_become_visible_replacements(tmp_path):
    g = nx.DiGraph()
    g.add_node("paper:p1", label="Paper", name="p1", title=BAD, abstract=f"An abstract. {BAD}")
    g.add_node(f"Method:{BAD}", label="Method", name=BAD, aliases=[BAD, "DL"])
    g.add_edge("paper:p1", f"Method:{BAD}", type="USES", evidence=BAD)
    path = write_graphml(g, tmp_path / "graph.graphml")
    ET.parse(path)  # expat is a strict XML parser: it refuses U+0002 and the like
    back = nx.read_graphml(path)
    clean = "Deep\ufffd learning\ufffd at \ufffdscale"
    assert back.nodes["paper:p1"]["title"] == clean
    assert back.nodes[f"Method:{clean}"]["aliases"] == f"{clean}; DL"
    assert [d["evidence"] for _, _, d in back.edges(data=True)] == [clean]
    assert back.nodes["paper:p1"]["abstract"].startswith("An abstract. ")


def test_values_and_markup_read_back_as_written(tmp_path):
    g = nx.DiGraph(name='a <field> & "its" papers')
    tricky = '\'}) DETACH DELETE n // <script>alert(1)</script> & "q"\nnext\tline'
    g.add_node(tricky, label="Method", name=tricky, paper_count=3, score=0.25, seen=True)
    g.add_node("paper:p1", label="Paper", year=2024, keywords=["a", "b"], extra={"k": 1})
    g.add_node("paper:p2", label="Paper")
    g.add_edge("paper:p1", tricky, type="USES", weight=2, share=0.5, proposed=False)
    g.add_edge("paper:p2", tricky, type="PROPOSES", weight=1, share=1, proposed=True)
    path = write_graphml(g, tmp_path / "graph.graphml")

    ET.parse(path)
    back = nx.read_graphml(path)
    assert type(back) is nx.DiGraph  # edges carry no id: one edge per pair
    assert back.graph["name"] == g.graph["name"]
    assert back.nodes[tricky] == {
        "label": "Method",
        "name": tricky,
        "paper_count": 3,
        "score": 0.25,
        "seen": True,
    }
    assert back.nodes["paper:p1"]["keywords"] == "a; b"
    assert back.nodes["paper:p1"]["extra"] == '{"k": 1}'
    assert back.edges["paper:p1", tricky] == {
        "type": "USES",
        "weight": 2,
        "share": 0.5,
        "proposed": False,
    }
    assert back.edges["paper:p2", tricky] == {
        "type": "PROPOSES",
        "weight": 1,
        "share": 1.0,
        "proposed": True,
    }


def test_the_file_is_written_a_line_at_a_time_in_a_stable_order(tmp_path):
    g = nx.DiGraph()
    for i in range(50):
        g.add_edge(f"paper:{i}", f"Method:m{i % 7}", type="USES", weight=i)
    first = write_graphml(g, tmp_path / "a.graphml").read_bytes()
    second = write_graphml(g, tmp_path / "b.graphml").read_bytes()

    assert first == second
    assert first.count(b"\n") > 50 * 3  # an element per line, not one long line
