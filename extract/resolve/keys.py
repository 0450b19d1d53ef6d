"""Canonical keys: the one string a concept is stored under, whatever its spelling.

:func:`canonical_key` turns one surface form into a key: LaTeX and Unicode
variants cleaned, case folded, leading determiners and generic words ("the",
"our", "proposed") stripped, the head noun made singular, a generic word after a
name dropped. A generic phrase ("our method", "existing approaches") gets the
empty key. Acronyms fold to lowercase like any word; two things sharing an
acronym are told apart by their long forms (see :mod:`.acronym_votes`).

Examples
--------
>>> canonical_key("Graph Neural Networks", "METHOD")
'graph neural network'
>>> canonical_key("GNNs", "METHOD")
'gnn'
>>> canonical_key("the proposed pre‐training", "METHOD")
'pre-training'
>>> canonical_key("CIFAR-100", "DATASET")
'cifar-100'
>>> canonical_key("our method", "METHOD")
''
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection

from ..names import proper_name_token
from .lexicon import (
    DETERMINERS,
    GENERIC_LEADING,
    GENERIC_LEADING_ALWAYS,
    GENERIC_TAILS,
    GENERIC_TAILS_ALWAYS,
    GENERIC_WORDS,
    KIND_TAILS,
    NOVEL_KEEP,
)
from .memo import name_memo

__all__ = [
    "appended_acronym",
    "canonical_key",
    "clean_surface",
    "compact_key",
    "display_name",
    "is_acronym",
    "name_tokens",
    "parenthetical_definition",
    "singular",
    "singular_written",
]

# --------------------------------------------------------------------------- cleaning

_DASHES = re.compile(r"[\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d]")
_QUOTES = {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "``": '"', "''": '"'}
_PTB = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}
_LATEX_WRAPPERS = re.compile(
    r"\\(?:text\w*|math\w*|emph|operatorname|boldsymbol|bm|mbox|hbox)\s*(?=\{)"
)
_LATEX_COMMAND = re.compile(r"\\([A-Za-z]+)\s*")
_SPACED_HYPHEN = re.compile(r"(?<=\w) ?- ?(?=\w)")
#: names a tokenizer split around their digits: "C 3 D", "S 3 Dg", "Pseudo-3 D",
#: "Deeplab-V 2", "YOLO v 2", "Sports 1 M" (one letter and a number, glued back)
_SPLIT_NAME = (
    (re.compile(r"\b([A-Z]) (\d+) ([A-Za-z]{1,2})\b"), r"\1\2\3"),
    (re.compile(r"(?<=-)(\d+) ([A-Za-z])\b"), r"\1\2"),
    (re.compile(r"(?<=-)([A-Za-z]) (\d+)\b"), r"\1\2"),
    (re.compile(r"\b([vV]) (\d+)\b"), r"\1\2"),
    (re.compile(r"\b(\d+) ([DM])\b"), r"\1\2"),
)
_SPACED_DIGIT = re.compile(r"\d |[A-Za-z] \d")
_EDGE_PUNCT = " \t.,;:!?\"'`*-"


@name_memo
def clean_surface(surface: str) -> str:
    """The surface form with markup, Unicode variants and tokenizer spacing undone.

    Case, plurals and words are kept; only how the string is written changes.

    >>> clean_surface("long short - term memory")
    'long short-term memory'
    >>> clean_surface("$\\\\ell_p$ regression")
    'ell_p regression'
    >>> clean_surface("pre–training")
    'pre-training'
    >>> [clean_surface(s) for s in ["C 3 D", "Pseudo-3 D networks", "Sports 1 M", "UCF 101"]]
    ['C3D', 'Pseudo-3D networks', 'Sports 1M', 'UCF 101']
    """
    text = unicodedata.normalize("NFKC", surface)
    for ptb, char in _PTB.items():
        text = text.replace(ptb, char)
    for quote, char in _QUOTES.items():
        text = text.replace(quote, char)
    text = _DASHES.sub("-", text)
    if "\\" in text or "$" in text:
        text = _LATEX_WRAPPERS.sub("", text)
        text = _LATEX_COMMAND.sub(r"\1", text)
        text = text.replace("$", "").replace("{", "").replace("}", "")
    text = " ".join(text.split())
    text = _SPACED_HYPHEN.sub("-", text)
    if _SPACED_DIGIT.search(text):
        for pattern, glued in _SPLIT_NAME:
            text = pattern.sub(glued, text)
    text = text.replace("( ", "(").replace(" )", ")").replace("[ ", "[").replace(" ]", "]")
    text = text.strip(_EDGE_PUNCT)
    # an unmatched bracket at either edge is tokenizer debris
    if text.endswith(")") and "(" not in text:
        text = text[:-1].rstrip(_EDGE_PUNCT)
    if text.startswith("(") and ")" not in text:
        text = text[1:].lstrip(_EDGE_PUNCT)
    if text.endswith("(") and text.count("(") > text.count(")"):
        text = text[:-1].rstrip(_EDGE_PUNCT)
    return text


# --------------------------------------------------------------------------- words


#: nouns whose plural-looking form is already singular or uncountable
_SINGULAR_AS_IS = frozenset(
    """
    data analysis basis bias gas lens news series species means bayes stokes hawkes reynolds physics dynamics robotics
    linguistics economics mathematics statistics graphics kinematics genomics proteomics
    analytics semantics pragmatics optics ethics electronics mechanics thermodynamics
    informatics acoustics phonetics bioinformatics logistics diagnostics aesthetics
    mechanics hydrodynamics cybernetics forensics ergonomics metabolomics
    corpus virus status consensus census focus bonus campus apparatus nexus radius
    calculus stimulus syllabus thesis hypothesis synthesis diagnosis emphasis axis
    process loss class glass mass cross access success boss chaos atlas alias canvas
    crisis prognosis ellipsis paralysis dialysis kurtosis analysis
    """.split()
)

#: irregular plurals (and plurals the suffix rules get wrong)
_IRREGULAR_PLURALS = {
    "analyses": "analysis",
    "bases": "basis",
    "biases": "bias",
    "aliases": "alias",
    "axes": "axis",
    "criteria": "criterion",
    "phenomena": "phenomenon",
    "hypotheses": "hypothesis",
    "theses": "thesis",
    "syntheses": "synthesis",
    "diagnoses": "diagnosis",
    "matrices": "matrix",
    "vertices": "vertex",
    "indices": "index",
    "simplices": "simplex",
    "appendices": "appendix",
    "corpora": "corpus",
    "processes": "process",
    "losses": "loss",
    "classes": "class",
    "children": "child",
    "people": "person",
    "men": "man",
    "women": "woman",
    "mice": "mouse",
    "geese": "goose",
    "feet": "foot",
    "teeth": "tooth",
    "leaves": "leaf",
    "halves": "half",
    "lives": "life",
    "databases": "database",
    "caches": "cache",
    "heuristics": "heuristic",
    "metrics": "metric",
    "topics": "topic",
    "characteristics": "characteristic",
    "movies": "movie",
    "cookies": "cookie",
    "species": "species",
    "series": "series",
}


def singular(word: str) -> str:
    """The singular of one (lowercase) English noun, by suffix rules and exceptions.

    >>> [singular(w) for w in ["networks", "analysis", "biases", "matrices", "data"]]
    ['network', 'analysis', 'bias', 'matrix', 'data']
    >>> [singular(w) for w in ["policies", "patches", "processes", "gaussians", "embeddings"]]
    ['policy', 'patch', 'process', 'gaussian', 'embedding']
    """
    if word in _SINGULAR_AS_IS or len(word) <= 3:
        return word
    if word in _IRREGULAR_PLURALS:
        return _IRREGULAR_PLURALS[word]
    if not word.isalpha():
        return word
    if word.endswith("ics"):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zzes")):
        return word[:-2]
    if word.endswith("oes") and word[:-3] not in {"sh", "can", "t"}:
        return word[:-2]
    if word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("s") and word[-2] != "'":
        return word[:-1]
    return word


#: "GNNs", "ResNets", "LLMs": an uppercase or camel-case name with a plural "s"
_NAME_PLURAL = re.compile(r"^(?=.*[A-Z].*[A-Z]|[A-Z]{2})[A-Za-z]*[A-Za-z][^s\W\d]s$")


@name_memo
def is_acronym(surface: str) -> bool:
    """True when ``surface`` reads as an acronym: one word, mostly capitals.

    >>> [is_acronym(s) for s in ["GNN", "GNNs", "RoPE", "ResNet", "LSTM", "graph"]]
    [True, True, True, False, True, False]
    """
    text = surface.strip()
    if not text or " " in text:
        return False
    letters = [c for c in text if c.isalpha()]
    upper = sum(c.isupper() for c in letters)
    return upper >= 2 and upper * 2 >= len(letters) - (1 if text.endswith("s") else 0)


def _singular_token(token: str) -> str:
    """The singular of a name's last token, keeping its case.

    >>> [_singular_token(t) for t in ["GNNs", "ResNets", "CIFAR-100", "DC-NNs", "Networks"]]
    ['GNN', 'ResNet', 'CIFAR-100', 'DC-NN', 'Network']
    """
    head, sep, last = token.rpartition("-")
    if any(c.isdigit() for c in last):
        return token
    if _NAME_PLURAL.match(last):
        return head + sep + last[:-1]
    if any(c.isupper() for c in last[1:]):
        return token  # a camel-case or all-caps name: no English morphology
    lower = last.lower()
    single = singular(lower)
    if single == lower:
        return token
    # keep the original capitalisation of the part that stays
    return head + sep + last[: len(single)] if lower.startswith(single) else head + sep + single


# --------------------------------------------------------------------------- keys


def name_tokens(surface: str, label: str, changes: list[str] | None = None) -> list[str]:
    """The tokens of a concept's name in their original case: cleaned, determiners and
    generic leading words stripped, the head noun singular; empty for a generic phrase.

    What was changed is appended to ``changes`` when given (for merge reasons).
    """
    changes = [] if changes is None else changes
    text = clean_surface(surface)
    if "(" in text:
        text = _without_definition(text, changes)
    elif " " in text and (text[-1].isupper() or text.endswith("s")):
        appended = appended_acronym(text)
        if appended is not None:
            changes.append(f"acronym '{appended[0]}' after its name dropped")
            text = appended[1]
    tokens = [t for t in text.split(" ") if t]
    stripped_determiner = False
    while tokens:
        low = tokens[0].lower()
        if low in DETERMINERS:
            stripped_determiner = True
        elif low in GENERIC_LEADING_ALWAYS or (low in GENERIC_LEADING and stripped_determiner):
            if len(tokens) > 1 and tokens[1].lower() in NOVEL_KEEP:
                break
        else:
            break
        changes.append(f"'{tokens[0]}' stripped")
        tokens = tokens[1:]
    if not tokens or all(t.lower().strip("()") in GENERIC_WORDS for t in tokens):
        return []
    single = _singular_token(tokens[-1])
    if single != tokens[-1]:
        changes.append("plural")
        tokens[-1] = single
    if len(tokens) >= 2:
        last = tokens[-1].lower()
        if last in GENERIC_TAILS_ALWAYS.get(label, ()):
            changes.append(f"generic '{tokens[-1]}' dropped")
            tokens = tokens[:-1]
        elif last in GENERIC_TAILS.get(label, ()) and proper_name_token(tokens[-2]):
            changes.append(f"'{tokens[-1]}' dropped after a name")
            tokens = tokens[:-1]
        elif len(tokens) >= 3 and last in KIND_TAILS.get(label, ()) and tokens[-1].islower():
            # "random fragment masking strategy" is "random fragment masking"
            changes.append(f"generic '{tokens[-1]}' dropped")
            tokens = tokens[:-1]
    return tokens


_ACRONYM_IN_PARENS = re.compile(r"(?<=\S)\s+\(([^()\s]+)\)")


def _without_definition(text: str, changes: list[str]) -> str:
    """The name without an acronym definition inside it.

    >>> _without_definition("convolutional neural networks (CNNs)", [])
    'convolutional neural networks'
    >>> _without_definition("KDS (Knowledge Delivery System)", [])
    'Knowledge Delivery System'
    >>> _without_definition("anisotropic Gaussian MRF (AGMRF) model", [])
    'anisotropic Gaussian MRF model'
    """
    definition = parenthetical_definition(text)
    if definition is not None:
        changes.append(f"acronym '{definition[0]}' defined inside")
        return definition[1]

    def drop(match: re.Match[str]) -> str:
        if is_acronym(match.group(1)):
            changes.append(f"'({match.group(1)})' dropped")
            return ""
        return match.group(0)

    return _ACRONYM_IN_PARENS.sub(drop, text)


@name_memo
def canonical_key(surface: str, label: str) -> str:
    """The canonical key of a mention: the id part of its concept node.

    Cleaned (LaTeX, Unicode dashes and quotes, tokenizer spacing), case folded
    and accents dropped ("naïve" -> "naive"), leading determiners and generic words stripped, the last word singular
    ("GNNs" -> "gnn", "CIFAR-100" untouched), and a generic last word after a
    name dropped ("BERT model" -> "bert"). Acronyms fold to lowercase like any
    word; two things sharing an acronym are told apart by their long forms in
    :func:`resolve_concepts`. Returns ``""`` for a generic phrase such as
    "our method" or "state-of-the-art methods".

    >>> canonical_key("the ImageNet dataset", "DATASET")
    'imagenet'
    >>> canonical_key("Gaussian processes", "METHOD")
    'gaussian process'
    >>> canonical_key("naïve Bayes", "METHOD")
    'naive bayes'
    """
    key = " ".join(name_tokens(surface, label)).casefold()
    if not key.isascii():
        decomposed = unicodedata.normalize("NFKD", key)
        key = unicodedata.normalize(
            "NFKC", "".join(c for c in decomposed if not unicodedata.combining(c))
        )
    return key if any(c.isalnum() for c in key) else ""


@name_memo
def display_name(surface: str, label: str) -> str:
    """The readable name of a surface form: its key's tokens in their original case.

    A title-case name keeps its plural: it is a proper name, not a common noun;
    so does a dataset whose name ends on a capitalised word (a dataset is one
    thing, its name as written).

    >>> display_name("the graph neural networks", "METHOD")
    'graph neural network'
    >>> display_name("Supervised Diffusion Maps", "METHOD")
    'Supervised Diffusion Maps'
    >>> display_name("Cityscapes", "DATASET")
    'Cityscapes'
    """
    tokens = name_tokens(surface, label)
    proper = len(tokens) >= 2 and all(t[:1].isupper() for t in tokens)
    if proper or (label == "DATASET" and tokens and tokens[-1][:1].isupper()):
        original = clean_surface(surface).split()
        if original and original[-1] != tokens[-1] and _singular_token(original[-1]) == tokens[-1]:
            tokens[-1] = original[-1]
    return " ".join(tokens)


def singular_written(surface: str, written: Collection[str]) -> str:
    """``surface`` without its plural "s" when that form is written too: beside
    "LoRA", "LoRAs" is its plural; alone, "IEBins" is a name of its own.

    >>> singular_written("LoRAs", {"LoRA", "LoRAs"}), singular_written("IEBins", {"IEBins"})
    ('LoRA', 'IEBins')
    """
    return surface[:-1] if surface.endswith("s") and surface[:-1] in written else surface


def compact_key(key: str) -> str:
    """The key without separators: "pre-training", "pre training", "pretraining" agree."""
    return _SEPARATORS.sub("", key)


_SEPARATORS = re.compile(r"[\s\-_/.]")


def appended_acronym(text: str) -> tuple[str, str] | None:
    """``(short, long)`` when a name ends with its own acronym, spelled by its capitals.

    >>> appended_acronym("MORphological PArser MORPA")
    ('MORPA', 'MORphological PArser')
    >>> appended_acronym("Deep Q Network DQN")
    ('DQN', 'Deep Q Network')
    >>> appended_acronym("pre-trained BERT GPT") is None
    True
    """
    long, _, short = clean_surface(text).rpartition(" ")
    if long.count(" ") < 1 or not is_acronym(short):
        return None
    capitals = "".join(c for c in long if c.isupper())
    return (short, long) if capitals == "".join(c for c in short if c.isupper()) else None


_PARENTHETICAL = re.compile(r"^(?P<out>[^()]+?)\s+\((?P<in>[^()]+)\)(?P<rest>\s+[^()]*)?$")


def parenthetical_definition(text: str) -> tuple[str, str] | None:
    """``(short, long)`` when a mention holds a definition, "long (SHORT)" or "SHORT (long)".

    >>> parenthetical_definition("convolutional neural networks (CNNs)")
    ('CNNs', 'convolutional neural networks')
    >>> parenthetical_definition("KDS (Knowledge Delivery System)")
    ('KDS', 'Knowledge Delivery System')
    >>> parenthetical_definition("Recurrent Convolutional (3D) Network") is None
    True
    """
    if "(" not in text:
        return None
    match = _PARENTHETICAL.match(clean_surface(text))
    if match is None or match.group("rest"):
        return None
    out, inner = match.group("out").strip(), match.group("in").strip()
    for short, long in ((inner, out), (out, inner)):
        if is_acronym(short) and " " in long and short[0].lower() == long[0].lower():
            return short, long
    return None
