"""One concept, one node: canonical keys for mentions and their resolution to concepts.

Two calls:

* :func:`canonical_key` turns one surface form into the key a concept is stored
  under: LaTeX and Unicode variants cleaned, case folded, leading determiners and
  generic words ("the", "our", "proposed") stripped, the head noun made singular.
  A generic phrase ("our method", "existing approaches") gets the empty key.
* :func:`resolve_concepts` maps every mention of a corpus to a :class:`Concept`:
  mentions with equal keys share one, an acronym defined in a paper joins its long
  form, a bare acronym joins the long form the corpus agrees on, spelling variants
  and near-duplicate typos join, and a user alias file overrides all of it. Every
  alias carries the reason it joined, so a merge can be audited.

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

import logging
import re
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..graph.schema import concept_node_id
from ..records import ENTITY_LABELS, Concept, PaperMentions, Resolution
from .aliases import AliasFile, load_alias_file
from .similarity import near_duplicate_pairs

__all__ = [
    "canonical_key",
    "clean_surface",
    "is_acronym",
    "resolve_concepts",
    "singular",
]

logger = logging.getLogger(__name__)

#: share of a bare acronym's corpus definitions its majority long form must hold
ACRONYM_MAJORITY = 0.75

# --------------------------------------------------------------------------- cleaning

_DASHES = re.compile(r"[\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d]")
_QUOTES = {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "``": '"', "''": '"'}
_PTB = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}
_LATEX_WRAPPERS = re.compile(
    r"\\(?:text\w*|math\w*|emph|operatorname|boldsymbol|bm|mbox|hbox)\s*(?=\{)"
)
_LATEX_COMMAND = re.compile(r"\\([A-Za-z]+)\s*")
_SPACED_HYPHEN = re.compile(r"(?<=\w) ?- ?(?=\w)")
_EDGE_PUNCT = " \t.,;:!?\"'`*"


@lru_cache(maxsize=200_000)
def clean_surface(surface: str) -> str:
    """The surface form with markup, Unicode variants and tokenizer spacing undone.

    Case, plurals and words are kept; only how the string is written changes.

    >>> clean_surface("long short - term memory")
    'long short-term memory'
    >>> clean_surface("$\\\\ell_p$ regression")
    'ell_p regression'
    >>> clean_surface("pre–training")
    'pre-training'
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
    text = text.replace("( ", "(").replace(" )", ")").replace("[ ", "[").replace(" ]", "]")
    text = text.strip(_EDGE_PUNCT)
    # an unmatched bracket at either edge is tokenizer debris
    if text.endswith(")") and "(" not in text:
        text = text[:-1].rstrip(_EDGE_PUNCT)
    if text.startswith("(") and ")" not in text:
        text = text[1:].lstrip(_EDGE_PUNCT)
    return text


# --------------------------------------------------------------------------- words

#: leading words that never belong to a concept's name
DETERMINERS = frozenset(
    """
    the a an our their its his her this these those that such each every any some my your
    we us both either several various many most more few all other another
    one two three four five six seven eight nine ten
    """.split()
)

#: words that make up a generic phrase: a mention made only of these (and
#: determiners) says "some method" rather than naming one, and is dropped
GENERIC_WORDS = frozenset(
    """
    method methods model models approach approaches framework frameworks algorithm
    algorithms technique techniques system systems architecture architectures scheme
    schemes strategy strategies procedure procedures pipeline pipelines paradigm paradigms
    solution solutions baseline baselines work works paper papers study studies task
    tasks problem problems dataset datasets data benchmark benchmarks metric metrics
    result results performance module modules mechanism mechanisms network networks
    variant variants version versions setting settings experiment experiments idea ideas
    technology technologies tool tools design designs formulation formulations
    counterpart counterparts alternative alternatives extension extensions one ones
    it they them which what this
    novel proposed new existing previous prior current recent standard traditional
    conventional classical classic popular common typical simple effective efficient
    general generic strong powerful various several other same different similar
    state-of-the-art sota state art of the leading competing competitive original
    well-known widely-used widely used many multiple specific particular corresponding
    related underlying above following aforementioned respective present given
    """.split()
)

#: generic adjectives stripped at the start of a concept name ("a novel X" -> "X")
_GENERIC_LEADING = frozenset({"novel", "proposed", "new"})
#: ... and these wherever the name starts ("existing GNN-based methods")
_GENERIC_LEADING_ALWAYS = frozenset(
    """proposed existing previous recent current state-of-the-art sota popular different
    conventional""".split()
)
#: ... except where they are part of a name ("novel view synthesis")
_NOVEL_KEEP = frozenset(
    "view views class classes object objects category categories concept concepts".split()
)

