"""The merging steps that join two forms of one name: with or without a generic
last word, "X of Y" and "Y X", a dataset with or without its maker's initials, and
the forms one paper uses side by side.

:mod:`.variants` says what the forms of a key are; these steps find them among
the corpus's nodes and join them. A form is only joined when its stem is still a
name ("hashtag recommendation", not "language" of "language model"), and the
riskier forms ("parser" and "parsing algorithm") only within one paper. Each step
is a function of one :class:`~.state.MergeState`, run in the order of
:data:`.resolver.STEPS`.
"""

from __future__ import annotations

import re
from collections import defaultdict

from .acronym_votes import word_initials
from .evidence import Evidence
from .groups import Node
from .keys import compact_key, is_acronym, singular
from .state import MergeState
from .variants import (
    agent_forms,
    american_spelling,
    generic_head_kind,
    modeling_form,
    of_phrase_reordered,
    without_generic_tail,
)

#: a word of capitals alone, as initials are written: "MS", "PASCAL"
_INITIALS = re.compile(r"[A-Z]{2,6}")

__all__ = [
    "merge_name_variants",
    "merge_paper_name_forms",
    "name_variant_unions",
    "paper_name_form_pairs",
]


def merge_name_variants(state: MergeState) -> None:
    """One name with or without a generic last word ("hashtag recommendation
    problem", "hashtag recommendation"), or as "X of Y" ("prediction of
    intelligibility", "intelligibility prediction"), see :mod:`.variants`; or a
    dataset with and without its maker's initials ("MS COCO", "COCO")."""
    for joining, target, reason in name_variant_unions(state):
        state.groups.union(joining, target, reason)


def name_variant_unions(state: MergeState) -> list[tuple[Node, Node, str]]:
    """The unions :func:`merge_name_variants` makes, in order: decided from the
    evidence and the nodes, not from the groups formed so far."""
    ev = state.evidence
    unions: list[tuple[Node, Node, str]] = []
    # a long form seen only in its definition counts: "NeRF framework" meets the
    # "neural radiance field" of "NeRF (neural radiance fields)"
    present = [
        n
        for n in state.groups.parent
        if ev.node_count[n] or n in state.expansion_targets or ev.long_surface.get(n[1])
    ]
    # a stem is found whatever its hyphens ("hash-tag recommendation"), as its most
    # frequent spelling ("knowledge distillation", not a glued "knowledgedistillation")
    by_compact = {
        (n[0], compact_key(american_spelling(n[1]))): n
        for n in sorted(present, key=lambda n: (ev.node_count[n], n[1]))
    }
    spellings: dict[Node, list[Node]] = defaultdict(list)
    for node in present:
        spellings[by_compact[(node[0], compact_key(american_spelling(node[1])))]].append(node)
    by_stem: dict[Node, list[Node]] = defaultdict(list)
    for node in present:
        label, key = node
        split = without_generic_tail(key, label)
        if split is not None:
            compact = compact_key(american_spelling(split[0]))
            stem = by_compact.get((label, compact), (label, split[0]))
            by_stem[stem].append(node)
        reordered = of_phrase_reordered(key)
        if reordered is not None and (
            ev.node_count.get((label, reordered)) or (label, reordered) in state.expansion_targets
        ):
            unions.append((node, (label, reordered), f"'X of Y' form of '{reordered}'"))
    for stem, variants in by_stem.items():
        if ev.node_count.get(stem) or ev.long_surface.get(stem[1]):
            target = stem
        else:
            target = max(variants, key=lambda n: (ev.node_count[n], n[1]))
        if not _name_stem(ev, stem, variants, spellings):
            continue
        for node in variants:
            if node != target:
                tail = node[1].rpartition(" ")[2]
                unions.append((node, target, f"same name with generic '{tail}': '{target[1]}'"))
    return unions + _dataset_initials_unions(ev, present)


def _name_stem(
    ev: Evidence, stem: Node, variants: list[Node], spellings: dict[Node, list[Node]]
) -> bool:
    """Whether a stem left by a generic last word is still a name: two words or
    more in one of its spellings ("hashtag recommendation", "meta-learning" as
    "meta learning"; not the adjective of "gradient-based methods"), or a
    capitalised proper name (see :func:`_proper_name`)."""
    if " " in stem[1] or any(" " in n[1] for n in spellings.get(stem, ())):
        return True
    return _proper_name(ev, stem, variants)


