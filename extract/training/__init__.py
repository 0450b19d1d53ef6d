"""Train paperkg's NER (METHOD, DATASET, TASK, METRIC) with spaCy's own training.

``convert`` turns SciERC / SciER / TDMSci gold files into spaCy ``DocBin``
files; ``corpora`` lays them out as the parts trained, selected and scored on;
``train`` runs ``spacy train`` on the committed ``config.cfg`` (fixed seed) and
``transformer`` fine-tunes the shipped transformer NER; ``meta`` writes a
pipeline's provenance, licences and scores into its meta.
"""

from .convert import gold_to_docs, write_docbin
from .corpora import prepare_corpora
from .train import DEFAULT_CONFIG, train_model

__all__ = ["DEFAULT_CONFIG", "gold_to_docs", "prepare_corpora", "train_model", "write_docbin"]
