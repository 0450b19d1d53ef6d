"""The edge keys between two nodes of a corpus graph, and a concept's neighbours, in a
third of a dict's memory.

A :class:`networkx.MultiDiGraph` keeps, for every pair of linked nodes, a dict
``{edge key: edge attributes}`` (its ``edge_key_dict_factory``). In a paperkg
graph nearly every pair has one edge (a paper USES a method; two concepts
CO_OCCUR), and a one-item dict takes 200 bytes: at 100,000 papers, with over
two million edges, 400 MB of a build. :class:`EdgeKeys` holds one key in two
slots (48 bytes, 64 with the collector's header) and turns into a dict only for
a second key;
:class:`KnowledgeGraph` is the MultiDiGraph that uses it. Everything networkx
and users do with a key dict (``G[u][v]``, ``G.edges(keys=True, data=True)``,
removal, copies, pickling, algorithms) works the same.
"""

from __future__ import annotations

from collections.abc import Iterator, KeysView, MutableMapping
from typing import Any

import networkx as nx

__all__ = ["EdgeKeys", "KnowledgeGraph"]

_NO_KEY = object()  # the key of an empty EdgeKeys
_MANY = object()  # the key of one with two keys or more: its value is a dict of them


class EdgeKeys(MutableMapping):
    """``{edge key: attributes}`` for one pair of nodes: one key in slots, more in a dict.

    >>> keys = EdgeKeys()
    >>> keys["USES"] = {"weight": 2}
    >>> dict(keys), len(keys), "USES" in keys
    ({'USES': {'weight': 2}}, 1, True)
    >>> keys["PROPOSES"] = {"weight": 1}
    >>> list(keys.items())
    [('USES', {'weight': 2}), ('PROPOSES', {'weight': 1})]
    >>> del keys["USES"]; keys == {"PROPOSES": {"weight": 1}}
    True
    """

    __slots__ = ("_key", "_value")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._key = _NO_KEY
        self._value = None
        if args or kwargs:
            self.update(*args, **kwargs)

    def _holds(self, key: Any) -> bool:
        """Whether the one key is ``key``, as a dict matches keys (identity, then ==)."""
        one = self._key
        return one is not _NO_KEY and (one is key or one == key)

    def __getitem__(self, key: Any) -> Any:
        if self._key is _MANY:
            return self._value[key]
        if self._holds(key):
            return self._value
        raise KeyError(key)

    def __setitem__(self, key: Any, value: Any) -> None:
        if self._key is _MANY:
            self._value[key] = value
        elif self._key is _NO_KEY:
            hash(key)  # an unhashable key fails here, as in a dict
            self._key, self._value = key, value
        elif self._holds(key):
            self._value = value
        else:
            self._key, self._value = _MANY, {self._key: self._value, key: value}

    def __delitem__(self, key: Any) -> None:
        if self._key is _MANY:
            del self._value[key]
            self._one_if_one()
        elif self._holds(key):
            self._key, self._value = _NO_KEY, None
        else:
            raise KeyError(key)

    def popitem(self) -> tuple[Any, Any]:
        """The key added last and its value, removed (networkx's ``remove_edge(u, v)``
        without a key removes the newest edge, as with a dict)."""
        if self._key is _MANY:
            item = self._value.popitem()
            self._one_if_one()
            return item
        if self._key is _NO_KEY:
            raise KeyError("popitem(): EdgeKeys is empty")
        item = (self._key, self._value)
        self._key, self._value = _NO_KEY, None
        return item

    def _one_if_one(self) -> None:
        if len(self._value) == 1:
            ((self._key, self._value),) = self._value.items()

    def __iter__(self) -> Iterator:
        if self._key is _MANY:
            return iter(self._value)
        return iter(() if self._key is _NO_KEY else (self._key,))

    def __len__(self) -> int:
        if self._key is _MANY:
            return len(self._value)
        return 0 if self._key is _NO_KEY else 1

    def __contains__(self, key: object) -> bool:
        if self._key is _MANY:
            return key in self._value
        return self._holds(key)

    def get(self, key: Any, default: Any = None) -> Any:
        if self._key is _MANY:
            return self._value.get(key, default)
        if self._holds(key):
            return self._value
        return default

    # networkx reads every edge through items(): a tuple, no view object, no lookups
    def items(self):
        if self._key is _MANY:
            return self._value.items()
        return () if self._key is _NO_KEY else ((self._key, self._value),)

    def values(self):
        if self._key is _MANY:
            return self._value.values()
        return () if self._key is _NO_KEY else (self._value,)

    def keys(self):  # a set-like view, as a dict's: networkx intersects them
        if self._key is _MANY:
            return self._value.keys()
        return KeysView(self)

    def copy(self) -> dict:
        return dict(self.items())

    def __reduce__(self):  # pickled as its items, whatever its slots hold
        return (type(self), (), None, None, iter(list(self.items())))

    def __repr__(self) -> str:
        return repr(dict(self.items()))


class KnowledgeGraph(nx.MultiDiGraph):
    """The MultiDiGraph :func:`~paperkg.graph.build_knowledge_graph` returns: a
    :class:`networkx.MultiDiGraph` whose key dicts are :class:`EdgeKeys`, and so
    are a node's maps of neighbours, except the successors of a node added with
    ``many_neighbours`` (a paper), a dict. Most concepts are named by one paper:
    their predecessors are one, and most have no successors (an empty dict is 64
    bytes, an empty EdgeKeys 48)."""

    edge_key_dict_factory = EdgeKeys
    adjlist_inner_dict_factory = EdgeKeys

    def add_node_keeping(self, node: Any, attrs: dict, *, many_neighbours: bool = False) -> None:
        """Add ``node`` with ``attrs`` itself as its attribute dict, not a copy (e.g. a
        :func:`~paperkg.graph.shared_keys.shared_key_dict`), in place of any it had.
        ``many_neighbours``: a new node whose successors are many (a paper's
        concepts) keeps them in a dict, at a dict's speed.

        >>> graph, attrs = KnowledgeGraph(), {"label": "Method", "name": "BERT"}
        >>> graph.add_node_keeping("Method:bert", attrs)
        >>> graph.nodes["Method:bert"] is attrs
        True
        """
        if node not in self._succ:
            self.add_node(node)
            if many_neighbours:
                self._succ[node] = {}
        self._node[node] = attrs

    def add_edge_keeping(self, u: Any, v: Any, key: Any, attrs: dict) -> None:
        """Add the edge ``(u, v, key)`` with ``attrs`` itself as its attribute dict,
        not a copy, in place of any it had.

        >>> graph, attrs = KnowledgeGraph(), {"type": "USES", "weight": 2}
        >>> graph.add_edge_keeping("paper:p1", "Method:bert", "USES", attrs)
        >>> graph.edges["paper:p1", "Method:bert", "USES"] is attrs
        True
        >>> type(graph._succ["paper:p1"]["Method:bert"]).__name__  # one key: no dict
        'EdgeKeys'
        """
        self.add_edge(u, v, key)
        self._succ[u][v][key] = attrs  # the key dict _pred[v][u] holds too
