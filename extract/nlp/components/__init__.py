"""Registered spaCy components of paperkg (``nlp.add_pipe("paperkg_...")``).

Importing a component's module registers its factory;
:func:`paperkg.extract.nlp.pipeline.load_pipeline` imports them all, and the
``spacy_factories`` entry point does the same for any spaCy user who has paperkg
installed. This package itself imports nothing until asked, so the word lists in
:mod:`~paperkg.extract.nlp.components.lexicon` come without spaCy.
"""

__all__ = [
    "AcronymDetector",
    "DatasetCues",
    "MentionShape",
    "ProposalDetector",
    "RepeatMentions",
    "TransformerNER",
    "find_acronym_definitions",
    "find_dataset_cues",
    "find_proposed_spans",
]

#: every component module, in pipeline order
FACTORY_MODULES = (
    "transformer_ner",
    "acronyms",
    "dataset_cues",
    "proposals",
    "repeats",
    "mention_shape",
)

_WHERE = {
    "AcronymDetector": "acronyms",
    "find_acronym_definitions": "acronyms",
    "DatasetCues": "dataset_cues",
    "find_dataset_cues": "dataset_cues",
    "MentionShape": "mention_shape",
    "ProposalDetector": "proposals",
    "find_proposed_spans": "proposals",
    "RepeatMentions": "repeats",
    "TransformerNER": "transformer_ner",
}


def register_factories() -> None:
    """Import every component module, which registers its ``paperkg_*`` factory with spaCy."""
    import importlib

    for module in FACTORY_MODULES:
        importlib.import_module(f".{module}", __name__)


def __getattr__(name: str):
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
