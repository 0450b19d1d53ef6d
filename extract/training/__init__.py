"""Train paperkg's NER (METHOD, DATASET, TASK, METRIC).

``convert`` turns SciERC / SciER / TDMSci gold files into spaCy ``DocBin``
files; ``corpora`` lays them out as the parts trained, selected and scored on;
``transformer`` fine-tunes the shipped transformer NER; ``meta`` writes a
pipeline's provenance, licences and scores into its meta.
"""

from .convert import gold_to_docs, write_docbin
from .corpora import prepare_corpora

__all__ = ["gold_to_docs", "prepare_corpora", "write_docbin"]
