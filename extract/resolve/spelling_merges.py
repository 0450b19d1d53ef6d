"""The merging steps that join one name spelled two ways, across the corpus.

Keys equal but for hyphens, spaces or British spellings ("pre-training",
"pretraining", "normalisation") join the most used of them; near-duplicate keys
(a typo, a word form; :mod:`.similarity` finds them) join too. Short keys and
acronyms are left alone: "d-PM" is not "DPM". Each step is a function of one
:class:`~.state.MergeState`, run in the order of :data:`.resolver.STEPS`.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from .groups import Node
from .keys import compact_key
from .similarity import near_duplicate_pairs
from .state import MergeState
from .variants import american_spelling

__all__ = ["merge_spelling_variants", "merge_typos", "typo_pairs"]


def merge_spelling_variants(state: MergeState) -> None:
    """Keys equal once hyphens and spaces are ignored ("pre-training", "pretraining"),
    except short ones: "d-PM" is not "DPM"."""
    ev, groups = state.evidence, state.groups
    # the long forms a bare acronym may join take part, so that "brain computer
    # interface" and "brain-computer interface" count as one long form
    for label, key in list(groups.parent):
        for long_key in ev.definitions.get(key, ()):
            groups.add((label, long_key))
    by_compact: dict[tuple[str, str], list[Node]] = defaultdict(list)
    for node in groups.parent:
        compact = compact_key(american_spelling(node[1]))
        if len(compact) >= 5:
            by_compact[(node[0], compact)].append(node)
    for variants in by_compact.values():
        if len(variants) > 1:
            variants.sort(key=lambda n: (-ev.node_count[n], n[1]))
            target = variants[0]
            for other in variants[1:]:
                kind = (
                    "spelling variant"
                    if compact_key(other[1]) == compact_key(target[1])
                    else "British/American spelling"
                )
                groups.union(other, target, f"{kind} of '{target[1]}'")


def merge_typos(state: MergeState) -> None:
    """Near-duplicate keys of one label (see :mod:`.similarity`); acronyms never."""
    for joining, target, why in typo_pairs(state):
        connector = "of" if why.startswith("word-form") else "with"
        state.groups.union(joining, target, f"{why} {connector} '{target[1]}'")


def typo_pairs(state: MergeState) -> list[tuple[Node, Node, str]]:
    """The pairs :func:`merge_typos` joins: found from the nodes and their counts,
    not from the groups formed so far."""
    ev = state.evidence
    candidates = [n for n in state.groups.parent if not _is_short_key(n[1], ev.short_surface)]
    return near_duplicate_pairs(candidates, ev.node_count)


def _is_short_key(key: str, short_surface: dict[str, Counter[str]]) -> bool:
    """An acronym some paper defines, or too short to tell a typo from another name."""
    return key in short_surface or len(compact_key(key)) < 6
