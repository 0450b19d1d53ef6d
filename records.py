"""The records passed between paperkg's stages, in one place.

Read this file to see the whole data flow::

    input files --readers--> Paper --extract--> PaperMentions --graph--> networkx graph
                                                      |
                                         normalise: Mention -> Concept

Every stage takes and returns these plain dataclasses, never live spaCy objects:
a ``Doc`` does not pickle cheaply across processes and would tie the graph to
the NLP library.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Entity labels produced by the NER, and the graph node label each becomes.
ENTITY_LABELS: dict[str, str] = {
    "METHOD": "Method",
    "DATASET": "Dataset",
    "TASK": "Task",
    "METRIC": "Metric",
}
#: the graph's node labels: a paper, and the concept labels in ENTITY_LABELS' order
PAPER = "Paper"
CONCEPT_LABELS: tuple[str, ...] = tuple(ENTITY_LABELS.values())
NODE_LABELS: tuple[str, ...] = (PAPER, *CONCEPT_LABELS)


def paper_node_id(paper_id: str) -> str:
    """The graph node id of a paper."""
    return f"paper:{paper_id}"


def concept_node_id(label: str, key: str) -> str:
    """The graph node id of a concept, ``"<Label>:<canonical key>"``.

    >>> concept_node_id("Method", "bert")
    'Method:bert'
    """
    return f"{label}:{key}"


@dataclass
class Paper:
    """One abstract as read from an input file.

    ``abstract`` keeps the original text (LaTeX and all); ``text`` is its
    cleaned version, which the NLP pipeline reads after the title (``document``). ``source`` says where the record
    came from, e.g. ``"examples/iclr.txt#3"``, so errors and the graph can
    point a user back to it.
    """

    id: str
    abstract: str
    text: str
    source: str
    title: str | None = None
    year: int | None = None
    venue: str | None = None
    authors: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    doi: str | None = None
    code_urls: list[str] = field(default_factory=list)
    #: the title cleaned for NLP like ``text`` (LaTeX undone); ``title`` keeps the original
    title_text: str | None = None

    @property
    def document(self) -> str:
        """What the NLP pipeline reads: the title as a first sentence, then ``text``.

        A title names a paper's task and contribution more plainly than any
        sentence of its abstract ("CLaM-TTS: Improving Neural Codec Language
        Model for Zero-Shot Text-to-Speech"). Mention offsets point into this.
        """
        title = self.document_title
        if not title:
            return self.text
        return f"{title}\n\n{self.text}" if title[-1] in ".?!" else f"{title}.\n\n{self.text}"

    @property
    def document_title(self) -> str:
        """The title as ``document`` begins with it ("" without one)."""
        return (self.title_text or self.title or "").strip()

    @property
    def title_end(self) -> int:
        """Where the title ends in ``document``: a mention before it is in the title."""
        return len(self.document_title)

    @property
    def abstract_start(self) -> int:
        """Where the abstract's ``text`` begins in ``document``, after the title and the
        break (with the full stop added to a title that has none)."""
        return len(self.document) - len(self.text)


@dataclass(frozen=True, slots=True)
class Mention:
    """A METHOD, DATASET, TASK or METRIC mention found in one paper.

    ``start``/``end`` are character offsets into ``Paper.document`` (the title,
    then the cleaned abstract). ``proposed``
    is True when the paper introduces the thing ("we propose X") rather than
    merely using it. ``long_form`` is set when the paper defines this mention
    as an acronym, e.g. ``GNN`` -> ``graph neural network``. ``corpus_match``
    is True when the NER did not tag this occurrence but the corpus showed the
    phrase to be a term (:mod:`paperkg.extract.corpus.corpus_terms`).
    """

    text: str
    label: str
    start: int
    end: int
    sentence: str
    proposed: bool = False
    long_form: str | None = None
    corpus_match: bool = False


@dataclass
class PaperMentions:
    """What extraction found in one paper."""

    paper: Paper
    mentions: list[Mention] = field(default_factory=list)
    #: acronym definitions in this paper: short form -> long form
    acronyms: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class Concept:
    """A canonical Method/Dataset/Task/Metric that many mentions map to.

    ``id`` is ``"<Label>:<canonical key>"``, e.g. ``"Method:graph neural network"``.
    ``aliases`` counts every surface form seen; ``merge_reasons`` says why
    each alias was folded into this concept, so a user can audit a merge.
    """

    id: str
    label: str
    key: str
    name: str
    aliases: dict[str, int] = field(default_factory=dict)
    merge_reasons: dict[str, str] = field(default_factory=dict)


@dataclass
class SkippedRecord:
    """A record a reader could not use, and why (one line, for the user)."""

    source: str
    reason: str


@dataclass
class ReadResult:
    """Papers read from the inputs plus everything that was left out."""

    papers: list[Paper] = field(default_factory=list)
    skipped: list[SkippedRecord] = field(default_factory=list)
    #: duplicate abstracts merged into the paper id they duplicate
    duplicates: list[tuple[str, str]] = field(default_factory=list)
    #: human-readable notes, e.g. which CSV columns were used
    notes: list[str] = field(default_factory=list)


@dataclass
class Resolution:
    """Mentions of a whole corpus resolved to canonical concepts.

    ``concept_of[i][j]`` is the concept id of ``results[i].mentions[j]`` for the
    list of :class:`PaperMentions` that was resolved, or ``None`` when the
    mention was dropped (e.g. a generic phrase such as "our method").
    """

    concepts: dict[str, Concept] = field(default_factory=dict)
    concept_of: list[list[str | None]] = field(default_factory=list)
    #: bare acronyms left apart because several long forms compete: acronym -> long forms
    ambiguous_acronyms: dict[str, list[str]] = field(default_factory=dict)
    mention_count: int = 0
    #: concepts left out because they name no specific thing: id -> the rule that says so
    #: (:mod:`paperkg.extract.corpus.specificity`), the most mentioned first
    generic: dict[str, str] = field(default_factory=dict)
