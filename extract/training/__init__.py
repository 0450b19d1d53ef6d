"""Train paperkg's NER (METHOD, DATASET, TASK, METRIC) with spaCy's own training.

``convert`` turns SciERC / SciER / TDMSci gold files into spaCy ``DocBin``
files; ``train`` runs ``spacy train`` on the committed ``config.cfg`` (fixed
seed) and writes a pipeline with provenance, licences and scores in its meta.
"""

from .convert import gold_to_docs, write_docbin
from .train import DEFAULT_CONFIG, prepare_corpora, train_model

__all__ = ["DEFAULT_CONFIG", "gold_to_docs", "prepare_corpora", "train_model", "write_docbin"]
