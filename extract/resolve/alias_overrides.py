"""A user's alias file as keys, and the merging step that applies it before any other.

:mod:`.aliases` reads the file as written; this module turns its lines into
canonical keys for the labels of one corpus, since every automatic rule works on
keys: the pairs it keeps apart (the :class:`~.groups.Groups` refuse to join them),
the nodes it renames (no acronym rule may move them while the corpus is read),
and the step that joins each alias to its canonical name and gives the concept
that name.

Examples
--------
>>> from paperkg.extract.resolve.aliases import AliasFile
>>> aliases = AliasFile(entries=[("KD", "knowledge distillation", None)],
...                     never_merge=[("CIFAR-10", "CIFAR-100")])
>>> [tuple(rule) for rule in alias_rules(aliases, ["METHOD"])]
[('METHOD', 'kd', 'knowledge distillation', 'knowledge distillation')]
>>> renamed_nodes(alias_rules(aliases, ["METHOD"]))
{('METHOD', 'kd')}
>>> sorted(sorted(pair) for pair in never_merge_keys(aliases, ["DATASET"]))
[['cifar-10', 'cifar-100']]
"""

from __future__ import annotations

import logging

from .aliases import AliasFile
from .groups import Node
from .keys import canonical_key, display_name
from .state import AliasRule, MergeState

__all__ = ["alias_rules", "apply_alias_file", "never_merge_keys", "renamed_nodes"]

logger = logging.getLogger(__name__)


def never_merge_keys(aliases: AliasFile, labels: list[str]) -> set[frozenset[str]]:
    """The key pairs of the file's ``never_merge`` lines, in each of ``labels``; a
    pair whose two forms have one key is reported, since it cannot be kept apart."""
    never = {
        frozenset((canonical_key(a, label), canonical_key(b, label)))
        for a, b in aliases.never_merge
        for label in labels
    }
    for pair in never:
        if len(pair) == 1:
            logger.warning(
                "alias file: never_merge pair %r has one canonical key for both forms; "
                "they cannot be kept apart (give one of them an alias instead)",
                next(iter(pair)),
            )
    return never


def alias_rules(aliases: AliasFile, labels: list[str]) -> list[AliasRule]:
    """The file's aliases as keys, one rule per label a line applies to (its own
    label, or every label of the corpus); lines with a generic phrase are dropped."""
    rules = [
        AliasRule(label, canonical_key(alias, label), canonical_key(canonical, label), canonical)
        for alias, canonical, only in aliases.entries
        for label in ([only] if only else labels)
    ]
    return [rule for rule in rules if rule.alias_key and rule.canonical_key]


def renamed_nodes(rules: list[AliasRule]) -> set[Node]:
    """Nodes an alias file renames: no automatic rule may move them."""
    return {(rule.label, rule.alias_key) for rule in rules if rule.alias_key != rule.canonical_key}


def apply_alias_file(state: MergeState) -> None:
    """Join every alias the corpus mentions to its canonical name, which then names
    the concept. It runs first, since it overrides every automatic choice."""
    groups = state.groups
    for label, alias_key, target_key, canonical_name in state.alias_rules:
        alias_node, target = (label, alias_key), (label, target_key)
        if alias_node in groups.parent:
            if alias_node != target:
                groups.union(alias_node, target, "alias file")
            state.forced_names[target] = display_name(canonical_name, label)
