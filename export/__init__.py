"""Export: the graph as files (JSON, GraphML, HTML view, Neo4j bundle) and into Neo4j.

Names are imported lazily so that saving a JSON file never pays for pyvis or the
Neo4j driver.
"""

__all__ = [
    "BundleReport",
    "PushReport",
    "ViewReport",
    "atomic_open",
    "push_graph",
    "push_to_neo4j",
    "write_graphml",
    "write_html",
    "write_neo4j_bundle",
]

_WHERE = {
    "BundleReport": "neo4j_bundle",
    "PushReport": "neo4j_load",
    "ViewReport": "html",
    "atomic_open": ".atomic",  # paperkg.atomic, shared by every stage
    "push_graph": "neo4j_load",
    "push_to_neo4j": "neo4j_load",
    "write_graphml": "graphml",
    "write_html": "html",
    "write_neo4j_bundle": "neo4j_bundle",
}


def __getattr__(name: str):
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module 'paperkg.export' has no attribute {name!r}")
