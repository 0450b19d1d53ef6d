"""The merging steps that join acronyms to what they stand for, across papers.

Reading a paper already puts an acronym the paper defines on its long form's node
(:mod:`.evidence`). These steps decide what one paper cannot: two long forms one
paper gives one acronym, a name using an acronym ("dedicated WSD models") and its
spelled-out form, two spellings of one acronym's long form across papers, and a
bare acronym and the long form the corpus agrees on
(:mod:`.acronym_votes` counts the votes). Each is a function of one
:class:`~.state.MergeState`, run in the order of :data:`.resolver.STEPS`.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Iterable

from .acronym_votes import agreed_long_form, expand_acronyms, majority_long_form
from .groups import Node
from .keys import canonical_key, clean_surface, is_acronym
from .state import MergeState

__all__ = [
    "link_corpus_acronyms",
    "link_corpus_spelled_out",
    "link_long_form_spellings",
    "link_paper_long_forms",
    "link_spelled_out_acronyms",
]

logger = logging.getLogger(__name__)


def link_paper_long_forms(state: MergeState) -> None:
    """Two long forms one paper gives one acronym ("separated convolutional network
    (S3D)" and "Separated 3D (S3D)") name one thing, in each label they have."""
    ev = state.evidence
    labels = sorted({label for label, _ in ev.node_count})
    for short, long, other, paper_id in ev.paper_links:
        for label in labels:
            a, b = (label, canonical_key(other, label)), (label, canonical_key(long, label))
            if a[1] and b[1] and a != b and a in ev.node_count and b in ev.node_count:
                state.groups.union(a, b, f"another long form of '{short}' in paper {paper_id}")


def link_spelled_out_acronyms(state: MergeState) -> None:
    """A name using an acronym ("dedicated WSD models") joins its spelled-out form
    ("dedicated word sense disambiguation models") when the corpus agrees on
    what the acronym stands for: the paper's long form holds a clear majority
    of the acronym's definitions."""
    ev, groups = state.evidence, state.groups
    for node, surface, long_key, used in ev.expansions:
        agreed = all(
            (majority := majority_long_form(ev.definitions.get(short_key, {})))
            and majority[0] == long
            for short_key, long in used
        )
        if agreed:
            target = (node[0], long_key)
            groups.add(target)
            state.expansion_targets.add(target)
            groups.union(node, target, f"acronym spelled out: {long_key!r}")
            if groups.find(node) == groups.find(target):
                state.joined_expansions.add((node, surface))


def link_corpus_spelled_out(state: MergeState) -> None:
    """A name using an acronym its paper does not define ("model-based RL",
    "proximal SGD") joins its spelled-out form ("model-based reinforcement learning")
    when the corpus agrees on what the acronym stands for (:func:`agreed_long_form`,
    voted by the papers where it has the name's label) and some paper names the
    spelled-out form with the same label.

    Field acronyms go undefined in most papers that use them, so without this a
    map shows "robust RL" beside "robust reinforcement learning". Requiring the
    spelled-out name to be in the corpus keeps a rare reading from making a new
    concept. A paper's own definition wins (:func:`link_spelled_out_acronyms` has
    decided those names), and a hyphenated word ("RL-based") is left as written.
    """
    ev, groups = state.evidence, state.groups
    spelled: dict[tuple[str, str], tuple[str, str] | None] = {}  # (label, acronym) -> ...

    def spelled_out(label: str, word: str) -> tuple[str, str] | None:
        """(long form, why) of an acronym the corpus agrees on, else None."""
        if (label, word) not in spelled:
            key = canonical_key(word, "")
            votes = ev.labelled_definitions.get((label, key)) or ev.definitions.get(key)
            agreed = agreed_long_form(word, votes) if votes else None
            if agreed is not None:
                long_key, n, total = agreed
                long = ev.long_surface[long_key].most_common(1)[0][0]
                agreed = (long, f"'{word}' -> '{long}' ({n} of {total} definitions)")
            spelled[(label, word)] = agreed
        return spelled[(label, word)]

    for node, surfaces in ev.surface_count.items():
        label, key = node
        for surface in sorted(surfaces):
            words = clean_surface(surface).split(" ")
            if len(words) < 2 or (node, surface) in ev.expansion_sources:
                continue
            defined = {}
            for word in words:
                if is_acronym(word) and (found := spelled_out(label, word)):
                    defined[word] = found
            if not defined:  # most names: no acronym the corpus agrees on
                continue
            expanded = expand_acronyms({w: long for w, (long, _) in defined.items()}, surface)
            if expanded is None:
                continue
            target = (label, canonical_key(expanded[0], label))
            if target[1] and target != node and ev.node_count.get(target):
                why = "; ".join(defined[w][1] for w in expanded[1])
                groups.union(node, target, f"corpus acronym spelled out in '{surface}': {why}")
                if groups.find(node) == groups.find(target):
                    state.field_acronym_users.add(node)
                break


def link_long_form_spellings(state: MergeState) -> None:
    """Two long forms papers give one acronym that spell one name word by word
    ("low-rank adapter" / "low-rank adaptation" for LoRA, "maximum likelihood
    estimation" / "… estimator" for MLE) are one concept: the shared acronym and
    the shared words are two signs that agree. Joined, they let the corpus agree on
    what a bare "LoRA" is (:func:`link_corpus_acronyms` counts votes per group).
    The steps that spell out acronyms inside names still count each long form apart.
    """
    ev, groups = state.evidence, state.groups
    labels = sorted({label for label, _ in ev.node_count})
    for short_key, long_keys in ev.definitions.items():
        if len(long_keys) < 2:
            continue  # most acronyms: one long form
        short = ev.short_surface[short_key].most_common(1)[0][0]
        written = [ev.long_surface[k].most_common(1)[0][0] for k in long_keys]
        for label in labels:
            # the key as a node of this label, which may drop a word of the label
            # ("low-rank adaptation method" is *low-rank adaptation* as a Method)
            nodes = {(label, canonical_key(long, label)) for long in written}
            keys = [node[1] for node in nodes if ev.node_count[node]]
            for a, b in _pairs_spelling_one_name(keys):
                pair = sorted([(label, a), (label, b)], key=lambda n: (-ev.node_count[n], n[1]))
                groups.union(pair[1], pair[0], f"another spelling of '{short}'")


def _pairs_spelling_one_name(long_keys: Iterable[str]) -> list[tuple[str, str]]:
    """The pairs of keys that spell the same words (:func:`same_words_spelled_apart`),
    compared only within keys of the same words' first four letters, since two forms
    of one word share a stem of at least four."""
    buckets: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for key in sorted(long_keys):
        buckets[tuple(word[:4] for word in _words(key))].append(key)
    return [
        (a, b)
        for keys in buckets.values()
        for i, a in enumerate(keys)
        for b in keys[i + 1 :]
        if same_words_spelled_apart(a, b)
    ]


def _words(key: str) -> list[str]:
    return key.replace("-", " ").split()


def same_words_spelled_apart(a: str, b: str) -> bool:
    """Two names of the same words, each pair equal or two forms of one word: one
    stem of four letters or more with two endings of :data:`WORD_ENDINGS`
    ("adapter" / "adaptation", "follow" / "following", "local" / "locally").
    A word that merely starts another is another word ("general" / "generalized",
    "graph" / "graphical", "fast" / "faster"), and so are "maximal" and "maximum".
    A process and its agent pass ("generation" / "generator"): the two long forms
    of one acronym in one label name one thing.

    >>> same_words_spelled_apart("low-rank adapter", "low rank adaptation")
    True
    >>> same_words_spelled_apart("maximal independent set", "maximum independent set")
    False
    """
    words_a, words_b = _words(a), _words(b)
    return (
        a != b
        and len(words_a) == len(words_b) >= 2
        and all(_two_forms_of_one_word(x, y) for x, y in zip(words_a, words_b, strict=True))
    )


#: endings that make another form of one stem: an agent or an act ("adapt-er",
#: "adapt-ation", "estimat-or", "estimat-e"), a process ("follow-ing"), an adjective
#: or an adverb ("position-al", "local-ly"), an ordinal ("zero-th")
WORD_ENDINGS = ("", "e", "er", "or", "ion", "ation", "ing", "al", "ly", "th")


def _two_forms_of_one_word(x: str, y: str) -> bool:
    """Whether ``x`` and ``y`` are one stem of four letters or more with two endings
    of :data:`WORD_ENDINGS`; not a bare word and its "-er" ("fast", "faster")."""
    if x == y:
        return True
    for end_x in WORD_ENDINGS:
        for end_y in WORD_ENDINGS:
            stem = x[: len(x) - len(end_x)]
            if (
                {end_x, end_y} != {"", "er"}
                and x.endswith(end_x)
                and y.endswith(end_y)
                and len(stem) >= 4
                and stem == y[: len(y) - len(end_y)]
            ):
                return True
    return False


def link_corpus_acronyms(state: MergeState) -> None:
    """A bare acronym joins the long form the corpus agrees on, or is reported.

    The papers where the acronym (or its long form) has the bare mention's label
    vote; when there are none, every defining paper does. So a METRIC "MAE" can
    follow "mean absolute error" while most papers define MAE as a method. It
    runs last, since the vote must see every group formed.

    Only a node some mention writes as an acronym joins ("GNNs", "GNN models"):
    "mixture", "space" or "Fast" share a key with a paper's MixTURE, SPACE or FAST,
    but name no acronym.
    """
    ev, groups = state.evidence, state.groups
    for node in list(groups.parent):
        label, key = node
        if key not in ev.definitions or not any(
            word in ev.acronym_surfaces or is_acronym(word)
            for surface in ev.surface_count.get(node, ())
            for word in clean_surface(surface).split(" ")
        ):
            continue
        definitions = ev.labelled_definitions.get(node) or ev.definitions[key]
        votes: Counter[Node] = Counter()
        for long_key, n in definitions.items():
            groups.add((label, long_key))
            votes[groups.find((label, long_key))] += n
        short = ev.short_surface[key].most_common(1)[0][0]
        majority = agreed_long_form(short, votes)
        if majority is None:
            state.ambiguous[short] = sorted(
                {ev.long_surface[k].most_common(1)[0][0] for k in definitions},
                key=str.lower,
            )
            logger.info("acronym %r left apart: %s", short, state.ambiguous[short])
            continue
        best_root, best, total = majority
        long_key = max(
            (k for k in definitions if groups.find((label, k)) == best_root),
            key=lambda k: definitions[k],
        )
        long_name = ev.long_surface[long_key].most_common(1)[0][0]
        groups.union(
            node,
            (label, long_key),
            f"corpus acronym: '{short}' -> '{long_name}' ({best} of {total} definitions)",
        )
