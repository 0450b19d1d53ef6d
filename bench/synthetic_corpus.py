"""Synthetic abstracts for measuring scale, made from real sentences and their mentions.

A benchmark at 100,000 abstracts should not need 100,000 abstracts downloaded,
nor a generator whose text the pipeline finds nothing in. So the papers here
are recombined from a *source*: real abstracts and what the pipeline found in
them (the bundled example, or any corpus built before). Each synthetic paper
takes a source title and a source-sized run of source sentences, and renames
their mentions with names drawn per label from a Pitman-Yor process
(discount 0.8): a few concepts are in hundreds of papers, most in one or
two, and the number of distinct concepts keeps growing with the corpus (about
as n^0.8), as in a real field. New names are coined from the source's
names, so they read like the real ones ("contrastive ViT", "ImageNet-12").

The process is set so that a synthetic corpus of NeurIPS 2023's size (3,218
papers) builds a graph like NeurIPS 2023's own, measured side by side:

=============================  ==========  =========
graph of 3,218 papers          NeurIPS     synthetic
=============================  ==========  =========
concepts                       25,976      29,997
concepts in 10+ papers         343         532
concepts in 100+ papers        10          21
paper-concept edges            41,043      57,025
co-occurrence edges            5,423       11,629
=============================  ==========  =========

The synthetic graph has about twice NeurIPS's co-occurrence edges (real
concepts cluster by topic; the draws here do not), so a measurement at scale
errs on the heavy side.

The papers come with the mentions the renaming put in, so the corpus steps
(corpus terms, resolution, graph) can be measured at a scale the NER could not
be run at here: :func:`synthetic_corpus` yields both, one paper at a time.

Examples
--------
>>> from paperkg.records import Mention, Paper, PaperMentions
>>> text = "We propose FooNet for image classification. FooNet beats ResNet."
>>> paper = Paper(id="s", abstract=text, text=text, source="x#1", title="FooNet")
>>> doc = paper.document
>>> def m(t, label, sent):
...     start = doc.index(t, doc.index(sent))
...     return Mention(t, label, start, start + len(t), sent)
>>> s1, s2 = "We propose FooNet for image classification.", "FooNet beats ResNet."
>>> source = [PaperMentions(paper, [m("FooNet", "METHOD", s1), m("image classification", "TASK", s1),
...                                 m("FooNet", "METHOD", s2), m("ResNet", "METHOD", s2)])]
>>> papers = list(synthetic_corpus(source, 3, seed=1))
>>> [len(p.mentions) > 0 for p in papers]
[True, True, True]
>>> all(p.paper.document[m.start:m.end] == m.text for p in papers for m in p.mentions)
True
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from paperkg.atomic import atomic_open
from paperkg.extract.readers.latex import clean_text
from paperkg.records import Mention, Paper, PaperMentions

__all__ = ["synthetic_corpus", "write_jsonl"]

_WORDS = (
    "sparse robust causal federated spectral variational adversarial hierarchical "
    "equivariant bayesian stochastic implicit multimodal recurrent contrastive latent "
    "temporal relational offline online continual few-shot self-supervised molecular "
    "visual textual tabular spatial symbolic efficient scalable adaptive"
).split()
_VENUES = ("NeurIPS", "ICML", "ICLR", "ACL", "CVPR", "EMNLP", "AAAI", "KDD")


@dataclass(frozen=True)
class _Slot:
    """A mention in a source sentence: where it sits in the sentence, and what it is."""

    start: int
    end: int
    label: str
    proposed: bool


@dataclass(frozen=True)
class _Sentence:
    text: str
    slots: tuple[_Slot, ...]


def _source_sentences(source: Iterable[PaperMentions]) -> tuple[list, list, list[int]]:
    """Titles, abstract sentences (each with its mention slots) and sentences per abstract."""
    titles: list[_Sentence] = []
    sentences: list[_Sentence] = []
    lengths: list[int] = []
    for result in source:
        document = result.paper.document
        by_sentence: dict[str, list[_Slot]] = defaultdict(list)
        starts: dict[str, int] = {}
        for mention in result.mentions:
            begin = starts.setdefault(mention.sentence, _sentence_start(document, mention))
            if begin < 0 or document[mention.start : mention.end] != mention.text:
                continue
            slot = _Slot(
                mention.start - begin, mention.end - begin, mention.label, mention.proposed
            )
            by_sentence[mention.sentence].append(slot)
        title = result.paper.document_title
        count = 0
        for text, slots in by_sentence.items():
            if not _reads_back(text):
                continue
            sentence = _Sentence(text, tuple(_without_overlaps(slots)))
            if title and text.rstrip(".") == title.rstrip("."):
                titles.append(sentence)
            else:
                sentences.append(sentence)
                count += 1
        if count:
            lengths.append(max(count, 3))
    return titles, sentences, lengths


def _reads_back(sentence: str) -> bool:
    """Whether the readers' cleaning leaves ``sentence`` as it is, between others.

    A synthetic paper must read back as written (so its mentions' offsets hold
    and an extraction cache keyed by its text finds it): a sentence with LaTeX
    remnants, which cleaning would change again, is left out of the source.
    """
    padded = f"One. {sentence} Two."
    return clean_text(padded)[0] == padded


def _sentence_start(document: str, mention: Mention) -> int:
    """Where ``mention``'s sentence starts in ``document`` (the occurrence holding it)."""
    start = document.rfind(mention.sentence, 0, mention.start + len(mention.sentence))
    if start < 0 or start + len(mention.sentence) < mention.end:
        return -1
    return start


