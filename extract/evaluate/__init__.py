"""Measure extraction against expert annotations (SciERC, SciER, TDMSci, SciREX).

One job, in the order it runs:

* :mod:`.gold`: the plain form every corpus is read into (:class:`GoldDoc`: a
  text with labelled character spans), and :func:`~.gold.detokenize`, which
  joins a tokenised corpus back into the text a user would give;
* :mod:`.readers`: one reader per gold format behind :func:`read_gold`, with
  each corpus's type mapping;
* :mod:`.annotations`: paperkg's own in-domain annotations (ids and offsets into
  the papers of the input files, ``bench/judged/annotations/``), by split
  (:func:`read_annotations`);
* :mod:`.splits`: the parts of a corpus kept back to select checkpoints on
  (:func:`split_for_selection`) or held out (:func:`split_tdmsci`);
* :mod:`.scoring`: exact and lenient precision, recall and F1 (:func:`score`,
  :class:`Report`), on plain span tuples;
* :mod:`.run`: runs a spaCy pipeline over the gold texts and scores the
  mentions that reach the graph (:func:`evaluate`).
"""

from .annotations import read_annotations
from .gold import GoldDoc, GoldSpan
from .readers import read_gold
from .run import evaluate, predict_spans, styled_ner
from .scoring import Report, score
from .splits import split_for_selection, split_tdmsci

__all__ = [
    "GoldDoc",
    "GoldSpan",
    "Report",
    "evaluate",
    "styled_ner",
    "predict_spans",
    "read_annotations",
    "read_gold",
    "score",
    "split_for_selection",
    "split_tdmsci",
]