#: generic last words dropped after a name: "BERT model" -> "BERT", "ImageNet dataset"
GENERIC_TAILS = {
    "METHOD": frozenset(
        """model method algorithm approach framework architecture technique network system
        paradigm toolkit library package""".split()
    ),
    "DATASET": frozenset("dataset data benchmark corpus suite collection set".split()),
    "TASK": frozenset("task problem benchmark challenge".split()),
    "METRIC": frozenset("score metric measure value".split()),
}
#: generic last words dropped after any words: "hashtag recommendation task"
GENERIC_TAILS_ALWAYS = {"TASK": frozenset({"task", "tasks"})}

#: nouns whose plural-looking form is already singular or uncountable
_SINGULAR_AS_IS = frozenset(
    """
    data analysis basis bias gas lens news series species means physics dynamics robotics
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

_VOWELS = set("aeiou")


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


def _name_tokens(surface: str, label: str, changes: list[str] | None = None) -> list[str]:
    """The tokens of a concept's name in their original case: cleaned, determiners and
    generic leading words stripped, the head noun singular; empty for a generic phrase.

    What was changed is appended to ``changes`` when given (for merge reasons).
    """
    changes = [] if changes is None else changes
    text = clean_surface(surface)
    if "(" in text:
        text = _without_definition(text, changes)
    tokens = [t for t in text.split(" ") if t]
    stripped_determiner = False
    while tokens:
        low = tokens[0].lower()
        if low in DETERMINERS:
            stripped_determiner = True
        elif low in _GENERIC_LEADING_ALWAYS or (low in _GENERIC_LEADING and stripped_determiner):
            if len(tokens) > 1 and tokens[1].lower() in _NOVEL_KEEP:
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
    tails = GENERIC_TAILS.get(label, frozenset())
    if len(tokens) >= 2 and (
        tokens[-1].lower() in GENERIC_TAILS_ALWAYS.get(label, ())
        or tokens[-1].lower() in tails
        and _looks_like_name(tokens[-2])
    ):
        changes.append(f"'{tokens[-1]}' dropped after a name")
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
    definition = _parenthetical_definition(text)
    if definition is not None:
        changes.append(f"acronym '{definition[0]}' defined inside")
        return definition[1]

    def drop(match: re.Match[str]) -> str:
        if is_acronym(match.group(1)):
            changes.append(f"'({match.group(1)})' dropped")
            return ""
        return match.group(0)

    return _ACRONYM_IN_PARENS.sub(drop, text)


def _looks_like_name(token: str) -> bool:
    """A proper name such as BERT, ImageNet or CIFAR-10 (not "GNN-based", "Vision-Language")."""
    parts = token.split("-")
    if parts[-1].isalpha() and parts[-1].islower():
        return False
    if any(any(c.isupper() for c in part[1:]) for part in parts):
        return True
    return any(c.isdigit() for c in token) and any(c.isalpha() for c in token)


@lru_cache(maxsize=200_000)
def canonical_key(surface: str, label: str) -> str:
    """The canonical key of a mention: the id part of its concept node.

    Cleaned (LaTeX, Unicode dashes and quotes, tokenizer spacing), case folded,
    leading determiners and generic words stripped, the last word singular
    ("GNNs" -> "gnn", "CIFAR-100" untouched), and a generic last word after a
    name dropped ("BERT model" -> "bert"). Acronyms fold to lowercase like any
    word; two things sharing an acronym are told apart by their long forms in
    :func:`resolve_concepts`. Returns ``""`` for a generic phrase such as
    "our method" or "state-of-the-art methods".

    >>> canonical_key("the ImageNet dataset", "DATASET")
    'imagenet'
    >>> canonical_key("Gaussian processes", "METHOD")
    'gaussian process'
    """
    return " ".join(_name_tokens(surface, label)).casefold()


@lru_cache(maxsize=200_000)
def _display_name(surface: str, label: str) -> str:
    return " ".join(_name_tokens(surface, label))


def _compact(key: str) -> str:
    """The key without separators: "pre-training", "pre training", "pretraining" agree."""
    return _SEPARATORS.sub("", key)


_SEPARATORS = re.compile(r"[\s\-_/.]")


# --------------------------------------------------------------------------- union-find

Node = tuple[str, str]  # (mention label, canonical key)


@dataclass
class _Groups:
    """Union-find over (label, key) nodes that refuses unions the alias file forbids."""

    never: set[frozenset[str]] = field(default_factory=set)
    parent: dict[Node, Node] = field(default_factory=dict)
    keys: dict[Node, set[str]] = field(default_factory=dict)
    #: why a node was joined to its group: node -> reason
    reason: dict[Node, str] = field(default_factory=dict)

    def add(self, node: Node) -> None:
        if node not in self.parent:
            self.parent[node] = node
            self.keys[node] = {node[1]}

    def find(self, node: Node) -> Node:
        root = node
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[node] != root:
            self.parent[node], node = root, self.parent[node]
        return root

    def forbidden(self, a: Node, b: Node) -> bool:
        if not self.never:
            return False
        keys_a, keys_b = self.keys[self.find(a)], self.keys[self.find(b)]
        for pair in self.never:
            if len(pair) != 2:
                continue
            x, y = sorted(pair)
            if (x in keys_a and y in keys_b) or (y in keys_a and x in keys_b):
                return True
        return False

    def union(self, joining: Node, target: Node, reason: str) -> bool:
        """Join ``joining``'s group to ``target``'s; False when refused or already one."""
        self.add(joining)
        self.add(target)
        root_j, root_t = self.find(joining), self.find(target)
        if root_j == root_t or self.forbidden(joining, target):
            return False
        self.parent[root_j] = root_t
        self.keys[root_t] |= self.keys.pop(root_j)
        self.reason.setdefault(joining, reason)
        return True


# --------------------------------------------------------------------------- resolution


def resolve_concepts(
    results: list[PaperMentions], *, alias_file: str | Path | None = None
) -> Resolution:
    """Resolve every mention of a corpus to a canonical concept.

    Parameters
    ----------
    results
        What extraction found, one :class:`PaperMentions` per paper.
    alias_file
        Optional CSV (``alias,canonical[,label]``) or YAML
        (``{aliases: {alias: canonical}, never_merge: [[a, b], ...]}``) file whose
        choices override the automatic ones.

    Returns
    -------
    Resolution
        ``concept_of[i][j]`` is the concept id of ``results[i].mentions[j]``
        (``None`` for a generic phrase), ``concepts`` the concepts by id, each
        with its aliases, their counts and the reason each joined.

    Examples
    --------
    >>> from paperkg.records import Mention, Paper, PaperMentions
    >>> paper = Paper(id="p1", abstract="", text="", source="x")
    >>> found = PaperMentions(paper, [
    ...     Mention("graph neural networks", "METHOD", 0, 0, ""),
    ...     Mention("GNN", "METHOD", 0, 0, "", long_form="graph neural network"),
    ...     Mention("our method", "METHOD", 0, 0, "")])
    >>> res = resolve_concepts([found])
    >>> res.concept_of
    [['Method:graph neural network', 'Method:graph neural network', None]]
    >>> res.concepts["Method:graph neural network"].merge_reasons["GNN"]
    'acronym defined in paper p1'
    """
    aliases = load_alias_file(alias_file) if alias_file is not None else AliasFile()
    labels = sorted({m.label for r in results for m in r.mentions})
    never = {
        frozenset((canonical_key(a, label), canonical_key(b, label)))
        for a, b in aliases.never_merge
        for label in labels
    }
    groups = _Groups(never=never)
    #: (label, alias key, canonical key, canonical name) from the alias file
    alias_rules = [
        (label, canonical_key(alias, label), canonical_key(canonical, label), canonical)
        for alias, canonical, only in aliases.entries
        for label in ([only] if only else labels)
    ]
    alias_rules = [r for r in alias_rules if r[1] and r[2]]
    alias_keys = {
        (label, alias_key) for label, alias_key, key, _ in alias_rules if alias_key != key
    }
    forced_names: dict[Node, str] = {}

    # 1. every mention gets a node: its own key, or its long form's key when the paper
    #    defines it as an acronym
    mention_node: list[list[Node | None]] = []
    node_count: Counter[Node] = Counter()
    surface_count: dict[Node, Counter[str]] = defaultdict(Counter)
    #: (node, surface) -> papers that define the surface as an acronym of the node
    defined_in: dict[tuple[Node, str], list[str]] = defaultdict(list)
    acronym_surfaces: set[str] = set()
    #: short key -> long node key -> papers defining it; and the long forms' surfaces
    definitions: dict[str, Counter[str]] = defaultdict(Counter)
    short_surface: dict[str, Counter[str]] = defaultdict(Counter)
    long_surface: dict[str, Counter[str]] = defaultdict(Counter)

    for result in results:
        defined = _paper_definitions(result)
        for short, long in defined.items():
            short_key, long_key = canonical_key(short, ""), canonical_key(long, "")
            if short_key and long_key and short_key != long_key:
                definitions[short_key][long_key] += 1
                short_surface[short_key][short] += 1
                long_surface[long_key][clean_surface(long)] += 1
                acronym_surfaces.add(short)
        nodes: list[Node | None] = []
        for mention in result.mentions:
            key = canonical_key(mention.text, mention.label)
            if not key:
                nodes.append(None)
                continue
            node: Node = (mention.label, key)
            long = _lookup(defined, mention.text) or mention.long_form
            if long is not None and (mention.label, key) not in alias_keys:
                long_key = canonical_key(long, mention.label)
                if long_key and long_key != key and frozenset((key, long_key)) not in groups.never:
                    node = (mention.label, long_key)
                    acronym_surfaces.add(mention.text)
                    long_surface[long_key][clean_surface(long)] += 1
                    papers = defined_in[(node, mention.text)]
                    if not papers or papers[-1] != result.paper.id:
                        papers.append(result.paper.id)
            groups.add(node)
            node_count[node] += 1
            surface_count[node][mention.text] += 1
            nodes.append(node)
        mention_node.append(nodes)

    # 2. the alias file first: it overrides every automatic choice
    for label, alias_key, target_key, canonical_name in alias_rules:
        alias_node, target = (label, alias_key), (label, target_key)
        if alias_node in groups.parent:
            if alias_node != target:
                groups.union(alias_node, target, "alias file")
            forced_names[target] = _display_name(canonical_name, label)

    # the long forms a bare acronym may join take part in the merges below, so that
    # "brain computer interface" and "brain-computer interface" count as one long form
    for label, key in list(groups.parent):
        for long_key in definitions.get(key, ()):
            groups.add((label, long_key))

    # 3. spelling variants: keys equal once hyphens and spaces are ignored (not
    #    acronyms: "d-PM" is not "DPM")
    by_compact: dict[tuple[str, str], list[Node]] = defaultdict(list)
    for node in groups.parent:
        compact = _compact(node[1])
        if len(compact) >= 5:
            by_compact[(node[0], compact)].append(node)
    for variants in by_compact.values():
        if len(variants) > 1:
            variants.sort(key=lambda n: (-node_count[n], n[1]))
            for other in variants[1:]:
                groups.union(other, variants[0], f"spelling variant of '{variants[0][1]}'")

    # 4. near-duplicates (typos) within a label
    for joining, target, score in near_duplicate_pairs(
        [n for n in groups.parent if not _is_short_key(n[1], short_surface)], node_count
    ):
        groups.union(joining, target, f"fuzzy match {score:.0f} with '{target[1]}'")

    # 5. bare acronyms join the long form the corpus agrees on
    ambiguous: dict[str, list[str]] = {}
    for node in list(groups.parent):
        label, key = node
        if key not in definitions:
            continue
        votes: Counter[Node] = Counter()
        for long_key, n in definitions[key].items():
            groups.add((label, long_key))
            votes[groups.find((label, long_key))] += n
        total = sum(votes.values())
        (best_root, best), *_ = votes.most_common(1)
        short = short_surface[key].most_common(1)[0][0]
        if best / total >= ACRONYM_MAJORITY:
            long_key = max(
                (k for k in definitions[key] if groups.find((label, k)) == best_root),
                key=lambda k: definitions[key][k],
            )
            long_name = long_surface[long_key].most_common(1)[0][0]
            groups.union(
                node,
                (label, long_key),
                f"corpus acronym: '{short}' -> '{long_name}' ({best} of {total} definitions)",
            )
        else:
            forms = sorted(
                {long_surface[k].most_common(1)[0][0] for k in definitions[key]}, key=str.lower
            )
            ambiguous[short] = forms
    for short, forms in ambiguous.items():
        logger.info("acronym %r left apart: %d long forms (%s)", short, len(forms), forms)

    # 6. concepts
    members: dict[Node, list[Node]] = defaultdict(list)
    for node in groups.parent:
        members[groups.find(node)].append(node)
    concept_id_of: dict[Node, str] = {}
    concepts: dict[str, Concept] = {}
    for group in members.values():
        if not any(node_count[n] for n in group):
            continue  # a long form only seen in a definition, never as a mention
        concept = _make_concept(
            group,
            node_count,
            surface_count,
            defined_in,
            groups.reason,
            forced_names,
            long_surface,
            acronym_surfaces,
        )
        concepts[concept.id] = concept
        for node in group:
            concept_id_of[node] = concept.id

    concept_of = [[concept_id_of[n] if n else None for n in nodes] for nodes in mention_node]
    mention_count = sum(node_count.values())
    dropped = sum(n is None for nodes in mention_node for n in nodes)
    logger.info(
        "%d mentions collapsed into %d concepts (%d generic mentions dropped)",
        mention_count,
        len(concepts),
        dropped,
    )
    return Resolution(
        concepts=concepts,
        concept_of=concept_of,
        ambiguous_acronyms=ambiguous,
        mention_count=mention_count,
    )


def _paper_definitions(result: PaperMentions) -> dict[str, str]:
    """Short form -> long form defined in one paper.

    Four sources: the extractor's ``acronyms``, a mention's ``long_form``, a
    mention that holds its own definition ("convolutional neural networks (CNNs)",
    "KDS (Knowledge Delivery System)"), and an acronym mention followed by a
    long-form mention in parentheses ("ULMFit (Universal Language Model
    Fine-tuning)"). When a mention starting with the short form's first letter
    ends right before the definition's "(SHORT)", its span is the long form: the
    NER's boundaries ("fully connected feed-forward network (FFN)") beat the
    acronym matcher's ("feed-forward network").
    """
    defined = dict(result.acronyms)
    for mention in result.mentions:
        if mention.long_form and mention.text not in defined:
            defined[mention.text] = mention.long_form
        inner = _parenthetical_definition(mention.text)
        if inner is not None and inner[0] not in defined:
            defined[inner[0]] = inner[1]
    text = result.paper.text
    if text:
        starts = {m.start: m.text for m in result.mentions if m.start < len(text)}
        for mention in result.mentions:
            if mention.text in defined or not is_acronym(mention.text):
                continue
            opening = _OPENING.match(text, mention.end)
            long = starts.get(opening.end()) if opening else None
            if (
                long
                and " " in long
                and _CLOSING.match(text, opening.end() + len(long))
                and _letters_in_order(mention.text, long)
            ):
                defined[mention.text] = long
    if text and defined:
        ends = {m.end: m.text for m in result.mentions if m.end <= len(text)}
        opened: dict[str, list[int]] = defaultdict(list)  # "(SHORT)" -> where "(" is
        for match in _IN_PARENS.finditer(text):
            opened[match.group(1)].append(match.start())
        for short in list(defined):
            for before in opened.get(short, ()):
                while before > 0 and text[before - 1] == " ":
                    before -= 1
                long = ends.get(before)
                if (
                    long
                    and long != short
                    and _same_start(long, short)
                    and _overlaps(long, defined[short])
                ):
                    defined[short] = long
                    break
    return defined


_OPENING = re.compile(r"\s*\(\s*")
_CLOSING = re.compile(r"\s*\)")


def _letters_in_order(short: str, long: str) -> bool:
    """Schwartz-Hearst: the short form's letters appear in order in the long form,
    the first one starting a word.

    >>> _letters_in_order("ULMFit", "Universal Language Model Fine-tuning")
    True
    >>> _letters_in_order("TD", "Data Augmentation")
    False
    """
    chars = [c.lower() for c in short if c.isalnum()]
    words = long.lower()
    if not chars or not _same_start(long, short):
        return False
    position = 0
    for c in chars:
        position = words.find(c, position)
        if position < 0:
            return False
        position += 1
    return True


_IN_PARENS = re.compile(r"\(\s*([^()]{1,30}?)\s*\)")


def _same_start(long: str, short: str) -> bool:
    """True when ``long`` starts with the first letter of ``short`` (Schwartz-Hearst)."""
    first_long = next((c for c in long if c.isalnum()), "")
    first_short = next((c for c in short if c.isalnum()), "")
    return first_long.lower() == first_short.lower() != ""


def _overlaps(a: str, b: str) -> bool:
    """True when one form contains the other, ignoring case ("person re-identification")."""
    a, b = clean_surface(a).casefold(), clean_surface(b).casefold()
    return bool(a and b) and (a in b or b in a)


_PARENTHETICAL = re.compile(r"^(?P<out>[^()]+?)\s+\((?P<in>[^()]+)\)(?P<rest>\s+[^()]*)?$")


def _parenthetical_definition(text: str) -> tuple[str, str] | None:
    """``(short, long)`` when a mention holds a definition, "long (SHORT)" or "SHORT (long)".

    >>> _parenthetical_definition("convolutional neural networks (CNNs)")
    ('CNNs', 'convolutional neural networks')
    >>> _parenthetical_definition("KDS (Knowledge Delivery System)")
    ('KDS', 'Knowledge Delivery System')
    >>> _parenthetical_definition("Recurrent Convolutional (3D) Network") is None
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


def _lookup(defined: dict[str, str], text: str) -> str | None:
    """The long form a paper defines for ``text``, also for its plural ("GNNs")."""
    if not defined:
        return None
    text = clean_surface(text)
    if text in defined:
        return defined[text]
    if text.endswith("s") and text[:-1] in defined:
        return defined[text[:-1]]
    return None


def _is_short_key(key: str, short_surface: dict[str, Counter[str]]) -> bool:
    return key in short_surface or len(_compact(key)) < 6


def _make_concept(
    group: list[Node],
    node_count: Counter[Node],
    surface_count: dict[Node, Counter[str]],
    defined_in: dict[tuple[Node, str], list[str]],
    node_reason: dict[Node, str],
    forced_names: dict[Node, str],
    long_surface: dict[str, Counter[str]],
    acronym_surfaces: set[str],
) -> Concept:
    label = group[0][0]
    forced = [n for n in group if n in forced_names]
    if forced:
        head = forced[0]
    else:
        weight = Counter({n: node_count[n] + sum(long_surface[n[1]].values()) for n in group})
        head = max(
            group,
            key=lambda n: (
                not _is_acronym_key(n, surface_count, acronym_surfaces),
                weight[n],
                "-" in n[1],
                -len(n[1]),
                n[1],
            ),
        )
    key = head[1]
    # the name: the most frequent readable form of the head key, acronyms last
    names: Counter[str] = Counter()
    for surface, n in surface_count[head].items():
        if surface not in acronym_surfaces:
            names[_display_name(surface, label)] += n
    for surface, n in long_surface[key].items():
        names[_display_name(surface, label)] += n
    if head in forced_names:
        name = forced_names[head]
    elif names:
        name = max(names, key=lambda s: (names[s], s.islower(), s))
    else:
        name = _display_name(max(surface_count[head], key=surface_count[head].__getitem__), label)
    aliases: Counter[str] = Counter()
    reasons: dict[str, list[str]] = defaultdict(list)
    for node in group:
        for surface, n in surface_count[node].items():
            aliases[surface] += n
            if surface == name:
                continue
            papers = defined_in.get((node, surface))
            if papers:
                reason = f"acronym defined in paper {papers[0]}"
                if len(papers) > 1:
                    reason += f" (and {len(papers) - 1} more)"
            elif node == head:
                reason = _same_key_reason(surface, name, label)
            elif _compact(node[1]) == _compact(key):
                reason = f"spelling variant of '{name}'"
            else:
                reason = node_reason.get(node) or f"merged with '{name}'"
            if reason not in reasons[surface]:
                reasons[surface].append(reason)
    return Concept(
        id=concept_node_id(ENTITY_LABELS.get(label, label), key),
        label=ENTITY_LABELS.get(label, label),
        key=key,
        name=name,
        aliases=dict(aliases.most_common()),
        merge_reasons={s: "; ".join(r) for s, r in reasons.items()},
    )


def _is_acronym_key(node: Node, surface_count: dict[Node, Counter[str]], acronyms: set[str]):
    surfaces = surface_count.get(node)
    if not surfaces:
        return False
    return all(s in acronyms or is_acronym(s) for s in surfaces)


def _same_key_reason(surface: str, name: str, label: str) -> str:
    """Why ``surface`` has the same canonical key as the concept's ``name``."""
    changes: list[str] = []
    display = " ".join(_name_tokens(surface, label, changes))
    if changes == ["plural"] and display.casefold() == name.casefold():
        return f"plural of '{name}'"
    if display != name and display.casefold() == name.casefold():
        changes.append("case")
    elif display.casefold() != name.casefold():
        changes.append("hyphen or space")
    if clean_surface(surface) != surface.strip():
        changes.append("Unicode, markup or spacing")
    return f"same key as '{name}' ({', '.join(changes) or 'spelling'})"
