"""Lay out the gold corpora as training files: what trains, what selects, what scores.

Why a module of its own: a model must train, choose checkpoints and score on
the very same parts of each corpus in every run, or its scores would not
compare. Reading goes through :mod:`paperkg.extract.evaluate` (its readers and splits), and
:mod:`.convert` tokenises the gold documents into ``DocBin`` files.

Data layout expected (the layout of the public releases):

- SciERC: a folder with ``train.json`` and ``dev.json`` (DyGIE JSON lines).
- SciER: a folder with ``train.jsonl`` and ``dev.plm.jsonl`` (else ``dev.jsonl``).
- TDMSci: ``train_1500_v2.conll`` or its folder. Its last 20% of sentences are
  held out for evaluation and never trained on.
- SciREX: ``train.jsonl`` or its folder.
- In-domain annotations (``annotated``): gold documents by split, as
  :func:`~paperkg.extract.evaluate.annotations.read_annotations` reads
  paperkg's own (``bench/judged/annotations``): ``train`` is trained on,
  ``select`` chooses the epoch, ``test`` is only scored, after the choice.

Any corpus may be left out; your own annotations in one of these formats train
the same way.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import spacy
from spacy.tokens import Doc

from ...errors import ExtractionError
from ..evaluate import GoldDoc, read_gold, split_for_selection, split_tdmsci
from .convert import gold_to_docs, metric_terms, predicted_spans, write_docbin

logger = logging.getLogger(__name__)

__all__ = ["prepare_corpora"]


def prepare_corpora(
    output_dir: str | Path,
    *,
    scierc: str | Path | None = None,
    scier: str | Path | None = None,
    tdmsci: str | Path | None = None,
    scierc_repeat: int = 1,
    method_model: spacy.Language | None = None,
    scirex: str | Path | None = None,
    selection: bool = False,
    annotated: Mapping[str, list[GoldDoc]] | None = None,
) -> dict:
    """Write ``train.spacy`` and ``dev.spacy`` into ``output_dir``; return what went in.

    SciERC (train and dev) is repeated ``scierc_repeat`` times so that its 350
    abstracts weigh about as much as SciER's 5,575 full-text sentences. The dev
    file joins SciERC dev and SciER dev (spaCy keeps the checkpoint that scores
    best on it). Labels a corpus does not annotate are marked *unknown*, not
    "outside": well-known metric words in SciER (no METRIC type), and the
    METHOD spans ``method_model`` predicts in TDMSci (no METHOD type).
    ``scirex`` (SciREX's ``train.jsonl`` or its folder) adds its papers' titles
    and abstracts, after the other corpora (all of them: none is selected on).
    ``selection`` keeps a part of each
    training corpus back (:func:`~paperkg.extract.evaluate.split_for_selection`):
    those parts become the ``*_select`` evaluation sets and ``dev.spacy``, on
    which checkpoints are chosen, so the dev sets stay unseen.
    The returned dict holds the paths, document counts per corpus and the gold
    documents of every evaluation set (``"eval"``: name -> (format, docs)).
    """
    if not (scierc or scier or tdmsci or scirex or annotated):
        raise ExtractionError(
            "no training data given; pass at least one of scierc, scier, tdmsci, scirex, "
            "annotations."
        )
    output_dir = Path(output_dir)
    gathered = _Gathered(tokenizer=spacy.blank("en"), selection=selection)
    if scierc:
        _add_scierc(gathered, Path(scierc), repeat=scierc_repeat)
    if scier:
        _add_scier(gathered, Path(scier))
    if tdmsci:
        _add_tdmsci(gathered, Path(tdmsci), method_model=method_model)
    if scirex:
        _add_scirex(gathered, Path(scirex))
    if annotated:
        _add_annotated(gathered, annotated)
    logger.info("training spans: %s", dict(gathered.stats))
    return {
        "train": write_docbin(gathered.train, output_dir / "train.spacy"),
        "dev": write_docbin(_dev_set(gathered), output_dir / "dev.spacy"),
        "counts": gathered.counts,
        "span_stats": dict(gathered.stats),
        "eval": gathered.evals,
    }


@dataclass
class _Gathered:
    """What :func:`prepare_corpora` collects, one corpus after the other."""

    #: tokenises every gold text (spaCy's blank English)
    tokenizer: spacy.Language
    #: keep a part of each training corpus back to select on
    selection: bool
    #: gold spans kept, widened, dropped or marked unknown (see ``gold_to_docs``)
    stats: Counter = field(default_factory=Counter)
    #: the docs trained on, corpus after corpus, in the order the transformer's markers follow
    train: list[Doc] = field(default_factory=list)
    #: the dev docs spaCy chooses checkpoints on when nothing is kept back
    dev: list[Doc] = field(default_factory=list)
    #: the kept-back parts, which replace ``dev`` when there are any
    select: list[Doc] = field(default_factory=list)
    #: per corpus, how many documents went where (the meta.json's training data)
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    #: every evaluation set: name -> (gold format, gold documents)
    evals: dict[str, tuple[str, list[GoldDoc]]] = field(default_factory=dict)

    def held_back(self, docs: list[GoldDoc], fmt: str) -> list[GoldDoc]:
        """The training part of ``docs``; with ``selection``, the rest goes to selecting."""
        if not self.selection:
            return docs
        docs, chosen = split_for_selection(docs, fmt)
        if chosen:
            self.evals[f"{fmt}_select"] = (fmt, chosen)
            self.select.extend(gold_to_docs(chosen, self.tokenizer))
        return docs


def _find(folder: Path, names: tuple[str, ...], what: str) -> Path:
    if folder.is_file():
        return folder
    for name in names:
        if (folder / name).is_file():
            return folder / name
    raise ExtractionError(
        f"{folder}: no {' or '.join(names)} found; point {what} at the folder of the release."
    )


def _add_scierc(gathered: _Gathered, folder: Path, *, repeat: int) -> None:
    """SciERC train (``repeat`` times over) and dev; its dev set is scored."""
    train_file = _find(folder, ("train.json",), "--scierc")
    docs = gathered.held_back(read_gold(train_file, "scierc"), "scierc")
    dev_docs = read_gold(_find(folder, ("dev.json",), "--scierc"), "scierc")
    gathered.train += gold_to_docs(docs, gathered.tokenizer, stats=gathered.stats) * repeat
    gathered.dev += gold_to_docs(dev_docs, gathered.tokenizer) * repeat
    gathered.counts["scierc"] = {
        "train_docs": len(docs),
        "dev_docs": len(dev_docs),
        "repeated": repeat,
    }
    gathered.evals["scierc_dev"] = ("scierc", dev_docs)


def _add_scier(gathered: _Gathered, folder: Path) -> None:
    """SciER's sentences, its metric words marked unknown (it has no METRIC); dev is scored."""
    train_file = _find(folder, ("train.jsonl",), "--scier")
    docs = gathered.held_back(read_gold(train_file, "scier"), "scier")
    dev_docs = read_gold(_find(folder, ("dev.plm.jsonl", "dev.jsonl"), "--scier"), "scier")
    gathered.train += gold_to_docs(
        docs, gathered.tokenizer, stats=gathered.stats, missing=metric_terms
    )
    gathered.dev += gold_to_docs(dev_docs, gathered.tokenizer)
    gathered.counts["scier"] = {"train_sentences": len(docs), "dev_docs": len(dev_docs)}
    gathered.evals["scier_dev"] = ("scier", dev_docs)


def _add_tdmsci(gathered: _Gathered, path: Path, *, method_model: spacy.Language | None) -> None:
    """TDMSci's first 80%, its METHODs masked by ``method_model``'s predictions (it has
    no METHOD); the last 20% is held out and scored."""
    train_file = _find(path, ("train_1500_v2.conll",), "--tdmsci")
    part, heldout = split_tdmsci(read_gold(train_file, "tdmsci"))
    part = gathered.held_back(part, "tdmsci")
    masks = predicted_spans(method_model, "METHOD") if method_model else None
    gathered.train += gold_to_docs(part, gathered.tokenizer, stats=gathered.stats, missing=masks)
    gathered.counts["tdmsci"] = {"train_sentences": len(part), "heldout_sentences": len(heldout)}
    gathered.evals["tdmsci_heldout"] = ("tdmsci", heldout)


def _add_scirex(gathered: _Gathered, folder: Path) -> None:
    """SciREX's titles and abstracts, all trained on: it has no style users get."""
    docs = read_gold(_find(folder, ("train.jsonl",), "--scirex"), "scirex")
    gathered.train += gold_to_docs(docs, gathered.tokenizer, stats=gathered.stats)
    gathered.counts["scirex"] = {"train_docs": len(docs)}


def _add_annotated(gathered: _Gathered, splits: Mapping[str, list[GoldDoc]]) -> None:
    """In-domain annotations, last: ``train`` trained on; ``select`` chooses the epoch
    (kept back from training whatever ``selection`` says: it was annotated for that);
    ``test`` held out and scored once, after the choice."""
    train, select, test = (list(splits.get(name, [])) for name in ("train", "select", "test"))
    gathered.train += gold_to_docs(train, gathered.tokenizer, stats=gathered.stats)
    if select:
        gathered.evals["annotated_select"] = (None, select)
        gathered.select.extend(gold_to_docs(select, gathered.tokenizer))
    if test:
        gathered.evals["annotated_test"] = (None, test)
    gathered.counts["annotated"] = {
        "train_docs": len(train),
        "select_docs": len(select),
        "test_docs": len(test),
    }


def _dev_set(gathered: _Gathered) -> list[Doc]:
    """What ``dev.spacy`` holds: the kept-back parts when there are any, else the dev
    sets, else (TDMSci alone) its held-out part, the only dev set there is."""
    if gathered.select:
        for name, counts in gathered.counts.items():
            if f"{name}_select" in gathered.evals:
                counts["select_docs"] = len(gathered.evals[f"{name}_select"][1])
        return gathered.select
    if gathered.dev:
        return gathered.dev
    return gold_to_docs(gathered.evals["tdmsci_heldout"][1], gathered.tokenizer)
