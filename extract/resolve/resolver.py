"""One concept, one node: mentions of a corpus resolved to canonical concepts.

:func:`resolve_concepts` maps every mention to a :class:`~paperkg.records.Concept`
in three phases, each in its own module:

1. read the corpus once into an evidence record (:mod:`.evidence`): every
   mention's node, its key or, when its paper defines it as an acronym, its long
   form's key, and the counts and definitions the steps decide on;
2. run the merging :data:`STEPS` in order, each a function of one
   :class:`~.state.MergeState` that joins nodes into groups (:mod:`.groups`):
   the alias file first, since it overrides every automatic choice
   (:mod:`.alias_overrides`); then what papers define (:mod:`.acronym_links`);
   then spellings (:mod:`.spelling_merges`); then name forms
   (:mod:`.name_form_merges`); and last the corpus vote on bare acronyms, which
   must see every group formed;
3. make one concept of each group, with its name and the reason each alias
   joined, so a merge can be audited (:mod:`.concepts`).

Examples
--------
>>> [step.__name__ for step in STEPS][:3]
['apply_alias_file', 'link_paper_long_forms', 'link_spelled_out_acronyms']
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from ...records import PaperMentions, Resolution
from .acronym_links import (
    link_corpus_acronyms,
    link_corpus_spelled_out,
    link_long_form_spellings,
    link_paper_long_forms,
    link_spelled_out_acronyms,
)
from .alias_overrides import alias_rules, apply_alias_file, never_merge_keys, renamed_nodes
from .aliases import AliasFile, load_alias_file
from .concepts import make_concepts
from .evidence import read_corpus
from .groups import Groups
from .name_form_merges import merge_name_variants, merge_paper_name_forms
from .spelling_merges import merge_spelling_variants, merge_typos
from .state import MergeState

__all__ = ["STEPS", "resolve_concepts"]

logger = logging.getLogger(__name__)

#: the merging steps, in the order they run over the evidence: the alias file
#: first, since it overrides every automatic choice; then what papers define, then
#: spellings, then name forms, and last the corpus vote on bare acronyms, which
#: must see every group formed.
STEPS: tuple[Callable[[MergeState], None], ...] = (
    apply_alias_file,
    link_paper_long_forms,
    link_spelled_out_acronyms,
    merge_spelling_variants,
    merge_typos,
    merge_name_variants,
    merge_paper_name_forms,
    link_corpus_spelled_out,
    link_long_form_spellings,
    link_corpus_acronyms,
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
    labels = sorted({m.label for r in results for m in r.mentions})
    never = never_merge_keys(aliases, labels)
    rules = alias_rules(aliases, labels)
    evidence, mention_nodes = read_corpus(results, renamed=renamed_nodes(rules), never=never)
    groups = Groups(never=never)
    for node in evidence.node_count:  # each node a group of its own, in the order first seen
        groups.add(node)
    state = MergeState(evidence, groups, alias_rules=rules)
    for step in STEPS:
        step(state)
    made, concept_id_of = make_concepts(state)

    concept_of = [[concept_id_of[n] if n else None for n in nodes] for nodes in mention_nodes]
    mention_count = sum(evidence.node_count.values())
    dropped = sum(n is None for nodes in mention_nodes for n in nodes)
    concepts = {c.id: c for c in made}
    logger.info(
        "%d mentions collapsed into %d concepts (%d generic mentions dropped)",
        mention_count,
        len(concepts),
        dropped,
    )
    return Resolution(
        concepts=concepts,
        concept_of=concept_of,
        ambiguous_acronyms=state.ambiguous,
        mention_count=mention_count,
    )
