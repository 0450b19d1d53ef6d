"""The knowledge graph: build it from resolved mentions, save/load it, analyse it."""

from .builder import build_knowledge_graph, paper_display_name
from .io import graph_from_json, graph_to_json, load_graph, one_edge_per_pair, save_graph
from .schema import (
    CO_OCCURS,
    CONCEPT_LABELS,
    EDGE_TYPES,
    IS_A,
    NODE_LABELS,
    PAPER,
    PAPER_EDGE_TYPES,
    concept_node_id,
    paper_node_id,
)

__all__ = [
    "CO_OCCURS",
    "CONCEPT_LABELS",
    "EDGE_TYPES",
    "IS_A",
    "NODE_LABELS",
    "PAPER",
    "PAPER_EDGE_TYPES",
    "build_knowledge_graph",
    "concept_node_id",
    "graph_from_json",
    "graph_to_json",
    "load_graph",
    "one_edge_per_pair",
    "paper_display_name",
    "paper_node_id",
    "save_graph",
]
