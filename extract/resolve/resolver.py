"""One concept, one node: mentions of a corpus resolved to canonical concepts.

:func:`resolve_concepts` maps every mention to a :class:`~paperkg.records.Concept`:
mentions with equal canonical keys (:func:`canonical_key`) share one, an acronym
defined in a paper joins its long form, a name using it is read spelled out
("WSD models"), a bare acronym joins the long form the corpus agrees on,
spelling variants and near-duplicate typos join, so do names with and without a
generic last word, and two forms of one name a paper uses ("parser" and "parsing
algorithm", "user model" and "user modeling system"; see :mod:`.variants`). A
user alias file overrides all of it. Every alias carries the reason it joined,
so a merge can be audited.

Examples
--------
>>> canonical_key("Graph Neural Networks", "METHOD")
'graph neural network'
>>> canonical_key("our method", "METHOD")
''
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path

from ...records import ENTITY_LABELS, Concept, PaperMentions, Resolution, concept_node_id
from ..names import is_coined_name
from .acronym_votes import (
    expand_acronyms,
    initials_long_forms,
    long_form_of,
    majority_long_form,
    paper_long_forms,
)
from .aliases import AliasFile, load_alias_file
from .groups import Groups, Node
from .keys import (
    canonical_key,
    clean_surface,
    compact_key,
    display_name,
    is_acronym,
    name_tokens,
)
from .similarity import near_duplicate_pairs
from .variants import (
    agent_forms,
    american_spelling,
    generic_head_kind,
    modeling_form,
    of_phrase_reordered,
    without_generic_tail,
)

__all__ = ["canonical_key", "resolve_concepts"]

logger = logging.getLogger(__name__)

# --------------------------------------------------------------------------- resolution


#: the merging steps, in the order they run over the evidence (each a method of
#: _Resolver, documented there): the alias file first, since it overrides every
#: automatic choice; then what papers define, then spellings, then name forms, and
#: last the corpus vote on bare acronyms, which must see every group formed.
STEPS = (
    "apply_alias_file",
    "link_paper_long_forms",
    "link_spelled_out_acronyms",
    "merge_spelling_variants",
    "merge_typos",
    "merge_name_variants",
    "merge_paper_name_forms",
    "link_corpus_acronyms",
)


def resolve_concepts(
    results: list[PaperMentions], *, alias_file: str | Path | None = None
) -> Resolution:
    """Resolve every mention of a corpus to a canonical concept.

    Parameters
    ----------
    results
        What extraction found, one :class:`PaperMentions` per paper.
    alias_file
        Optional CSV (``alias,canonical[,label]``) or YAML
        (``{aliases: {alias: canonical}, never_merge: [[a, b], ...]}``) file whose
        choices override the automatic ones.

    Returns
    -------
    Resolution
        ``concept_of[i][j]`` is the concept id of ``results[i].mentions[j]``
        (``None`` for a generic phrase), ``concepts`` the concepts by id, each
        with its aliases, their counts and the reason each joined.

    Examples
    --------
    >>> from paperkg.records import Mention, Paper, PaperMentions
    >>> paper = Paper(id="p1", abstract="", text="", source="x")
    >>> found = PaperMentions(paper, [
    ...     Mention("graph neural networks", "METHOD", 0, 0, ""),
    ...     Mention("GNN", "METHOD", 0, 0, "", long_form="graph neural network"),
    ...     Mention("our method", "METHOD", 0, 0, "")])
    >>> res = resolve_concepts([found])
    >>> res.concept_of
    [['Method:graph neural network', 'Method:graph neural network', None]]
    >>> res.concepts["Method:graph neural network"].merge_reasons["GNN"]
    'acronym defined in paper p1'
    """
    aliases = load_alias_file(alias_file) if alias_file is not None else AliasFile()
    resolver = _Resolver(aliases, sorted({m.label for r in results for m in r.mentions}))
    mention_nodes = [resolver.read_paper(result) for result in results]
    resolver.merge()
    concept_id_of = resolver.concepts()

    concept_of = [[concept_id_of[n] if n else None for n in nodes] for nodes in mention_nodes]
    mention_count = sum(resolver.ev.node_count.values())
    dropped = sum(n is None for nodes in mention_nodes for n in nodes)
    concepts = {c.id: c for c in resolver.made}
    logger.info(
        "%d mentions collapsed into %d concepts (%d generic mentions dropped)",
        mention_count,
        len(concepts),
        dropped,
    )
    return Resolution(
        concepts=concepts,
        concept_of=concept_of,
        ambiguous_acronyms=resolver.ambiguous,
        mention_count=mention_count,
    )


@dataclass
class _Evidence:
    """What the corpus says about its mentions, gathered paper by paper
    (:meth:`_Resolver.read_paper`) before any merging step reads it.

    A *node* is ``(label, canonical key)``: the mentions that must be one concept
    whatever else is decided. Merging steps join nodes into groups; this record
    holds the counts, surfaces and acronym definitions they decide on.
    """

    #: mentions per node
    node_count: Counter[Node] = field(default_factory=Counter)
    #: node -> surface form -> mentions written so
    surface_count: dict[Node, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    #: (node, surface) -> papers that define the surface as an acronym of the node
    defined_in: dict[tuple[Node, str], list[str]] = field(default_factory=lambda: defaultdict(list))
    #: (node, surface) -> papers where the surface is the initials of the node's name
    initials_in: dict[tuple[Node, str], list[str]] = field(
        default_factory=lambda: defaultdict(list)
    )
    #: (node, surface) -> (the acronyms spelled out in the surface, the papers defining them)
    expansion_sources: dict[tuple[Node, str], tuple[list[str], list[str]]] = field(
        default_factory=dict
    )
    #: (node, its key with its acronyms spelled out, the (short key, long key) pairs used)
    expansions: list[tuple[Node, str, str, list[tuple[str, str]]]] = field(default_factory=list)
    #: nodes some name's spelled-out form is
    expansion_targets: set[Node] = field(default_factory=set)
    #: (node, surface) pairs on their node because an acronym in the surface was spelled out
    expanded_surfaces: set[tuple[Node, str]] = field(default_factory=set)
    #: ... and (node, surface) pairs whose node joined its spelled-out form
    joined_expansions: set[tuple[Node, str]] = field(default_factory=set)
    #: (short, long form, another long form, paper): two definitions of one acronym in a paper
    paper_links: list[tuple[str, str, str, str]] = field(default_factory=list)
    #: surfaces written as an acronym somewhere in the corpus
    acronym_surfaces: set[str] = field(default_factory=set)
    #: short key -> long key -> papers defining the short form so
    definitions: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    #: the same per (label, short key), counting papers where either side has that label
    labelled_definitions: dict[Node, Counter[str]] = field(
        default_factory=lambda: defaultdict(Counter)
    )
    #: short key -> its surfaces in definitions; long key -> its surfaces in definitions
    short_surface: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    long_surface: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    #: (paper id, the nodes of its mentions, sorted): a tuple, a fifth of a set's memory
    paper_nodes: list[tuple[str, tuple[Node, ...]]] = field(default_factory=list)


class _Resolver:
    """One resolution: :meth:`read_paper` gathers the evidence, each step of
    :data:`STEPS` joins nodes into groups, :meth:`concepts` makes one concept a group."""

    def __init__(self, aliases: AliasFile, labels: list[str]) -> None:
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
        #: the groups of nodes merged so far, with the reason each joined
        self.groups = Groups(never=never)
        #: (label, alias key, canonical key, canonical name) from the alias file
        self.alias_rules = [
            (label, canonical_key(alias, label), canonical_key(canonical, label), canonical)
            for alias, canonical, only in aliases.entries
            for label in ([only] if only else labels)
        ]
        self.alias_rules = [r for r in self.alias_rules if r[1] and r[2]]
        #: nodes an alias file renames: no automatic rule may move them
        self.alias_keys = {(lab, alias) for lab, alias, key, _ in self.alias_rules if alias != key}
        #: node -> the name an alias file gives it
        self.forced_names: dict[Node, str] = {}
        #: what the corpus says, gathered by :meth:`read_paper` before any merging
        self.ev = _Evidence()
        #: one tuple per node, however many mentions have it (millions at 100k papers)
        self.nodes: dict[Node, Node] = {}
        #: short key -> the long keys it is read as, when no long form has a clear majority
        self.ambiguous: dict[str, list[str]] = {}
        #: the concepts made by :meth:`concepts`
        self.made: list[Concept] = []
        #: nodes whose name spells out an acronym (set by :meth:`concepts`)
        self.uses_acronym: set[Node] = set()

    def read_paper(self, result: PaperMentions) -> list[Node | None]:
        """A node for every mention of one paper: its own key, or its long form's key
        when the paper defines it as an acronym; None for a generic phrase."""
        long_forms = paper_long_forms(result)
        defined = {short: forms[0] for short, forms in long_forms.items()}
        spelled_out = initials_long_forms(result, defined)
        labels_of: dict[str, set[str]] = defaultdict(set)  # key -> labels it has here
        for mention in result.mentions:
            labels_of[canonical_key(mention.text, "")].add(mention.label)
        for short, long in defined.items():
            short_key, long_key = canonical_key(short, ""), canonical_key(long, "")
            if short_key and long_key and short_key != long_key:
                self.ev.definitions[short_key][long_key] += 1
                for label in labels_of[short_key] | labels_of[long_key]:
                    self.ev.labelled_definitions[(label, short_key)][long_key] += 1
                self.ev.short_surface[short_key][short] += 1
                self.ev.long_surface[long_key][clean_surface(long)] += 1
                self.ev.acronym_surfaces.add(short)
            for other in long_forms[short][1:]:
                self.ev.paper_links.append((short, long, other, result.paper.id))
        nodes: list[Node | None] = []
        for mention in result.mentions:
            key = canonical_key(mention.text, mention.label)
            if not key:
                nodes.append(None)
                continue
            node: Node = (mention.label, key)
            long = long_form_of(defined, mention.text) or mention.long_form
            spelled = None
            if long is None:
                long = spelled = spelled_out.get((mention.label, clean_surface(mention.text)))
            if long is not None and node not in self.alias_keys:
                long_key = canonical_key(long, mention.label)
                if (
                    long_key
                    and long_key != key
                    and frozenset((key, long_key)) not in self.groups.never
                ):
                    node = (mention.label, long_key)
                    self.ev.acronym_surfaces.add(mention.text)
                    self.ev.long_surface[long_key][clean_surface(long)] += 1
                    where = self.ev.initials_in if spelled else self.ev.defined_in
                    papers = where[(node, mention.text)]
                    if not papers or papers[-1] != result.paper.id:
                        papers.append(result.paper.id)
            elif long is None and node not in self.alias_keys:
                known = defined
                if spelled_out:  # acronyms the paper spells out by initials ("CAS approach")
                    known = {s: lf for (lab, s), lf in spelled_out.items() if lab == mention.label}
                    known.update(defined)
                node = self._spelled_out(node, mention.text, known, result.paper.id)
            node = self.nodes.setdefault(node, node)
            self.groups.add(node)
            self.ev.node_count[node] += 1
            self.ev.surface_count[node][mention.text] += 1
            nodes.append(node)
        self.ev.paper_nodes.append((result.paper.id, tuple(sorted({n for n in nodes if n}))))
        return nodes

    def _spelled_out(self, node: Node, surface: str, defined: dict[str, str], paper: str):
        """The node of a name that uses acronyms its paper defines.

        A name that is the acronym plus a generic word ("ASR system", key "asr")
        is read in its paper as the long form plus that word, like the bare
        acronym. A longer name ("dedicated WSD models") keeps its own node and is
        remembered for :meth:`link_spelled_out_acronyms`.
        """
        expanded = expand_acronyms(defined, surface)
        if expanded is None:
            return node
        label, key = node
        long_key = canonical_key(expanded[0], label)
        if not long_key or long_key == key:
            return node
        shorts, papers = self.ev.expansion_sources.setdefault(
            ((label, long_key), surface), (expanded[1], [])
        )
        if not papers or papers[-1] != paper:
            papers.append(paper)
        if key in {canonical_key(short, "") for short in expanded[1]}:
            self.ev.expanded_surfaces.add(((label, long_key), surface))
            # the spelled-out form may name the concept ("DP algorithms" -> "differential
            # privacy algorithm"), as a long form names its acronym's concept
            self.ev.long_surface[long_key][expanded[0]] += 1
            return (label, long_key)
        used = [
            (canonical_key(short, ""), canonical_key(long_form_of(defined, short) or "", ""))
            for short in expanded[1]
        ]
        self.ev.expansions.append((node, surface, long_key, used))
        self.ev.expansion_sources[(node, surface)] = self.ev.expansion_sources[
            ((label, long_key), surface)
        ]
        return node

    def link_spelled_out_acronyms(self) -> None:
        """A name using an acronym ("dedicated WSD models") joins its spelled-out form
        ("dedicated word sense disambiguation models") when the corpus agrees on
        what the acronym stands for: the paper's long form holds a clear majority
        of the acronym's definitions."""
        for node, surface, long_key, used in self.ev.expansions:
            agreed = all(
                (majority := majority_long_form(self.ev.definitions.get(short_key, {})))
                and majority[0] == long
                for short_key, long in used
            )
            if agreed:
                target = (node[0], long_key)
                self.groups.add(target)
                self.ev.expansion_targets.add(target)
                self.groups.union(node, target, f"acronym spelled out: {long_key!r}")
                if self.groups.find(node) == self.groups.find(target):
                    self.ev.joined_expansions.add((node, surface))

    def apply_alias_file(self) -> None:
        for label, alias_key, target_key, canonical_name in self.alias_rules:
            alias_node, target = (label, alias_key), (label, target_key)
            if alias_node in self.groups.parent:
                if alias_node != target:
                    self.groups.union(alias_node, target, "alias file")
                self.forced_names[target] = display_name(canonical_name, label)

    def link_paper_long_forms(self) -> None:
        """Two long forms one paper gives one acronym ("separated convolutional network
        (S3D)" and "Separated 3D (S3D)") name one thing, in each label they have."""
        labels = sorted({label for label, _ in self.ev.node_count})
        for short, long, other, paper_id in self.ev.paper_links:
            for label in labels:
                a, b = (label, canonical_key(other, label)), (label, canonical_key(long, label))
                if a[1] and b[1] and a != b and a in self.ev.node_count and b in self.ev.node_count:
                    self.groups.union(a, b, f"another long form of '{short}' in paper {paper_id}")

    def merge_spelling_variants(self) -> None:
        """Keys equal once hyphens and spaces are ignored ("pre-training", "pretraining"),
        except short ones: "d-PM" is not "DPM"."""
        # the long forms a bare acronym may join take part, so that "brain computer
        # interface" and "brain-computer interface" count as one long form
        for label, key in list(self.groups.parent):
            for long_key in self.ev.definitions.get(key, ()):
                self.groups.add((label, long_key))
        by_compact: dict[tuple[str, str], list[Node]] = defaultdict(list)
        for node in self.groups.parent:
            compact = compact_key(american_spelling(node[1]))
            if len(compact) >= 5:
                by_compact[(node[0], compact)].append(node)
        for variants in by_compact.values():
            if len(variants) > 1:
                variants.sort(key=lambda n: (-self.ev.node_count[n], n[1]))
                target = variants[0]
                for other in variants[1:]:
                    kind = (
                        "spelling variant"
                        if compact_key(other[1]) == compact_key(target[1])
                        else "British/American spelling"
                    )
                    self.groups.union(other, target, f"{kind} of '{target[1]}'")

    def merge_name_variants(self) -> None:
        """One name with or without a generic last word ("hashtag recommendation
        problem", "hashtag recommendation"), or as "X of Y" ("prediction of
        intelligibility", "intelligibility prediction"); see :mod:`.variants`."""
        for joining, target, reason in self.name_variant_unions():
            self.groups.union(joining, target, reason)

    def name_variant_unions(self) -> list[tuple[Node, Node, str]]:
        """The unions :meth:`merge_name_variants` makes, in order: decided from the
        evidence and the nodes, not from the groups formed so far."""
        unions: list[tuple[Node, Node, str]] = []
        # a long form seen only in its definition counts: "NeRF framework" meets the
        # "neural radiance field" of "NeRF (neural radiance fields)"
        present = [
            n
            for n in self.groups.parent
            if self.ev.node_count[n]
            or n in self.ev.expansion_targets
            or self.ev.long_surface.get(n[1])
        ]
        # a stem is found whatever its hyphens ("hash-tag recommendation"), as its most
        # frequent spelling ("knowledge distillation", not a glued "knowledgedistillation")
        by_compact = {
            (n[0], compact_key(american_spelling(n[1]))): n
            for n in sorted(present, key=lambda n: (self.ev.node_count[n], n[1]))
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
                self.ev.node_count.get((label, reordered))
                or (label, reordered) in self.ev.expansion_targets
            ):
                unions.append((node, (label, reordered), f"'X of Y' form of '{reordered}'"))
        for stem, variants in by_stem.items():
            if self.ev.node_count.get(stem) or self.ev.long_surface.get(stem[1]):
                target = stem
            else:
                target = max(variants, key=lambda n: (self.ev.node_count[n], n[1]))
            if not self._name_stem(stem, variants, spellings):
                continue
            for node in variants:
                if node != target:
                    tail = node[1].rpartition(" ")[2]
                    unions.append((node, target, f"same name with generic '{tail}': '{target[1]}'"))
        return unions

    def merge_paper_name_forms(self) -> None:
        """Two forms of one name a paper uses (see :meth:`paper_name_form_pairs`)."""
        for a, b, reason in self.paper_name_form_pairs():
            self._join_pair(a, b, reason)

    def paper_name_form_pairs(self) -> list[tuple[Node, Node, str]]:
        """The pairs :meth:`merge_paper_name_forms` joins, in order: two forms of one
        name a paper uses (see :mod:`.variants`), decided from the evidence alone:

        * a process with a generic head and its agent noun: "parsing algorithm"
          and "parser", "classification stage" and "classifier"; an agent always
          capitalised is a coined name ("Reasoner") and is left alone;
        * "X modeling [head]" and "X model": "user modeling system", "user model";
        * one word with two generic heads of one kind: "boosting approach" and
          "boosting method", "ranking problem" and "ranking (task)" (a one-word
          stem is too vague to merge corpus-wide);
        * one name with its modifiers in two orders: "object intrinsic
          representation" and "intrinsic object representation".
        """
        pairs: list[tuple[Node, Node, str]] = []
        for paper_id, nodes in self.ev.paper_nodes:
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
                    if agent not in nodes or all(
                        s[:1].isupper() for s in self.ev.surface_count[agent]
                    ):
                        continue
                    pairs.append(
                        (node, agent, f"'{agent_key}' does what '{key}' names, in paper {paper_id}")
                    )
                kind = generic_head_kind(key, label)
                if kind is not None:
                    by_kind[(label, *kind)].append(node)
                    if kind[1] == "task" and (label, kind[0]) in nodes:
                        by_kind[(label, *kind)].append((label, kind[0]))
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
                same.sort(key=lambda n: (-self.ev.node_count[n], n[1]))
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

    def _join_pair(self, a: Node, b: Node, reason: str) -> None:
        """Join two nodes for a reason that explains either one, whichever names the
        concept in the end."""
        if self.groups.union(a, b, reason) and b[1] not in self.ev.definitions:
            self.groups.reason.setdefault(b, reason)  # (an acronym's own reason comes later)

    def _name_stem(
        self, stem: Node, variants: list[Node], spellings: dict[Node, list[Node]]
    ) -> bool:
        """Whether a stem left by a generic last word is still a name: two words or
        more in one of its spellings ("hashtag recommendation", "meta-learning" as
        "meta learning"; not the adjective of "gradient-based methods"), or a
        capitalised proper name (see :meth:`_proper_name`)."""
        if " " in stem[1] or any(" " in n[1] for n in spellings.get(stem, ())):
            return True
        return self._proper_name(stem, variants)

    def _proper_name(self, stem: Node, variants: list[Node]) -> bool:
        """A one-word stem is a name when it is seen alone and always capitalised:
        "Dau" and "Dau measure", not "language" and "language model"."""
        if not self.ev.node_count.get(stem):
            return False
        for node in (stem, *variants):
            if not all(s[:1].isupper() for s in self.ev.surface_count[node]):
                return False
        return True

    def merge_typos(self) -> None:
        """Near-duplicate keys of one label (see :mod:`.similarity`); acronyms never."""
        for joining, target, why in self.typo_pairs():
            connector = "of" if why.startswith("word-form") else "with"
            self.groups.union(joining, target, f"{why} {connector} '{target[1]}'")

    def typo_pairs(self) -> list[tuple[Node, Node, str]]:
        """The pairs :meth:`merge_typos` joins: found from the nodes and their counts,
        not from the groups formed so far."""
        candidates = [
            n for n in self.groups.parent if not _is_short_key(n[1], self.ev.short_surface)
        ]
        return near_duplicate_pairs(candidates, self.ev.node_count)

    def merge(self) -> None:
        """Run the merging :data:`STEPS` in order, each deciding then joining in turn."""
        for step in STEPS:
            getattr(self, step)()

    def link_corpus_acronyms(self) -> None:
        """A bare acronym joins the long form the corpus agrees on, or is reported.

        The papers where the acronym (or its long form) has the bare mention's label
        vote; when there are none, every defining paper does. So a METRIC "MAE" can
        follow "mean absolute error" while most papers define MAE as a method.
        """
        for node in list(self.groups.parent):
            label, key = node
            if key not in self.ev.definitions:
                continue
            definitions = self.ev.labelled_definitions.get(node) or self.ev.definitions[key]
            votes: Counter[Node] = Counter()
            for long_key, n in definitions.items():
                self.groups.add((label, long_key))
                votes[self.groups.find((label, long_key))] += n
            short = self.ev.short_surface[key].most_common(1)[0][0]
            majority = majority_long_form(votes)
            if majority is None:
                self.ambiguous[short] = sorted(
                    {self.ev.long_surface[k].most_common(1)[0][0] for k in definitions},
                    key=str.lower,
                )
                logger.info("acronym %r left apart: %s", short, self.ambiguous[short])
                continue
            best_root, best, total = majority
            long_key = max(
                (k for k in definitions if self.groups.find((label, k)) == best_root),
                key=lambda k: definitions[k],
            )
            long_name = self.ev.long_surface[long_key].most_common(1)[0][0]
            self.groups.union(
                node,
                (label, long_key),
                f"corpus acronym: '{short}' -> '{long_name}' ({best} of {total} definitions)",
            )

    def concepts(self) -> dict[Node, str]:
        """Make the concepts (into ``self.made``); return the concept id of every node."""
        members: dict[Node, list[Node]] = defaultdict(list)
        for node in self.groups.parent:
            members[self.groups.find(node)].append(node)
        # nodes whose name spells out an acronym; once, not per group (it was 2/3 of the time)
        self.uses_acronym = {n for n, _, _, _ in self.ev.expansions}
        concept_id_of: dict[Node, str] = {}
        for group in members.values():
            if not any(self.ev.node_count[n] for n in group):
                continue  # a long form only seen in a definition, never as a mention
            concept = self._make_concept(group)
            self.made.append(concept)
            for node in group:
                concept_id_of[node] = concept.id
        return concept_id_of

    def _make_concept(self, group: list[Node]) -> Concept:
        """One concept from a group of nodes: its key and name, aliases and reasons."""
        label = group[0][0]
        forced = [n for n in group if n in self.forced_names]
        head = forced[0] if forced else self._head_node(group)
        key = head[1]
        name = self._concept_name(head, label)
        if not forced:
            name = _prefer_coined_acronym(
                name, label, group, self.ev.surface_count, self.ev.acronym_surfaces
            )
        # plain dicts, not Counters: a concept is made 30,000 times at 3,218 papers
        aliases: dict[str, int] = {}
        reasons: dict[str, list[str]] = {}
        for node in group:
            for surface, n in self.ev.surface_count[node].items():
                aliases[surface] = aliases.get(surface, 0) + n
                if surface == name:
                    continue
                reason = self._alias_reason(node, surface, head, name, label)
                known = reasons.setdefault(surface, [])
                if reason not in known:
                    known.append(reason)
        return Concept(
            id=concept_node_id(ENTITY_LABELS.get(label, label), key),
            label=ENTITY_LABELS.get(label, label),
            key=key,
            name=name,
            aliases=dict(sorted(aliases.items(), key=itemgetter(1), reverse=True)),  # most_common
            merge_reasons={s: "; ".join(r) for s, r in reasons.items()},
        )

    def _head_node(self, group: list[Node]) -> Node:
        """The node whose key the concept takes: not an acronym, not a form that uses
        one, the most used (long forms count their definitions), hyphenated, short."""
        if len(group) == 1:
            return group[0]  # most concepts: one node, nothing to weigh
        long_surface = self.ev.long_surface
        weight = Counter(
            {n: self.ev.node_count[n] + sum(long_surface[n[1]].values()) for n in group}
        )
        uses_acronym = self.uses_acronym
        return max(
            group,
            key=lambda n: (
                not _is_acronym_key(
                    n, self.ev.surface_count, self.ev.acronym_surfaces, self.ev.expanded_surfaces
                ),
                n not in uses_acronym and weight[n] > 0,
                weight[n],
                "-" in n[1],
                -len(n[1]),
                n[1],
            ),
        )

    def _concept_name(self, head: Node, label: str) -> str:
        """The name: the name an alias file forces, else the most frequent readable form
        of the head key (acronyms last)."""
        surface_count, acronym_surfaces = self.ev.surface_count, self.ev.acronym_surfaces
        names: dict[str, int] = {}
        for surface, n in surface_count[head].items():
            if surface not in acronym_surfaces:
                shown = display_name(surface, label)
                names[shown] = names.get(shown, 0) + n
        for surface, n in self.ev.long_surface[head[1]].items():
            shown = display_name(surface, label)
            names[shown] = names.get(shown, 0) + n
        if head in self.forced_names:
            return self.forced_names[head]
        if names:
            return max(names, key=lambda s: (names[s], s.islower(), s))
        return display_name(max(surface_count[head], key=surface_count[head].__getitem__), label)

    def _alias_reason(self, node: Node, surface: str, head: Node, name: str, label: str) -> str:
        """Why ``surface`` (a form of ``node``) is an alias of the concept named ``name``."""
        node_reason = self.groups.reason
        papers = self.ev.defined_in.get((node, surface))
        spelled = self.ev.initials_in.get((node, surface))
        if papers:
            reason = f"acronym defined in paper {papers[0]}"
            if len(papers) > 1:
                reason += f" (and {len(papers) - 1} more)"
        elif spelled:
            reason = f"initials of '{name}' in paper {spelled[0]}"
            if len(spelled) > 1:
                reason += f" (and {len(spelled) - 1} more)"
        elif (node, surface) in self.ev.expanded_surfaces or (
            node != head and (node, surface) in self.ev.joined_expansions
        ):
            shorts, papers = self.ev.expansion_sources[(node, surface)]
            reason = (
                f"{' and '.join(repr(s) for s in shorts)} spelled out as defined "
                f"in paper {papers[0]}"
            )
            if len(papers) > 1:
                reason += f" (and {len(papers) - 1} more)"
            if node != head and not node_reason.get(node, "").startswith("acronym spell"):
                reason += f"; {node_reason.get(node) or f'merged with {name!r}'}"
        elif node == head:
            reason = _same_key_reason(surface, name, label)
        elif compact_key(node[1]) == compact_key(head[1]):
            reason = f"spelling variant of '{name}'"
        else:
            reason = node_reason.get(node) or f"merged with '{name}'"
        return reason


def _prefer_coined_acronym(name, label, group, surface_count, acronym_surfaces) -> str:
    """A paper's coined name beats a plain description of it as the concept's name.

    "selective KD (SelKD)" and "lightweight ΔΔG predictor (Light-DDG)" are known by
    their short forms; "Rotary Positional Encodings (RoPE)" keeps its title-case long
    form and "graph neural network (GNN)" its long form. A coined name used less
    often than the description does not: one paper's "Self-SL" does not rename the
    corpus's "self-supervised learning".
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
    return best if coined[best] >= described else name


def _is_short_key(key: str, short_surface: dict[str, Counter[str]]) -> bool:
    return key in short_surface or len(compact_key(key)) < 6


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
