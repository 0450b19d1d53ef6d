"""Registered spaCy components of paperkg (``nlp.add_pipe("paperkg_...")``).

Importing this package registers the factories; the ``spacy_factories`` entry point
does the same for any spaCy user who has paperkg installed.
"""

from .acronyms import AcronymDetector, find_acronym_definitions
from .dataset_cues import DatasetCues, find_dataset_cues
from .mention_shape import MentionShape
from .proposals import ProposalDetector, find_proposed_spans
from .repeats import RepeatMentions
from .term_rules import TermRules
from .transformer_ner import TransformerNER

__all__ = [
    "AcronymDetector",
    "DatasetCues",
    "MentionShape",
    "ProposalDetector",
    "RepeatMentions",
    "TermRules",
    "TransformerNER",
    "find_acronym_definitions",
    "find_dataset_cues",
    "find_proposed_spans",
]
