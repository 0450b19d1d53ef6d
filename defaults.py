"""The limits of paperkg's views, in one light module.

The library and the command line take their defaults from here, and this module
imports nothing, so ``paperkg --help`` can show them without loading networkx,
pyvis or spaCy.
"""

#: the papers view draws at most this many nodes unless asked for more
DEFAULT_MAX_NODES = 2000
#: above this many drawn nodes, positions are computed in Python and physics is off
#: (bench/html_view.py: live physics needs several seconds to settle beyond a few hundred)
PHYSICS_MAX_NODES = 400
#: the papers view's default edge budget per drawn node (see ``max_edges``)
EDGES_PER_NODE = 3
#: ... but never fewer than this many (they load in well under a second)
MIN_EDGE_BUDGET = 5000
#: concepts a map shows unless asked for more: a few hundred stay readable
DEFAULT_MAP_NODES = 300
#: above this many papers a build's graph.html is the concept map, not the papers view
MAP_MIN_PAPERS = 300
