"""The training data of the transformer NER: labelled windows of word pieces, in batches.

Why a module of its own: how the DocBin corpus becomes windows (the
component's own windowing, so training sees what prediction sees), which
corpus style marker each document carries, which windows the second stage
keeps and how windows of like length are batched are the data side of
training; :mod:`.transformer_epochs` only consumes the batches.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import spacy
from spacy.tokens import DocBin

from ...errors import ExtractionError
from ..nlp.components.transformer_ner import TransformerNER
from .transformer_model import TAGS

__all__ = [
    "collate",
    "corpus_markers",
    "corpus_sizes",
    "length_batches",
    "second_stage_items",
    "training_items",
]


def corpus_markers(counts: dict, ner: TransformerNER) -> list[int]:
    """The marker piece of each training document's corpus, in the corpus's order.

    :func:`~paperkg.extract.training.corpora.prepare_corpora` writes SciERC's
    abstracts (``repeated`` times), then SciER's sentences, then TDMSci's; the
    pieces are the styles the component loaded from its model folder.
    """
    return [ner._styles[name][0] for name, n in corpus_sizes(counts).items() for _ in range(n)]


def corpus_sizes(counts: dict) -> dict[str, int]:
    """Training documents per corpus, in the order of the training corpus."""
    return {
        "scierc": counts.get("scierc", {}).get("train_docs", 0)
        * counts.get("scierc", {}).get("repeated", 1),
        "scier": counts.get("scier", {}).get("train_sentences", 0),
        "tdmsci": counts.get("tdmsci", {}).get("train_sentences", 0),
        "scirex": counts.get("scirex", {}).get("train_docs", 0),
        "annotated": counts.get("annotated", {}).get("train_docs", 0),
    }


def training_items(
    path: Path, nlp: spacy.Language, ner: TransformerNER, markers: list[int] | None = None
) -> list[tuple]:
    """(piece ids, piece labels, doc index) per window.

    A word's later pieces and unknown words get the label -100 (no loss).
    ``markers``: per document, the piece that replaces the component's style
    marker after the opening piece (the component must have one), so each corpus is
    learnt in its own style.
    """
    tag_ids = {t: i for i, t in enumerate(TAGS)}
    docs = list(DocBin().from_disk(path).get_docs(nlp.vocab))
    if markers is not None and len(ner._prefix_ids) != 1:
        raise ExtractionError("corpus markers need a component with one style marker (a bug).")
    if markers is not None and len(markers) != len(docs):
        raise ExtractionError(
            f"{path}: {len(docs)} documents but {len(markers)} corpus markers; "
            "prepare_corpora and corpus_markers disagree on the corpora's order (a bug)."
        )
    items = []
    for doc_index, doc in enumerate(docs):
        for window in ner.windows(doc):
            if markers is not None:
                window.piece_ids[1] = markers[doc_index]
            labels = np.full(len(window.piece_ids), -100, dtype=np.int64)
            for token_index, position in window.words:
                token = doc[token_index]
                if token.ent_iob_ == "O":
                    labels[position] = tag_ids["O"]
                elif token.ent_iob_ in ("B", "I"):
                    labels[position] = tag_ids[f"{token.ent_iob_}-{token.ent_type_}"]
            items.append((np.asarray(window.piece_ids, dtype=np.int64), labels, doc_index))
    return items


def second_stage_items(
    items: list[tuple],
    scierc_docs: int,
    scierc_repeat: int,
    others_share: float,
    in_domain_from: int | None = None,
) -> list[tuple]:
    """One copy of SciERC's windows and of the in-domain annotations', and
    ``others_share`` as many again from the other corpora.

    SciERC's documents come first in the training corpus, ``scierc_repeat``
    times over, and the annotated ones last, from document ``in_domain_from`` on
    (:func:`~paperkg.extract.training.corpora.prepare_corpora`).
    """
    first_in_domain = in_domain_from if in_domain_from is not None else float("inf")
    kept = [item for item in items if item[2] < scierc_docs or item[2] >= first_in_domain]
    others = [item for item in items if scierc_docs * scierc_repeat <= item[2] < first_in_domain]
    n_others = min(len(others), round(others_share * len(kept)))
    return kept + random.sample(others, n_others)


def length_batches(items: list[tuple], batch_size: int) -> list[list[tuple]]:
    """Shuffled batches of windows of similar length.

    SciERC abstracts (about 250 pieces) and SciER sentences (about 40) padded
    into one batch would spend most of the compute on padding: shuffle, sort
    each run of 50 batches by length, cut it into batches, shuffle the batches.
    """
    order = list(range(len(items)))
    random.shuffle(order)
    run = 50 * batch_size
    batches = []
    for start in range(0, len(order), run):
        chunk = sorted(order[start : start + run], key=lambda k: len(items[k][0]))
        batches += [chunk[i : i + batch_size] for i in range(0, len(chunk), batch_size)]
    random.shuffle(batches)
    return [[items[k] for k in batch] for batch in batches]


def collate(batch: list[tuple], pad_id: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A batch of windows as padded arrays: piece ids, attention mask and labels (-100,
    no loss, on the padding)."""
    width = max(len(item[0]) for item in batch)
    ids = np.full((len(batch), width), pad_id, dtype=np.int64)
    mask = np.zeros((len(batch), width), dtype=np.int64)
    labels = np.full((len(batch), width), -100, dtype=np.int64)
    for row, (piece_ids, piece_labels, _) in enumerate(batch):
        ids[row, : len(piece_ids)] = piece_ids
        mask[row, : len(piece_ids)] = 1
        labels[row, : len(piece_labels)] = piece_labels
    return ids, mask, labels
