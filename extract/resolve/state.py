"""What the merging steps share: the evidence they read, the groups they join, and
what some of them decide besides a union.

Every step of :data:`.resolver.STEPS` is a function of one :class:`MergeState`, so
the resolver can run them as a plain list and a test can run any one of them.
The state is kept in its own module, below the step modules that take it and the
resolver that makes it, so that imports run one way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from .evidence import Evidence
from .groups import Groups, Node

__all__ = ["AliasRule", "MergeState"]


class AliasRule(NamedTuple):
    """One line of an alias file for one label, as canonical keys."""

    label: str
    #: the key of the alias ("kd")
    alias_key: str
    #: the key of the name it is an alias of ("knowledge distillation")
    canonical_key: str
    #: that name as the file writes it, which the concept takes
    canonical_name: str


@dataclass
class MergeState:
    """One resolution between reading the corpus and making its concepts."""

    #: what the corpus says, read before any step runs; the steps only read it
    evidence: Evidence
    #: the groups of nodes merged so far, with the reason each joined
    groups: Groups
    #: the alias file's lines, each for the labels it applies to
    alias_rules: list[AliasRule] = field(default_factory=list)
    #: node -> the name an alias file gives it (set by the alias step)
    forced_names: dict[Node, str] = field(default_factory=dict)
    #: acronym -> the long forms it is read as, when none has a clear majority of the
    #: corpus's definitions (set by the corpus acronym step)
    ambiguous: dict[str, list[str]] = field(default_factory=dict)
    #: nodes some name's spelled-out form is (set by the spelled-out acronym step)
    expansion_targets: set[Node] = field(default_factory=set)
    #: (node, surface) pairs whose node joined its spelled-out form (set by the same step)
    joined_expansions: set[tuple[Node, str]] = field(default_factory=set)
    #: nodes whose name uses an acronym of the field, joined to its spelled-out form
    #: (set by the corpus spelled-out step); they do not name their concept
    field_acronym_users: set[Node] = field(default_factory=set)
