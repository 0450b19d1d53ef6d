"""The groups the merging steps form: a union-find over nodes that remembers why.

A *node* is ``(label, canonical key)``: the mentions that must be one concept
whatever else is decided. Each merging step of :mod:`.resolver` joins nodes into
groups, and each group becomes one concept. The groups live apart from the steps
so that every step joins the same way: a join an alias file forbids is refused,
and the first reason a node joined is kept for the concept's ``merge_reasons``.

Examples
--------
>>> groups = Groups()
>>> groups.union(("METHOD", "gnns"), ("METHOD", "gnn"), "plural")
True
>>> groups.find(("METHOD", "gnns")), groups.reason[("METHOD", "gnns")]
(('METHOD', 'gnn'), 'plural')
>>> kept_apart = Groups(never={frozenset({"bert", "roberta"})})
>>> kept_apart.union(("METHOD", "roberta"), ("METHOD", "bert"), "typo")
False
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Groups", "Node"]

Node = tuple[str, str]  # (mention label, canonical key)


@dataclass
class Groups:
    """Union-find over (label, key) nodes that refuses unions the alias file forbids."""

    #: pairs of keys an alias file says must never be one concept
    never: set[frozenset[str]] = field(default_factory=set)
    #: node -> its parent in the union-find; a root is its own parent
    parent: dict[Node, Node] = field(default_factory=dict)
    #: the keys in each group, by its root: kept only when some are ``never`` joined
    #: (a set per node is 250 bytes, 180 MB at 100,000 papers)
    keys: dict[Node, set[str]] = field(default_factory=dict)
    #: why a node was joined to its group: node -> reason
    reason: dict[Node, str] = field(default_factory=dict)

    def add(self, node: Node) -> None:
        if node not in self.parent:
            self.parent[node] = node
            if self.never:
                self.keys[node] = {node[1]}

    def find(self, node: Node) -> Node:
        root = node
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[node] != root:
            self.parent[node], node = root, self.parent[node]
        return root

    def forbidden(self, a: Node, b: Node) -> bool:
        if not self.never:
            return False
        keys_a, keys_b = self.keys[self.find(a)], self.keys[self.find(b)]
        for pair in self.never:
            if len(pair) != 2:
                continue
            x, y = sorted(pair)
            if (x in keys_a and y in keys_b) or (y in keys_a and x in keys_b):
                return True
        return False

    def union(self, joining: Node, target: Node, reason: str) -> bool:
        """Join ``joining``'s group to ``target``'s; False when refused or already one."""
        self.add(joining)
        self.add(target)
        root_j, root_t = self.find(joining), self.find(target)
        if root_j == root_t or self.forbidden(joining, target):
            return False
        self.parent[root_j] = root_t
        if self.never:
            self.keys[root_t] |= self.keys.pop(root_j)
        # the joining node and the root of its group (which may be another node)
        self.reason.setdefault(joining, reason)
        self.reason.setdefault(root_j, reason)
        return True