def _proper_name(ev: Evidence, stem: Node, variants: list[Node]) -> bool:
    """A one-word stem is a name when it is seen alone and always capitalised:
    "Dau" and "Dau measure", not "language" and "language model"."""
    if not ev.node_count.get(stem):
        return False
    for node in (stem, *variants):
        if not all(s[:1].isupper() for s in ev.surface_count[node]):
            return False
    return True


def _dataset_initials_unions(ev: Evidence, present: list[Node]) -> list[tuple[Node, Node, str]]:
    """A dataset led by capitals that lead nothing but dataset names in the corpus is
    the dataset it names without them: "MS COCO" and "COCO", "PASCAL VOC" and "VOC",
    the initials of a maker or a collection. A word makes another dataset ("Fashion
    MNIST", "Colored MNIST" even where a paper calls it CMNIST), capitals that also
    lead a method or task are a modifier ("OOD CIFAR-10" beside "OOD detection"),
    and a bare name two leads reach is a part of both ("WMT En-De", "IWSLT En-De"),
    so these stay apart. The bare name joins, with the reason."""
    modifiers = {  # leads of other labels' names; a dataset the NER once mislabels is none
        key.partition(" ")[0]
        for label, key in ev.node_count
        if label != "DATASET" and " " in key and ("DATASET", key) not in ev.node_count
    }
    initialled: dict[Node, list[Node]] = defaultdict(list)
    for node in present:
        label, key = node
        lead, _, rest = key.partition(" ")
        bare = (label, rest)
        # a method's or task's own lead is a modifier, so only datasets pass
        if not rest or lead in modifiers or not ev.node_count.get(bare):
            continue
        leads = [s.partition(" ")[0] for s in ev.surface_count.get(node, ())]
        leads = [word for word in leads if word.lower() == lead]
        if not leads or not all(_INITIALS.fullmatch(word) for word in leads):
            continue
        if all(s[:1].isupper() for s in ev.surface_count[bare]):
            initialled[bare].append(node)
    return [
        (
            bare,
            node,
            f"'{node[1]}' is '{bare[1]}' with {node[1].partition(' ')[0].upper()} before it",
        )
        for bare, (node, *others) in initialled.items()
        if not others
    ]


def merge_paper_name_forms(state: MergeState) -> None:
    """Two forms of one name a paper uses (see :func:`paper_name_form_pairs`).

    The pair is joined for a reason that explains either node, whichever names
    the concept in the end; an acronym's own reason is left to the corpus vote.
    """
    groups, definitions = state.groups, state.evidence.definitions
    for a, b, reason in paper_name_form_pairs(state.evidence):
        if groups.union(a, b, reason) and b[1] not in definitions:
            groups.reason.setdefault(b, reason)


def paper_name_form_pairs(ev: Evidence) -> list[tuple[Node, Node, str]]:
    """The pairs :func:`merge_paper_name_forms` joins, in order: two forms of one
    name a paper uses (see :mod:`.variants`), decided from the evidence alone:

    * a process with a generic head and its agent noun: "parsing algorithm"
      and "parser", "classification stage" and "classifier"; an agent always
      capitalised is a coined name ("Reasoner") and is left alone;
    * "X modeling [head]" and "X model": "user modeling system", "user model";
    * one word with two generic heads of one kind: "boosting approach" and
      "boosting method", "ranking problem" and "ranking (task)" (a one-word
      stem is too vague to merge corpus-wide);
    * one name with its modifiers in two orders: "object intrinsic
      representation" and "intrinsic object representation";
    * a process and the process with "mechanism": "attention" and "attention
      mechanism" (:func:`_process_of_mechanism`);
    * a name led by an acronym and the name with the acronym's words: "STG
      Transformer" and "State-to-Go Transformer" (:func:`_spelled_by_initials`).
    """
    pairs: list[tuple[Node, Node, str]] = []
    for paper_id, nodes in ev.paper_nodes:
        pairs.extend(_pairs_in_paper(ev, paper_id, nodes))
    return pairs


