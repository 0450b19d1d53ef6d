"""Every writer takes the DiGraph paperkg builds; a MultiDiGraph (graph.json format 1
read by hand) is refused with the conversion to use, before anything is written."""

import networkx as nx
import pytest

from paperkg.errors import GraphError
from paperkg.export import write_graphml, write_html, write_neo4j_bundle
from paperkg.export.html_map import write_map_html


@pytest.mark.parametrize(
    "write, name",
    [
        (write_html, "graph.html"),
        (write_map_html, "map.html"),
        (write_graphml, "graph.graphml"),
        (write_neo4j_bundle, "neo4j"),
    ],
)
def test_a_multigraph_is_refused_with_the_conversion_to_use(tmp_path, write, name):
    old = nx.MultiDiGraph()
    old.add_node("paper:1", label="Paper", name="A paper")
    old.add_node("Method:bert", label="Method", name="BERT")
    old.add_edge("paper:1", "Method:bert", key="USES", count=1)

    with pytest.raises(GraphError, match=r"one_edge_per_pair\(graph\)"):
        write(old, tmp_path / name)
    assert not (tmp_path / name).exists()
