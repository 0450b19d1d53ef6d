"""paperkg: scientific abstracts in, a knowledge graph of methods, datasets and tasks out.

The stages are packages of their own: :mod:`paperkg.extract` (read inputs, find
mentions, normalise them into concepts), :mod:`paperkg.graph` (build and
analyse the networkx graph) and :mod:`paperkg.export` (files, Neo4j, HTML).

``build_graph`` and ``load_graph`` are imported lazily so that ``import paperkg``
and ``paperkg --help`` stay fast (spaCy loads only when a graph is built).
"""

from paperkg.version import __version__  # absolute: pytest imports this file alone too

__all__ = ["build_graph", "load_graph", "__version__"]


def __getattr__(name: str):
    if name in {"build_graph", "load_graph"}:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'paperkg' has no attribute {name!r}")
