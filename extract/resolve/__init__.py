"""Concept resolution: the corpus's mentions become canonical concepts with aliases.

One stage, no spaCy in it; it runs after extraction, over the whole corpus:

* :mod:`.keys`: a surface form's canonical key (case, plurals, hyphens, LaTeX,
  determiners, generic heads);
* :mod:`.variants`: spelling and word-order variants that name the same thing;
* :mod:`.similarity`: near-duplicate names (fuzzy matching, with guards);
* :mod:`.acronym_votes`: what an acronym stands for, in a paper and by corpus vote;
* :mod:`.aliases`: a user's alias file, which overrides every rule;
* :mod:`.lexicon`: the word lists all of them decide with, and why look-alikes differ;
* :mod:`.resolver`: runs them in order (its ``STEPS``) and writes the
  :class:`~paperkg.records.Resolution`.
"""

from .keys import canonical_key
from .resolver import resolve_concepts

__all__ = ["canonical_key", "forget_memoised_names", "resolve_concepts"]


def forget_memoised_names() -> None:
    """Empty the memo caches of the name functions the corpus steps call per mention.

    Each keeps every surface form of the corpus with its key (up to
    :data:`~.keys.NAME_MEMO_SIZE`), which would otherwise stay in memory for the
    rest of the build, through its peak, the graph. Only speed depends on them.
    """
    from .. import corpus_terms
    from . import keys, variants

    for memoised in (
        keys.clean_surface,
        keys.is_acronym,
        keys.canonical_key,
        keys.display_name,
        variants.american_spelling,
        corpus_terms._fold_word,
    ):
        memoised.cache_clear()
