"""GraphML that strict XML readers open, whatever characters the abstracts carry."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import networkx as nx

from paperkg.export.graphml import write_graphml

BAD = "Deep\x02 learning\ud800 at \x0bscale"


def test_control_characters_and_lone_surrogates_become_visible_replacements(tmp_path):
    g = nx.MultiDiGraph()
    g.add_node("paper:p1", label="Paper", name="p1", title=BAD, abstract=f"An abstract. {BAD}")
    g.add_node(f"Method:{BAD}", label="Method", name=BAD, aliases=[BAD, "DL"])
    g.add_edge("paper:p1", f"Method:{BAD}", key="USES", type="USES", evidence=BAD)
    path = write_graphml(g, tmp_path / "graph.graphml")
    ET.parse(path)  # expat is a strict XML parser: it refuses U+0002 and the like
    back = nx.read_graphml(path)
    clean = "Deep\ufffd learning\ufffd at \ufffdscale"
    assert back.nodes["paper:p1"]["title"] == clean
    assert back.nodes[f"Method:{clean}"]["aliases"] == f"{clean}; DL"
    assert [d["evidence"] for _, _, d in back.edges(data=True)] == [clean]
    assert back.nodes["paper:p1"]["abstract"].startswith("An abstract. ")
