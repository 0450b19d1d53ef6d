"""Concept resolution: the corpus's mentions become canonical concepts with aliases.

One stage, no spaCy in it; it runs after extraction, over the whole corpus:

* :mod:`.keys`: a surface form's canonical key (case, plurals, hyphens, LaTeX,
  determiners, generic heads);
* :mod:`.variants`: spelling and word-order variants that name the same thing;
* :mod:`.similarity`: near-duplicate names (fuzzy matching, with guards);
* :mod:`.acronym_votes`: what an acronym stands for, in a paper and by corpus vote;
* :mod:`.aliases`: a user's alias file, which overrides every rule;
* :mod:`.lexicon`: the word lists all of them decide with, and why look-alikes differ;
* :mod:`.evidence`: the corpus read once, before any merging: each mention's node
  and the counts and definitions the steps decide on;
* :mod:`.groups`: the union-find the steps join nodes in, with the reason each joined;
* :mod:`.state`: what the steps share (evidence, groups, what they decide besides);
* the merging steps, one module per kind: :mod:`.alias_overrides` (the alias
  file, first), :mod:`.acronym_links`, :mod:`.spelling_merges`,
  :mod:`.name_form_merges`;
* :mod:`.concepts`: a group becomes a concept, with its name and its aliases' reasons;
* :mod:`.resolver`: reads the corpus, runs the steps in order (its ``STEPS``), and
  writes the :class:`~paperkg.records.Resolution`.
"""

from .keys import canonical_key
from .memo import forget_memoised_names
from .resolver import resolve_concepts

__all__ = ["canonical_key", "forget_memoised_names", "resolve_concepts"]
