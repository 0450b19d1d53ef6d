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

import sys
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
    """The graph node id of a concept, ``"<Label>:<canonical key>"``: interned, so the
    concept, the mentions resolved to it and its node hold one string.

    >>> concept_node_id("Method", "bert") is concept_node_id("Method", "bert")
    True
    """
    return sys.intern(f"{label}:{key}")


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
        title = (self.title_text or self.title or "").strip()
        if not title:
            return self.text
        return f"{title}\n\n{self.text}" if title[-1] in ".?!" else f"{title}.\n\n{self.text}"


#: One int object for each character offset below this, held by the mentions read
#: from the extraction cache, found as corpus terms or unpickled from the extraction
#: processes (in those processes the extractor's own hold their own): CPython makes
#: an object of every int above 256 (32 bytes), two a mention, and a corpus of
#: 100,000 papers has millions of mentions (about 100 MB of offsets).
_SHARED_OFFSETS = tuple(range(1 << 14))


def shared_offset(offset: int) -> int:
    """``offset`` as the one int object all mentions at it share (below 16,384).

    >>> shared_offset(int("1000")) is shared_offset(int("1000"))
    True
    """
    return _SHARED_OFFSETS[offset] if 0 <= offset < len(_SHARED_OFFSETS) else offset


@dataclass(frozen=True, slots=True)  # slots: a corpus holds millions of them
class Mention:
    """A METHOD, DATASET, TASK or METRIC mention found in one paper.

    ``start``/``end`` are character offsets into ``Paper.document`` (the title,
    then the cleaned abstract). ``proposed``
    is True when the paper introduces the thing ("we propose X") rather than
    merely using it. ``long_form`` is set when the paper defines this mention
    as an acronym, e.g. ``GNN`` -> ``graph neural network``. ``corpus_match``
    is True when the NER did not tag this occurrence but the corpus showed the
    phrase to be a term (:mod:`paperkg.extract.corpus_terms`).
    """

    text: str
    label: str
    start: int
    end: int
    sentence: str
    proposed: bool = False
    long_form: str | None = None
    corpus_match: bool = False

    def __reduce__(self):
        # unpickled (from the extraction processes, the standby extractor, Dask workers)
        # it comes back with its strings and offsets shared, as one read from the cache
        return (shared_mention, (self.text, self.label, self.start, self.end,
                                 self.sentence, self.proposed, self.long_form,
                                 self.corpus_match))  # fmt: skip


def shared_mention(
    text: str,
    label: str,
    start: int,
    end: int,
    sentence: str,
    proposed: bool = False,
    long_form: str | None = None,
    corpus_match: bool = False,
) -> Mention:
    """A :class:`Mention` whose name and label are interned and offsets shared
    (:func:`shared_offset`): for mentions that come from JSON or a pickle, where
    "METHOD", "BERT" and every offset above 256 are a new object at each mention.

    >>> a, b = (shared_mention("BERT", "METHOD", int("300"), 304, "s") for _ in "ab")
    >>> a == b and a.start is b.start
    True
    """
    return Mention(sys.intern(text), sys.intern(label), shared_offset(start), shared_offset(end),
                   sentence, proposed, long_form, corpus_match)  # fmt: skip


@dataclass
class PaperMentions:
    """What extraction found in one paper."""

    paper: Paper
    mentions: list[Mention] = field(default_factory=list)
    #: acronym definitions in this paper: short form -> long form
    acronyms: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)  # a corpus of 100,000 papers has hundreds of thousands
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
    #: (:mod:`paperkg.extract.specificity`), the most mentioned first
    generic: dict[str, str] = field(default_factory=dict)
