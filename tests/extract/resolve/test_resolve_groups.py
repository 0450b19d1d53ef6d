"""The union-find the merging steps join nodes in: joins, refusals and reasons."""

from __future__ import annotations

from paperkg.extract.resolve.groups import Groups


def test_a_join_keeps_the_first_reason_of_the_joining_node():
    groups = Groups()
    assert groups.union(("Method", "bert base"), ("Method", "bert"), "a variant")
    assert not groups.union(("Method", "bert base"), ("Method", "bert"), "again")
    assert groups.find(("Method", "bert base")) == ("Method", "bert")
    assert groups.reason == {("Method", "bert base"): "a variant"}


def test_groups_keep_their_keys_only_when_some_must_never_merge():
    """A set of keys per node is 250 bytes (180 MB at 100,000 papers); only an alias
    file's never_merge pairs read them."""
    plain = Groups()
    plain.union(("Method", "bert base"), ("Method", "bert"), "a variant")
    assert plain.keys == {} and plain.find(("Method", "bert base")) == ("Method", "bert")
    never = Groups(never={frozenset({"bert", "roberta"})})
    never.union(("Method", "bert base"), ("Method", "bert"), "a variant")
    assert not never.union(("Method", "roberta"), ("Method", "bert base"), "a variant")
