"""Decisions made once per (paper, concept) with the whole corpus as evidence.

:func:`~paperkg.extract.corpus.contributions.mark_contributions` decides which of a
paper's concepts it proposes, with a small model trained on annotated abstracts.
"""

from .contributions import mark_contributions

__all__ = ["mark_contributions"]