def _without_overlaps(slots: list[_Slot]) -> list[_Slot]:
    kept: list[_Slot] = []
    for slot in sorted(set(slots), key=lambda s: (s.start, -s.end)):
        if not kept or slot.start >= kept[-1].end:
            kept.append(slot)
    return kept


class _NameProcess:
    """Concept names of one label from a Pitman-Yor process: skewed use, growing vocabulary."""

    def __init__(self, seeds: list[str], rng: random.Random, discount: float = 0.8) -> None:
        self.seeds = seeds or ["model"]
        self.rng = rng
        self.discount = discount
        # with 0.8: at NeurIPS 2023's size (3,218 papers) the graph has 30k concepts (NeurIPS:
        # 26k), 21 in 100 papers or more (10), 12k co-occurrence edges (5.4k); see the docstring
        self.strength = 1000.0
        #: chance that a coined name is "<word> <seed>" (a narrower kind of its seed: IS_A
        #: edges) by choice; a name whose seed is taken comes out that way too
        self.prefixed = 0.05
        self.names: list[str] = []
        self.counts: list[int] = []
        self.total = 0
        self.draws: list[int] = []  # every draw's name, for drawing in proportion to counts
        self.taken: set[str] = set()

    def draw(self) -> str:
        new = (self.strength + self.discount * len(self.names)) / (self.strength + self.total)
        if not self.names or self.rng.random() < new:
            self.names.append(self._coin())
            self.counts.append(0)
            index = len(self.names) - 1
        else:
            index = self._existing()
        self.counts[index] += 1
        self.draws.append(index)
        self.total += 1
        return self.names[index]

    def _existing(self) -> int:
        # proportional to count - discount: a past draw picked at random is a name with
        # probability proportional to its count; keeping it with probability
        # (count - discount) / count leaves the rest (at least 1 - discount accepted)
        while True:
            index = self.draws[self.rng.randrange(len(self.draws))]
            count = self.counts[index]
            if self.rng.random() * count < count - self.discount:
                return index

    def _coin(self) -> str:
        seed = self.rng.choice(self.seeds)
        for _ in range(20):
            form = self.rng.random()
            if form < 0.4 or len(self.taken) < len(self.seeds):
                name = seed if seed not in self.taken else f"{self.rng.choice(_WORDS)} {seed}"
            elif form < 0.4 + self.prefixed:
                name = f"{self.rng.choice(_WORDS)} {seed}"
            else:
                name = f"{seed}-{self.rng.randint(2, 999)}"
            if name not in self.taken:
                self.taken.add(name)
                return name
            seed = self.rng.choice(self.seeds)
        name = f"{seed}-{len(self.taken)}"
        self.taken.add(name)
        return name


