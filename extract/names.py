"""Is this written as a name? The name predicates of paperkg, side by side.

A name ("BERT", "CIFAR-10", "EmbedLLM", "Light-DDG") is what makes a phrase a
concept rather than a description, so several stages ask the question; each
asks a slightly different one, and this module says which and why:

* :func:`looks_like_name`: the *shape* of one token (an acronym, CamelCase,
  letters with digits), whatever its position; the spaCy components use it to
  tell names from words.
* :func:`proper_name_token`: a token a generic word may be dropped after
  ("BERT model" -> "BERT"): capitals inside a hyphen part, or digits; never a
  hyphenated adjective ("GNN-based", "Vision-Language"), after which the
  generic word is the name's head.
* :func:`is_coined_name`: mixed case inside the word ("SelKD", "EmbedLLM"): a
  name a paper made up, which beats its description as the concept's name; a
  plain acronym ("GNN") does not.
* :func:`is_coined_model_token`: one untagged token that is a model's name
  ("LLaMA", "GPT-4"), for labelling an acronym's long form by its head word; a
  plain acronym is typed from its definition.
* :func:`title_cased`: a sentence in Title Case (a paper's title), where
  capitals say nothing.
* :func:`mention_is_name`: a whole mention in its sentence, capitals counted
  only where they are not the sentence's or the title's.
"""

from __future__ import annotations

import re

from ..records import Mention

__all__ = [
    "NOT_NAMES",
    "is_coined_model_token",
    "is_coined_name",
    "looks_like_name",
    "mention_is_name",
    "proper_name_token",
    "title_cased",
]

#: a token that looks like a name: an acronym, CamelCase, or letters with digits
_NAME_RE = re.compile(
    r"""^(
        [A-Z][A-Za-z]*[A-Z][A-Za-z0-9]*        # LADS, EmbedLLM, SelKD, ImageNet
      | [A-Za-z]+[-_]?\d[\w.]*                 # CIFAR-10, GPT-3, ResNet-50, T5
      | [A-Z][a-z]+-[A-Z][A-Za-z0-9-]*         # Light-DDG
      | [A-Z]{2,}[\w-]*                        # MS-COCO
    )$""",
    re.VERBOSE,
)
#: a name in lower case up to its first capital: "nuScenes", "mAP" (not "pH", "kHz")
_LOWER_CAMEL_RE = re.compile(r"^[a-z]{1,3}([A-Z][A-Za-z0-9]*)$")
#: one letter, a hyphen and an acronym or a number: "L-CAD", "R-CNN", "β-VAE", "t-SNE"
#: (not the Title-Case words "T-Cell", "Z-Score", "k-Means", nor "U-Net" at a title's start)
_LETTER_ACRONYM_RE = re.compile(r"^[A-Za-zα-ωΑ-Ωϵϕ]-(?:[A-Z][A-Z0-9]|[0-9])[\w.-]*$")


def looks_like_name(text: str) -> bool:
    """True for tokens such as ``LADS``, ``EmbedLLM``, ``CIFAR-10``, ``Light-DDG`` or ``mAP``.

    >>> [looks_like_name(t) for t in ["LADS", "CIFAR-10", "Light-DDG", "nuScenes", "mAP"]]
    [True, True, True, True, True]
    >>> [looks_like_name(t) for t in ["L-CAD", "R-CNN", "β-VAE", "t-SNE", "k-NN"]]
    [True, True, True, True, True]
    >>> [looks_like_name(t) for t in ["method", "The", "e.g.", "pH", "kHz", "softMax"]]
    [False, False, False, False, False, False]
    >>> [looks_like_name(t) for t in ["Z-Score", "T-Cell", "k-Means", "ε-Greedy", "non-MoE"]]
    [False, False, False, False, False]
    """
    if _NAME_RE.match(text):
        return any(c.isalpha() for c in text)
    if _LETTER_ACRONYM_RE.match(text):
        return True
    # after a short lower-case start, two capitals or a word: a unit has neither
    rest = _LOWER_CAMEL_RE.match(text)
    return rest is not None and (
        sum(c.isupper() for c in rest.group(1)) >= 2 or len(rest.group(1)) >= 5
    )


def proper_name_token(token: str) -> bool:
    """A proper name such as BERT, ImageNet or CIFAR-10 (not "GNN-based", "Vision-Language")."""
    parts = token.split("-")
    if parts[-1].isalpha() and parts[-1].islower():
        return False
    if any(any(c.isupper() for c in part[1:]) for part in parts):
        return True
    return any(c.isdigit() for c in token) and any(c.isalpha() for c in token)


def is_coined_name(surface: str) -> bool:
    """A made-up mixed-case name such as "SelKD", "EmbedLLM" or "Light-DDG" (not "GNNs").

    >>> [is_coined_name(s) for s in ["SelKD", "Light-DDG", "GNNs", "GNN", "graph"]]
    [True, True, False, False, False]
    """
    core = surface[:-1] if surface.endswith("s") and surface[:-1].isupper() else surface
    inner = core[1:]
    return any(c.isupper() for c in inner) and any(c.islower() for c in inner)


def is_coined_model_token(text: str) -> bool:
    """ "LLaMA", "GPT-4", "ResNet50"; not a plain acronym ("OOD", "GPUs"), which the
    acronym component types from its definition."""
    letters = text[:-1] if text.endswith("s") else text
    mixed = any(c.islower() for c in letters) and sum(c.isupper() for c in letters) >= 2
    return (
        len(text) > 2
        and (text[0].isupper() or text[0].isdigit())  # not a metric such as "mAP"
        and looks_like_name(text)
        and (mixed or any(c.isdigit() for c in text))
    )


def title_cased(sentence: str) -> bool:
    """A sentence written in Title Case (a paper's title): its capitals say nothing.

    >>> title_cased("Recasting Continual Learning as Sequence Modeling."), title_cased("We use BERT.")
    (True, False)
    """
    words = [w for w in sentence.split() if len(w) > 3 and w[0].isalpha()]
    return len(words) >= 4 and sum(w[0].isupper() for w in words) >= 0.6 * len(words)


#: acronyms that are not names: "SOTA attacks" is no more a name than "attacks"
NOT_NAMES = frozenset({"sota", "soa", "e.g.", "i.e.", "etc"})


def mention_is_name(mention: Mention) -> bool:
    """A mention written as a name: capitals inside, digits, an acronym.

    A capital at the start of a sentence or in a Title-Case title does not
    count, nor a bracketed acronym after the words ("graphs (GraphACL)"), nor "SOTA".
    """
    text = mention.text
    if "(" in text:
        text = re.sub(r"\s*\([^()]*\)", "", text) or text
    tokens = [t for t in text.split() if t.lower() not in NOT_NAMES]
    first_in_sentence = mention.sentence.lstrip().startswith(mention.text)
    for i, token in enumerate(tokens):
        if looks_like_name(token.strip("()[],.;:")):
            return True
        if token[:1].isupper() and not (i == 0 and first_in_sentence):
            # every word of a title is capitalised (asked only here: it reads the sentence)
            if not title_cased(mention.sentence):
                return True
    return False