def _pairs_in_paper(
    ev: Evidence, paper_id: str, nodes: tuple[Node, ...]
) -> list[tuple[Node, Node, str]]:
    """The pairs of :func:`paper_name_form_pairs` among one paper's nodes."""
    pairs: list[tuple[Node, Node, str]] = []
    by_kind: dict[tuple[str, str, str], list[Node]] = defaultdict(list)
    by_words: dict[tuple[str, str, tuple[str, ...]], list[Node]] = defaultdict(list)
    for node in nodes:  # sorted, so every run joins in one order
        label, key = node
        words = key.split(" ")
        if len(words) >= 3:
            by_words[(label, words[-1], tuple(sorted(words[:-1])))].append(node)
        modeled = modeling_form(key)
        if modeled and (label, modeled) in nodes:
            pairs.append(
                (
                    node,
                    (label, modeled),
                    f"'{key}' is the modeling of a '{modeled}', in paper {paper_id}",
                )
            )
        for agent_key in agent_forms(key):
            agent = (label, agent_key)
            if agent not in nodes or all(s[:1].isupper() for s in ev.surface_count[agent]):
                continue
            pairs.append(
                (node, agent, f"'{agent_key}' does what '{key}' names, in paper {paper_id}")
            )
        kind = generic_head_kind(key, label)
        if kind is not None:
            by_kind[(label, *kind)].append(node)
            if kind[1] == "task" and (label, kind[0]) in nodes:
                by_kind[(label, *kind)].append((label, kind[0]))
        process = _process_of_mechanism(ev, node, nodes)
        if process is not None:
            pairs.append((node, process, f"'{key}' is '{process[1]}', in paper {paper_id}"))
        spelled = _spelled_by_initials(ev, node, nodes)
        if spelled is not None:
            short = ev.surface_count[node].most_common(1)[0][0].partition(" ")[0]
            reason = f"'{short}' is the initials of the first words of '{spelled[1]}'"
            pairs.append((node, spelled, f"{reason}, in paper {paper_id}"))
    for same in by_words.values():
        for node in same[1:]:
            pairs.append(
                (
                    node,
                    same[0],
                    f"'{node[1]}' and '{same[0][1]}': one name, its modifiers in two "
                    f"orders, in paper {paper_id}",
                )
            )
    for (_, stem, kind), same in by_kind.items():
        same.sort(key=lambda n: (-ev.node_count[n], n[1]))
        for node in same[1:]:
            pairs.append(
                (
                    node,
                    same[0],
                    f"'{node[1]}' and '{same[0][1]}': '{stem}' with two generic {kind} "
                    f"heads, in paper {paper_id}",
                )
            )
    return pairs


def _process_of_mechanism(ev: Evidence, node: Node, nodes: tuple[Node, ...]) -> Node | None:
    """The process a one-word "X mechanism" names when its paper also names X bare:
    "attention mechanism" and "attention", "self-attention mechanisms" and
    "self-attention". X must be a process noun written in lower case (-ion, -ing,
    -ment): not "MixTURE" nor the adjective "causal"; and only where one paper uses
    both, since "allocation mechanism" in another paper is mechanism design's own."""
    label, key = node
    stem, _, tail = key.rpartition(" ")
    process = (label, stem)
    if singular(tail) != "mechanism" or " " in stem or process not in nodes:
        return None
    if not stem.rpartition("-")[2].endswith(("ion", "ing", "ment")):
        return None
    written = [part for s in ev.surface_count[process] for part in s.split("-")]
    return process if all(part[1:] == part[1:].lower() for part in written) else None


def _spelled_by_initials(ev: Evidence, node: Node, nodes: tuple[Node, ...]) -> Node | None:
    """The name of the paper that a name led by an undefined acronym spells out: the
    same last words after words whose initials are the acronym ("STG Transformer" and
    "State-to-Go Transformer", "CI testing" and "conditional independence testing")."""
    label, key = node
    short, _, rest = key.partition(" ")
    letters = "".join(c for c in short if c.isalnum())
    if not rest or not 2 <= len(letters) <= 6:
        return None
    if not all(is_acronym(s.split(" ")[0].rstrip("s")) for s in ev.surface_count[node]):
        return None
    for other in nodes:
        lead = other[1].removesuffix(f" {rest}")
        if other[0] != label or other == node or lead == other[1]:
            continue
        initials = word_initials(lead, label)
        if initials and initials[0] == letters:
            return other
    return None