def synthetic_corpus(
    source: Iterable[PaperMentions],
    n_papers: int,
    *,
    seed: int = 0,
    years: tuple[int, int] = (2015, 2025),
) -> Iterator[PaperMentions]:
    """``n_papers`` synthetic papers recombined from ``source``, with the mentions they hold.

    Parameters
    ----------
    source : iterable of PaperMentions
        Real abstracts with what the pipeline found in them; the more, the
        more varied the sentences (19 bundled abstracts give about 150).
    n_papers : int
    seed : int
        The same seed and source give the same papers.
    years : (int, int)
        Papers get years uniformly in this range, for trends.

    Yields
    ------
    PaperMentions
        A :class:`~paperkg.records.Paper` (id ``synthetic-N``, a title, an
        abstract, a year and a venue) and its mentions, offsets into
        ``paper.document``, one paper at a time, so a million cost no memory.
    """
    titles, sentences, lengths = _source_sentences(source)
    if not sentences:
        raise ValueError("synthetic_corpus: the source has no sentence with a mention")
    rng = random.Random(seed)
    seeds: dict[str, list[str]] = defaultdict(list)
    for sentence in [*titles, *sentences]:
        for slot in sentence.slots:
            seeds[slot.label].append(sentence.text[slot.start : slot.end])
    names = {label: _NameProcess(sorted(set(s)), rng) for label, s in seeds.items()}
    for i in range(n_papers):
        renamed: dict[tuple[str, str], str] = {}  # one paper names a thing the same way
        title = rng.choice(titles) if titles else None
        body = [rng.choice(sentences) for _ in range(rng.choice(lengths or [6]))]
        parts = [_rename(sentence, renamed, names) for sentence in body]
        title_text, title_mentions = _rename(title, renamed, names) if title else ("", [])
        text = " ".join(p[0] for p in parts)
        paper = Paper(
            id=f"synthetic-{i}",
            abstract=text,
            text=text,
            source=f"synthetic#{i + 1}",
            title=title_text.rstrip(".") or None,
            year=rng.randint(*years),
            venue=rng.choice(_VENUES),
        )
        document = paper.document
        located = [(0, title_text, title_mentions)] if title_mentions else []
        offset = len(document) - len(text)  # the abstract follows the title
        for sentence, spans in parts:
            located.append((offset, sentence, spans))
            offset += len(sentence) + 1
        yield PaperMentions(paper, _mentions(document, located))


def _rename(
    sentence: _Sentence,
    renamed: dict[tuple[str, str], str],
    names: dict[str, _NameProcess],
) -> tuple[str, list[tuple[int, int, str, bool]]]:
    """The sentence with its mentions renamed, and the new mentions' (start, end, label, proposed)."""
    text = sentence.text
    out: list[str] = []
    spans = []
    at = 0
    for slot in sentence.slots:
        original = text[slot.start : slot.end]
        key = (slot.label, original)
        if key not in renamed:
            renamed[key] = names[slot.label].draw()
        out.append(text[at : slot.start])
        begin = sum(map(len, out))
        out.append(renamed[key])
        spans.append((begin, begin + len(renamed[key]), slot.label, slot.proposed))
        at = slot.end
    out.append(text[at:])
    return "".join(out), spans


def _mentions(document: str, located) -> list[Mention]:
    """Mentions with offsets into ``document``, from each sentence's offset and spans."""
    mentions: list[Mention] = []
    for base, sentence, spans in located:
        for start, end, label, proposed in spans:
            text = document[base + start : base + end]
            mentions.append(Mention(text, label, base + start, base + end, sentence, proposed))
    return mentions


def write_jsonl(path: str | Path, papers: Iterable[PaperMentions]) -> int:
    """Write the papers as JSON Lines paperkg reads (id, title, abstract, year, venue).

    Written atomically, one line at a time, so writing a million needs no memory.
    Returns the number of papers written.
    """
    count = 0
    with atomic_open(Path(path)) as f:
        for result in papers:
            p = result.paper
            record = {"id": p.id, "title": p.title, "abstract": p.abstract}
            record.update(year=p.year, venue=p.venue)
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
            count += 1
    return count
