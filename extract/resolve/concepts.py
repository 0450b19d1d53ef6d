"""Each group of nodes becomes one concept: its key, its name, its aliases and why
each alias joined.

After the merging steps of :mod:`.resolver` have formed the groups, this module
decides what a reader sees of each: which node's key the concept takes (not an
acronym, the most used form), which written form names it (an alias file's name
first; a paper's coined short name over a plain description), and, for every
other surface form, the reason it is an alias (a definition in a paper, a
spelling variant, the reason its node joined), so a merge can be audited.

Examples
--------
>>> from paperkg.extract.resolve.evidence import read_corpus
>>> from paperkg.extract.resolve.groups import Groups
>>> from paperkg.extract.resolve.state import MergeState
>>> from paperkg.records import Mention, Paper, PaperMentions
>>> found = PaperMentions(Paper(id="p1", abstract="", text="", source="x"), [
...     Mention("GNN", "METHOD", 0, 0, "", long_form="graph neural networks"),
...     Mention("Graph Neural Networks", "METHOD", 0, 0, "")])
>>> evidence, _ = read_corpus([found], renamed=set(), never=set())
>>> groups = Groups()
>>> groups.add(("METHOD", "graph neural network"))
>>> made, concept_id_of = make_concepts(MergeState(evidence, groups))
>>> concept_id_of
{('METHOD', 'graph neural network'): 'Method:graph neural network'}
>>> made[0].name, made[0].aliases
('graph neural network', {'GNN': 1, 'Graph Neural Networks': 1})
>>> made[0].merge_reasons["Graph Neural Networks"]
"plural of 'graph neural network'"
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from operator import itemgetter

from ...records import ENTITY_LABELS, Concept, concept_node_id
from ..names import is_coined_name
from .evidence import Evidence
from .groups import Node
from .keys import (
    clean_surface,
    compact_key,
    display_name,
    is_acronym,
    name_tokens,
    singular_written,
)
from .lexicon import NAMED_WITHOUT_KIND
from .state import MergeState
from .variants import without_generic_tail

__all__ = ["make_concepts"]


def make_concepts(state: MergeState) -> tuple[list[Concept], dict[Node, str]]:
    """One concept per group of nodes that has a mention, in the order the groups'
    nodes were first seen; and the concept id of every node."""
    groups, ev = state.groups, state.evidence
    members: dict[Node, list[Node]] = defaultdict(list)
    for node in groups.parent:
        members[groups.find(node)].append(node)
    # nodes whose name spells out an acronym; once, not per group (it was 2/3 of the time)
    uses_acronym = {n for n, _, _, _ in ev.expansions} | state.field_acronym_users
    papers_of = _papers_of_acronym_groups(ev, members.values())
    lower_words = _words_written_lower(ev.surface_count.values())
    made: list[Concept] = []
    concept_id_of: dict[Node, str] = {}
    for group in members.values():
        if not any(ev.node_count[n] for n in group):
            continue  # a long form only seen in a definition, never as a mention
        concept = _make_concept(state, group, uses_acronym, papers_of, lower_words)
        made.append(concept)
        for node in group:
            concept_id_of[node] = concept.id
    return made, concept_id_of


def _papers_of_acronym_groups(ev: Evidence, groups: Iterable[list[Node]]) -> Counter[Node]:
    """Papers per node, for the nodes of groups some paper writes as an acronym only
    (the others' names do not depend on it): one pass over the papers."""
    wanted = {n for group in groups if _papers_writing_acronym_alone(group, ev) for n in group}
    return Counter(n for _, nodes in ev.paper_nodes for n in nodes if n in wanted)


def _papers_writing_acronym_alone(group: list[Node], ev: Evidence) -> Counter[str]:
    """Form -> papers writing the group only as that acronym ("CLIP", "CLIPs")."""
    alone: Counter[str] = Counter()
    for node in group:
        for form, n in ev.sole_acronym_papers.get(node, {}).items():
            if singular_written(form, ev.acronym_surfaces) in ev.acronym_surfaces:
                alone[form] += n
    return alone


def _make_concept(
    state: MergeState,
    group: list[Node],
    uses_acronym: set[Node],
    papers_of: Counter[Node],
    lower_words: set[str],
) -> Concept:
    """One concept from a group of nodes: its key and name, aliases and reasons."""
    ev = state.evidence
    label = group[0][0]
    forced = [n for n in group if n in state.forced_names]
    head = forced[0] if forced else _head_node(ev, group, uses_acronym)
    key = head[1]
    name = _concept_name(state, head, label)
    if not forced:
        name = _prefer_coined_acronym(name, label, group, ev.surface_count, ev.acronym_surfaces)
        name = _prefer_acronym_papers_write(name, group, ev, papers_of)
        name = _lowered_sentence_start(name, lower_words)
    # plain dicts, not Counters: a concept is made 30,000 times at 3,218 papers
    aliases: dict[str, int] = {}
    reasons: dict[str, list[str]] = {}
    for node in group:
        for surface, n in ev.surface_count[node].items():
            aliases[surface] = aliases.get(surface, 0) + n
            if surface == name:
                continue
            reason = _alias_reason(state, node, surface, head, name, label)
            known = reasons.setdefault(surface, [])
            if reason not in known:
                known.append(reason)
    for node in group:  # an acronym written only inside "Long Form (ACR)" is still an alias
        for short, papers in ev.acronyms_of.get(node[1], {}).items():
            if short not in aliases and short != name:
                aliases[short] = len(papers)
                reasons[short] = [f"acronym defined in paper {_first_of(papers)}"]
    return Concept(
        id=concept_node_id(ENTITY_LABELS.get(label, label), key),
        label=ENTITY_LABELS.get(label, label),
        key=key,
        name=name,
        aliases=dict(sorted(aliases.items(), key=itemgetter(1), reverse=True)),  # most_common
        merge_reasons={s: "; ".join(r) for s, r in reasons.items()},
    )


def _head_node(ev: Evidence, group: list[Node], uses_acronym: set[Node]) -> Node:
    """The node whose key the concept takes: not an acronym, not a form that uses
    one, not the name with a word of its kind when the name alone is there ("Atari"
    of "Atari games"; a capitalised kind word is the name's: "DeepMind Control
    Suite"), the most used (long forms count their definitions),
    hyphenated, short."""
    if len(group) == 1:
        return group[0]  # most concepts: one node, nothing to weigh
    long_surface = ev.long_surface
    weight = Counter({n: ev.node_count[n] + sum(long_surface[n[1]].values()) for n in group})
    present = set(group)
    with_kind = {
        n
        for n in group
        if (split := without_generic_tail(n[1], n[0]))
        and split[1] in NAMED_WITHOUT_KIND.get(n[0], ())
        and (n[0], split[0]) in present
        and not _kind_word_capitalised(ev.surface_count[n])
    }
    return max(
        group,
        key=lambda n: (
            not _is_acronym_key(n, ev.surface_count, ev.acronym_surfaces, ev.expanded_surfaces),
            n not in uses_acronym and weight[n] > 0,
            n not in with_kind,
            weight[n],
            "-" in n[1],
            -len(n[1]),
            n[1],
        ),
    )


def _kind_word_capitalised(surfaces: Counter[str]) -> bool:
    """Whether most mentions of a name write its last word capitalised."""
    capitalised = sum(n for s, n in surfaces.items() if s.split()[-1:][0][:1].isupper())
    return 2 * capitalised > sum(surfaces.values())


def _concept_name(state: MergeState, head: Node, label: str) -> str:
    """The name: the name an alias file forces, else the most frequent readable form
    of the head key (acronyms last: :func:`_prefer_acronym_papers_write` decides
    when an acronym is how the field knows a concept)."""
    ev = state.evidence
    surface_count, acronym_surfaces = ev.surface_count, ev.acronym_surfaces
    names: dict[str, int] = {}
    for surface, n in surface_count[head].items():
        if surface not in acronym_surfaces:
            shown = display_name(surface, label)
            names[shown] = names.get(shown, 0) + n
    for surface, n in ev.long_surface[head[1]].items():
        shown = display_name(surface, label)
        names[shown] = names.get(shown, 0) + n
    if head in state.forced_names:
        return state.forced_names[head]
    if names:
        names = _case_of_the_running_text(names)
        return max(names, key=lambda s: (names[s], s.islower(), s))
    return display_name(max(surface_count[head], key=surface_count[head].__getitem__), label)


def _case_of_the_running_text(names: dict[str, int]) -> dict[str, int]:
    """The counts of a concept's readable names, with capitals that say nothing of
    its case moved to the form with fewer capitals: a sentence's first word
    ("Federated learning is") always, and a title's capitals ("Federated Learning")
    when that form is written at least a quarter as often ("federated learning").
    A one-word name keeps its capital ("Transformer"), and so does a name seldom
    written otherwise ("Stable Diffusion").

    >>> _case_of_the_running_text({"Federated Learning": 46, "federated learning": 25,
    ...                            "Federated learning": 16})
    {'federated learning': 87}
    >>> _case_of_the_running_text({"Stable Diffusion": 40, "stable diffusion": 2})
    {'Stable Diffusion': 40, 'stable diffusion': 2}
    """
    counts = dict(names)
    for capitals in (_sentence_case, _title_case):
        for form in [f for f in counts if capitals(f)]:
            same = [g for g in counts if g.casefold() == form.casefold()]
            # a plainer form capitalises no word that some form of the name writes lower
            always = set.intersection(*(_capitalised(g) for g in same))
            plainer = [g for g in same if g != form and not _title_case(g)
                       and not capitals(g) and _capitalised(g) <= always]  # fmt: skip
            if not plainer:
                continue
            target = max(plainer, key=lambda g: (counts[g], g))
            if capitals is _sentence_case or 4 * counts[target] >= counts[form]:
                counts[target] += counts.pop(form)
    return counts


def _words_written_lower(surfaces: Iterable[Counter[str]]) -> set[str]:
    """The words the corpus writes in lower case inside names, at least twice and
    more than twice as often as with a capital: a name seen only at a sentence's
    start ("Pseudo labeling is …") is shown with its first word as the corpus
    writes it elsewhere. A capitalised first word and Title Case names say nothing
    and are not counted; a hyphenated word counts by its first part ("pseudo" of
    "pseudo-labels"). Proper names keep their capital: "Gaussian", "Hopfield".

    >>> sorted(_words_written_lower([Counter({"Sparse Gaussian process": 2,
    ...     "a gaussian kernel": 1, "Pseudo-Label Refinement": 1, "noisy pseudo-labels": 2})]))
    ['noisy', 'process', 'pseudo']
    """
    lower: Counter[str] = Counter()
    capital: Counter[str] = Counter()
    for counts in surfaces:
        for surface, n in counts.items():
            words = surface.split()
            if len(words) < 2 or _title_case(surface):
                continue
            for i, word in enumerate(words):
                part = word.split("-", 1)[0]
                if part.islower():
                    lower[part] += n
                elif i and part[:1].isupper() and part[1:].islower():
                    capital[part.lower()] += n
    return {word for word, n in lower.items() if n >= 2 and n > 2 * capital[word]}


def _lowered_sentence_start(name: str, lower_words: set[str]) -> str:
    """``name`` with its first letter in lower case when it is a sentence's capital:
    a sentence-case name whose first word the corpus writes lower. Not a letter
    used as a symbol ("Q-learning algorithm", "K-means clustering").
    """
    first = name.split(" ", 1)[0].split("-", 1)[0]
    if _sentence_case(name) and len(first) > 1 and first.lower() in lower_words:
        return name[0].lower() + name[1:]
    return name


def _capitalised(name: str) -> set[str]:
    return {w for w in name.split() if w[:1].isupper()}


def _sentence_case(name: str) -> bool:
    first, *rest = name.split() or [""]
    return (
        bool(rest)
        and first[:1].isupper()
        and first[1:].islower()
        and not any(w[:1].isupper() for w in rest)
    )


def _title_case(name: str) -> bool:
    words = name.split()
    return len(words) >= 2 and all(w[:1].isupper() for w in words)


def _alias_reason(
    state: MergeState, node: Node, surface: str, head: Node, name: str, label: str
) -> str:
    """Why ``surface`` (a form of ``node``) is an alias of the concept named ``name``."""
    ev, node_reason = state.evidence, state.groups.reason
    papers = ev.defined_in.get((node, surface))
    spelled = ev.initials_in.get((node, surface))
    if papers:
        reason = f"acronym defined in paper {_first_of(papers)}"
    elif spelled:
        reason = f"initials of '{name}' in paper {_first_of(spelled)}"
    elif (node, surface) in ev.expanded_surfaces or (
        node != head and (node, surface) in state.joined_expansions
    ):
        shorts, papers = ev.expansion_sources[(node, surface)]
        reason = (
            f"{' and '.join(repr(s) for s in shorts)} spelled out as defined "
            f"in paper {_first_of(papers)}"
        )
        if node != head and not node_reason.get(node, "").startswith("acronym spell"):
            reason += f"; {node_reason.get(node) or f'merged with {name!r}'}"
    elif node == head:
        reason = _same_key_reason(surface, name, label)
    elif compact_key(node[1]) == compact_key(head[1]):
        reason = f"spelling variant of '{name}'"
    else:
        reason = node_reason.get(node) or f"merged with '{name}'"
    return reason


def _first_of(papers: list[str]) -> str:
    """The first paper of a reason, and how many more say the same."""
    if len(papers) > 1:
        return f"{papers[0]} (and {len(papers) - 1} more)"
    return papers[0]


def _prefer_coined_acronym(name, label, group, surface_count, acronym_surfaces) -> str:
    """A paper's coined name beats a plain description of it as the concept's name.

    "selective KD (SelKD)" and "lightweight ΔΔG predictor (Light-DDG)" are known by
    their short forms; "Rotary Positional Encodings (RoPE)" keeps its title-case long
    form and "graph neural network (GNN)" its long form. A coined name used less
    often than the description does not: one paper's "Self-SL" does not rename the
    corpus's "self-supervised learning". "LoRAs" is shown as "LoRA" where papers
    write that too. An acronym most papers write alone may still rename a long form
    this keeps (:func:`_prefer_acronym_papers_write`).
    """
    words = name.split()
    if len(words) > 1 and all(w[:1].isupper() for w in words):
        return name
    coined: dict[str, int] = {}
    for node in group:
        for surface, n in surface_count[node].items():
            if surface in acronym_surfaces and is_coined_name(surface):
                coined[surface] = coined.get(surface, 0) + n
    if not coined:
        return name
    best = max(coined, key=lambda s: (coined[s], s))
    described = sum(  # mentions written as the name
        n
        for node in group
        for surface, n in surface_count[node].items()
        if surface not in acronym_surfaces
        and display_name(surface, label).casefold() == name.casefold()
    )
    return singular_written(best, coined) if coined[best] >= described else name


#: how many times more papers must write an acronym alone than write its concept otherwise
ACRONYM_MARGIN = 3


def _prefer_acronym_papers_write(
    name: str, group: list[Node], ev: Evidence, papers_of: Counter[Node]
) -> str:
    """An acronym that most papers write alone, and few spell out, names its concept:
    "CLIP", "Adam" and "GPT", which a few papers define and the rest take as known
    (at least :data:`ACRONYM_MARGIN` times as many papers). "GNN", "SGD" and "CNN"
    keep their long forms, which many of their papers write. Papers are counted,
    not mentions: a paper that defines "KD" once and writes it ten times says
    nothing of what the field calls it. A paper writing two nodes of the group
    counts as writing it otherwise, once per node: the rule errs towards the long form.
    """
    alone = _papers_writing_acronym_alone(group, ev)
    if not alone:
        return name
    others = sum(papers_of[node] for node in group) - sum(alone.values())
    if sum(alone.values()) < ACRONYM_MARGIN * max(others, 1):
        return name
    shown: Counter[str] = Counter()  # "CLIPs" is "CLIP", where papers write that too
    for form, n in alone.items():
        shown[singular_written(form, alone)] += n
    return clean_surface(max(shown, key=lambda form: (shown[form], form)))


def _is_acronym_key(
    node: Node,
    surface_count: dict[Node, Counter[str]],
    acronyms: set[str],
    spelled: set[tuple[Node, str]],
) -> bool:
    """True when every surface of ``node`` is an acronym, or uses one its paper defines
    ("DP algorithms"): such a node names its concept only when nothing else does."""
    surfaces = surface_count.get(node)
    if not surfaces:
        return False
    return all(s in acronyms or is_acronym(s) or (node, s) in spelled for s in surfaces)


def _same_key_reason(surface: str, name: str, label: str) -> str:
    """Why ``surface`` has the same canonical key as the concept's ``name``."""
    changes: list[str] = []
    display = " ".join(name_tokens(surface, label, changes))
    if changes == ["plural"] and display.casefold() == name.casefold():
        return f"plural of '{name}'"
    if display != name and display.casefold() == name.casefold():
        changes.append("case")
    elif display.casefold() != name.casefold():
        changes.append("hyphen or space")
    if clean_surface(surface) != surface.strip():
        changes.append("Unicode, markup or spacing")
    return f"same key as '{name}' ({', '.join(changes) or 'spelling'})"
