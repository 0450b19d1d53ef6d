"""What the corpus says about its mentions, read paper by paper before any merging.

Resolution runs in two phases. First every paper is read once (:func:`read_corpus`):
each mention gets its node (its own key, or its long form's key when the paper
defines it as an acronym), and the counts, surfaces and acronym definitions the
merging steps decide on are gathered into one :class:`Evidence` record. Then the
steps of :mod:`.resolver` read that record; none of them reads a paper again.
Keeping the record apart from the steps lets a reader see in one place every fact
a merge can rest on.

Examples
--------
>>> from paperkg.records import Mention, Paper, PaperMentions
>>> paper = Paper(id="p1", abstract="", text="", source="x")
>>> found = PaperMentions(paper, [
...     Mention("GNNs", "METHOD", 0, 0, "", long_form="graph neural networks"),
...     Mention("our method", "METHOD", 0, 0, "")])
>>> evidence, nodes = read_corpus([found], renamed=set(), never=set())
>>> nodes
[[('METHOD', 'graph neural network'), None]]
>>> evidence.defined_in[(('METHOD', 'graph neural network'), 'GNNs')]
['p1']
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ...records import Mention, PaperMentions
from .acronym_votes import (
    expand_acronyms,
    initials_long_forms,
    long_form_of,
    paper_long_forms,
)
from .groups import Node
from .keys import canonical_key, clean_surface, singular_written

__all__ = ["Evidence", "read_corpus"]


@dataclass
class Evidence:
    """What the corpus says about its mentions, gathered by :func:`read_corpus`
    before any merging step reads it.

    A *node* is ``(label, canonical key)`` (see :mod:`.groups`). Merging steps join
    nodes into groups; this record holds the counts, surfaces and acronym
    definitions they decide on.
    """

    #: mentions per node
    node_count: Counter[Node] = field(default_factory=Counter)
    #: node -> surface form -> mentions written so
    surface_count: dict[Node, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    #: node -> a one-word form with a capital ("CLIP", "Adam") -> papers writing the
    #: node in that form only (its plural aside) and not defining it there: how many
    #: papers know "CLIP" only as "CLIP". Other forms are not kept (memory).
    sole_acronym_papers: dict[Node, Counter[str]] = field(default_factory=dict)
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
    #: (node, surface) pairs on their node because an acronym in the surface was spelled out
    expanded_surfaces: set[tuple[Node, str]] = field(default_factory=set)
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
    #: long key -> the short forms papers define for it -> those papers, so "KD" is an
    #: alias of *knowledge distillation* even where it is written only in
    #: "Knowledge Distillation (KD)"
    acronyms_of: dict[str, dict[str, list[str]]] = field(default_factory=lambda: defaultdict(dict))
    #: short key -> its surfaces in definitions
    short_surface: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    #: long key -> its surfaces in definitions (and in the mentions read as it)
    long_surface: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    #: (paper id, the nodes of its mentions, sorted): a tuple, a fifth of a set's memory
    paper_nodes: list[tuple[str, tuple[Node, ...]]] = field(default_factory=list)


def read_corpus(
    results: list[PaperMentions], *, renamed: set[Node], never: set[frozenset[str]]
) -> tuple[Evidence, list[list[Node | None]]]:
    """The evidence of a corpus, and the node of every mention (None for a generic
    phrase), paper by paper.

    ``renamed`` are the nodes an alias file renames (no acronym rule moves them),
    ``never`` the key pairs it keeps apart (no mention is read as such a long form).
    """
    reader = _Reader(Evidence(), renamed, never)
    nodes = [reader.read_paper(result) for result in results]
    return reader.evidence, nodes


@dataclass
class _Reader:
    """Reads one paper after another into one :class:`Evidence`."""

    evidence: Evidence
    #: nodes an alias file renames: no automatic rule may move them
    renamed: set[Node]
    #: pairs of keys an alias file says must never be one concept
    never: set[frozenset[str]]
    #: one tuple per node, however many mentions have it (millions at 100k papers)
    shared: dict[Node, Node] = field(default_factory=dict)

    def read_paper(self, result: PaperMentions) -> list[Node | None]:
        """A node for every mention of one paper: its own key, or its long form's key
        when the paper defines it as an acronym; None for a generic phrase."""
        long_forms = paper_long_forms(result)
        defined = {short: forms[0] for short, forms in long_forms.items()}
        spelled_out = initials_long_forms(result, defined)
        self._count_definitions(result, long_forms, defined)
        ev = self.evidence
        nodes: list[Node | None] = []
        written: dict[Node, set[str]] = defaultdict(set)
        for mention in result.mentions:
            node = self._mention_node(mention, result.paper.id, defined, spelled_out)
            if node is not None:
                node = self.shared.setdefault(node, node)
                ev.node_count[node] += 1
                ev.surface_count[node][mention.text] += 1
                written[node].add(mention.text)
            nodes.append(node)
        self._count_sole_acronyms(written, defined)
        ev.paper_nodes.append((result.paper.id, tuple(sorted({n for n in nodes if n}))))
        return nodes

    def _count_sole_acronyms(self, written: dict[Node, set[str]], defined: dict[str, str]) -> None:
        """Count the paper under the one form it writes a node in, when that form
        is one word with a capital, it writes the node no other way and does not
        define it here: the papers that take "CLIP" as known."""
        for node, surfaces in written.items():
            forms = {singular_written(s, surfaces) for s in surfaces}
            if len(forms) != 1:
                continue
            (form,) = forms
            if " " not in form and not form.islower() and long_form_of(defined, form) is None:
                self.evidence.sole_acronym_papers.setdefault(node, Counter())[form] += 1

    def _count_definitions(
        self, result: PaperMentions, long_forms: dict[str, list[str]], defined: dict[str, str]
    ) -> None:
        """Count the acronyms one paper defines, for the corpus vote on bare acronyms
        (labelled by the labels either form has in the paper), and remember a second
        long form the paper gives one acronym."""
        ev = self.evidence
        labels_of: dict[str, set[str]] = defaultdict(set)  # key -> labels it has here
        for mention in result.mentions:
            labels_of[canonical_key(mention.text, "")].add(mention.label)
        for short, long in defined.items():
            short_key, long_key = canonical_key(short, ""), canonical_key(long, "")
            if short_key and long_key and short_key != long_key:
                ev.definitions[short_key][long_key] += 1
                for label in labels_of[short_key] | labels_of[long_key]:
                    ev.labelled_definitions[(label, short_key)][long_key] += 1
                ev.short_surface[short_key][short] += 1
                ev.long_surface[long_key][clean_surface(long)] += 1
                ev.acronym_surfaces.add(short)
                # under the long form's key as its concept will have it, which may
                # leave out a word its label makes redundant ("… masking strategy")
                labelled = {
                    canonical_key(long, lb) for lb in labels_of[short_key] | labels_of[long_key]
                }
                for key in sorted(({long_key} | labelled) - {""}):
                    papers = ev.acronyms_of[key].setdefault(clean_surface(short), [])
                    if not papers or papers[-1] != result.paper.id:
                        papers.append(result.paper.id)
            for other in long_forms[short][1:]:
                ev.paper_links.append((short, long, other, result.paper.id))

    def _mention_node(
        self,
        mention: Mention,
        paper_id: str,
        defined: dict[str, str],
        spelled_out: dict[Node, str],
    ) -> Node | None:
        """The node one mention is read as in its paper; None for a generic phrase."""
        key = canonical_key(mention.text, mention.label)
        if not key:
            return None
        node: Node = (mention.label, key)
        if node in self.renamed:
            return node
        long = long_form_of(defined, mention.text) or mention.long_form
        spelled = None
        if long is None:
            long = spelled = spelled_out.get((mention.label, clean_surface(mention.text)))
        if long is not None:
            return self._long_form_node(node, mention.text, long, bool(spelled), paper_id)
        known = defined
        if spelled_out:  # acronyms the paper spells out by initials ("CAS approach")
            known = {s: lf for (lab, s), lf in spelled_out.items() if lab == mention.label}
            known.update(defined)
        return self._spelled_out(node, mention.text, known, paper_id)

    def _long_form_node(
        self, node: Node, surface: str, long: str, by_initials: bool, paper_id: str
    ) -> Node:
        """The node of an acronym its paper defines (or spells out by its initials):
        the long form's, unless the two keys are one or an alias file keeps them apart."""
        label, key = node
        long_key = canonical_key(long, label)
        if not long_key or long_key == key or frozenset((key, long_key)) in self.never:
            return node
        ev = self.evidence
        node = (label, long_key)
        ev.acronym_surfaces.add(surface)
        ev.long_surface[long_key][clean_surface(long)] += 1
        where = ev.initials_in if by_initials else ev.defined_in
        papers = where[(node, surface)]
        if not papers or papers[-1] != paper_id:
            papers.append(paper_id)
        return node

    def _spelled_out(self, node: Node, surface: str, defined: dict[str, str], paper: str) -> Node:
        """The node of a name that uses acronyms its paper defines.

        A name that is the acronym plus a generic word ("ASR system", key "asr")
        is read in its paper as the long form plus that word, like the bare
        acronym. A longer name ("dedicated WSD models") keeps its own node and is
        remembered for the step that links it to its spelled-out form
        (:func:`.acronym_links.link_spelled_out_acronyms`).
        """
        expanded = expand_acronyms(defined, surface)
        if expanded is None:
            return node
        ev = self.evidence
        label, key = node
        long_key = canonical_key(expanded[0], label)
        if not long_key or long_key == key:
            return node
        shorts, papers = ev.expansion_sources.setdefault(
            ((label, long_key), surface), (expanded[1], [])
        )
        if not papers or papers[-1] != paper:
            papers.append(paper)
        if key in {canonical_key(short, "") for short in expanded[1]}:
            ev.expanded_surfaces.add(((label, long_key), surface))
            # the spelled-out form may name the concept ("DP algorithms" -> "differential
            # privacy algorithm"), as a long form names its acronym's concept
            ev.long_surface[long_key][expanded[0]] += 1
            return (label, long_key)
        used = [
            (canonical_key(short, ""), canonical_key(long_form_of(defined, short) or "", ""))
            for short in expanded[1]
        ]
        ev.expansions.append((node, surface, long_key, used))
        ev.expansion_sources[(node, surface)] = ev.expansion_sources[((label, long_key), surface)]
        return node
