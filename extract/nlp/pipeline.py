"""Load the spaCy pipeline that finds METHOD, DATASET, TASK and METRIC mentions."""

from __future__ import annotations

import logging
from pathlib import Path

import spacy
from spacy.language import Language

from ...errors import ExtractionError
from .components import register_factories
from .model_names import (  # noqa: F401  (the names pipeline users import from here)
    BASE_MODEL,
    DEFAULT_MODEL,
    REMOVED_MODELS,
    SHIPPED_MODELS,
    SHIPPED_TRANSFORMER_DIR,
    resolve_model,
)

log = logging.getLogger(__name__)
register_factories()  # the paperkg_* factories, before any pipeline is loaded

#: factories of components that pipelines saved by an older paperkg hold and this one
#: no longer has (the noun-phrase fallback, which shipped disabled): such components
#: are left out when the pipeline loads (:func:`removed_components`)
REMOVED_FACTORIES = ("paperkg_term_rules",)
#: rule components, in pipeline order, that run after any NER
RULE_COMPONENTS = (
    "paperkg_acronyms",
    "paperkg_dataset_cues",
    "paperkg_proposals",
    "paperkg_repeats",
    "paperkg_mention_shape",
)


def load_pipeline(model: str | Path | None = None) -> Language:
    """The extraction pipeline: a NER for our labels followed by the rule components.

    ``model`` is a shipped pipeline's name ("accurate": the transformer NER,
    the default; its scores are in bench/RESULTS.md), or any spaCy pipeline
    (package name or directory) with a NER for our labels. Without one the default
    shipped pipeline is used, or, if none ships, the stock English pipeline
    with its own NER removed (its labels, ORG/PERSON/…, are not ours) and the
    rules alone, which find only what acronyms, dataset cues and proposals mark.
    Rule components the loaded pipeline lacks are appended, so any NER trained
    on METHOD/DATASET/TASK/METRIC can be swapped in.
    """
    model = resolve_model(model)
    try:
        if model is None:
            nlp = spacy.load(BASE_MODEL, exclude=["ner"])
        else:
            nlp = load_saved(model)
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


def load_saved(model: str | Path) -> Language:
    """``spacy.load(model)``, leaving out the components whose factory this paperkg
    no longer has (:func:`removed_components`), so a pipeline an older paperkg saved
    still loads."""
    return spacy.load(model, exclude=removed_components(model))


def removed_components(model: str | Path) -> list[str]:
    """The components of the saved pipeline ``model`` (a folder) whose factory this
    paperkg no longer has (:data:`REMOVED_FACTORIES`), to leave out as it loads;
    none for a package name, whose config is not read here."""
    config = Path(model) / "config.cfg"
    if not config.is_file():
        return []
    components = spacy.util.load_config(config).get("components", {})
    return [name for name, c in components.items() if c.get("factory") in REMOVED_FACTORIES]
