"""Decisions made once per concept with the whole corpus as evidence.

:func:`~paperkg.extract.corpus.concept_model.decide_concepts` keeps or leaves out
each concept and gives it its label, with a small model trained on annotated
abstracts (:mod:`~paperkg.extract.corpus.concept_features` says what it reads).
"""

from .concept_features import concept_features
from .concept_model import ConceptModel, decide_concepts, load_model

__all__ = ["ConceptModel", "concept_features", "decide_concepts", "load_model"]
