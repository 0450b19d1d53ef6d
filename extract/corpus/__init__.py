"""Corpus-level steps over every paper's mentions, after NLP extraction and before the
graph: the table of the corpus's mentions (:mod:`.mention_table`), terms found again
across the corpus (:mod:`.corpus_terms`), what titles name (:mod:`.titles`), the label
vote (:mod:`.labels`), and the decisions made with the whole corpus as evidence, each by
a small model trained on annotated abstracts:

* :func:`~paperkg.extract.corpus.concept_model.decide_concepts` keeps or leaves out
  each concept and gives it its label
  (:mod:`~paperkg.extract.corpus.concept_features` says what it reads);
* :func:`~paperkg.extract.corpus.contributions.contribution_flags` decides which of a
  paper's concepts it proposes.
"""

from .concept_features import concept_features
from .concept_model import ConceptModel, decide_concepts, load_model

__all__ = [
    "ConceptModel",
    "concept_features",
    "decide_concepts",
    "load_model",
]
