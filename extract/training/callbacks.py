"""Registered spaCy callbacks used by ``config.cfg`` (imported before training)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import spacy
from spacy.language import Language
from spacy.util import registry

logger = logging.getLogger(__name__)

__all__ = ["make_copy_tok2vec"]


@registry.callbacks("paperkg.copy_tok2vec.v1")
def make_copy_tok2vec(
    source: str, source_component: str, target_component: str
) -> Callable[[Language], Language]:
    """After initialisation, copy a pretrained tok2vec's weights into a component's own tok2vec.

    Used as ``[initialize.after_init]``: the new ``ner`` gets an internal CNN of
    the same shape as ``source``'s ``source_component`` (the English pipeline's
    tok2vec) and starts from its weights, so fine-tuning it leaves the shared
    tok2vec (and the tagger that listens to it) untouched.
    """

    def copy_tok2vec(nlp: Language) -> Language:
        pretrained = spacy.load(source, exclude=[n for n in ("ner", "parser", "senter")])
        weights = pretrained.get_pipe(source_component).model.to_bytes()
        target = nlp.get_pipe(target_component).model.get_ref("tok2vec").layers[0]
        target.from_bytes(weights)
        logger.info(
            "%s: tok2vec initialised from %s/%s", target_component, source, source_component
        )
        return nlp

    return copy_tok2vec
