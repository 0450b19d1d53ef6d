"""paperkg: scientific abstracts in, a knowledge graph of methods, datasets and tasks out.

The stages are packages of their own: :mod:`paperkg.extract` (read inputs, find
mentions, normalise them into concepts), :mod:`paperkg.graph` (build and
analyse the networkx graph) and :mod:`paperkg.export` (files, Neo4j, HTML).
"""

from .api import build_graph, load_graph

__version__ = "0.1.0"

__all__ = ["build_graph", "load_graph", "__version__"]
