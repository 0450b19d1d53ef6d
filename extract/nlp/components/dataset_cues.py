"""Strong dataset cues that beat statistics: "the X dataset", "datasets including A, B".

Names with digits are only datasets in a dataset context: CIFAR-100 in "datasets such
as CIFAR-10 and CIFAR-100" is a dataset, GPT-3 in "we fine-tune GPT-3" is not.
"""

from __future__ import annotations

from collections.abc import Iterator

from spacy.language import Language
from spacy.tokens import Doc, Span

from ...names import looks_like_name
from .lexicon import DATASET_HEADS
from .spans import add_entities

_LIST_OPENERS = frozenset({"including", "include", "includes", "like", "as", "e.g.", ":", "namely"})
_LIST_GLUE = frozenset({",", "and", "or", "&", "as", "well", "the", "(", ")"})
_NAME_PART_HEADS = frozenset({"treebank", "corpus"})
_EVAL_WORDS = ("experiment", "evaluat", "result", "benchmark", "accuracy", "test", "outperform")


def name_spans(span: Span) -> Iterator[Span]:
    """Maximal runs of tokens with no space between them that look like a name.

    "on MS-COCO and CIFAR-10" yields "MS-COCO" and "CIFAR-10".
    """
    doc = span.doc
    i = span.start
    while i < span.end:
        if doc[i].is_punct:
            i += 1
            continue
        j = i
        while (
            j + 1 < span.end
            and doc[j].whitespace_ == ""
            and (not doc[j + 1].is_punct or doc[j + 1].text in {"-", "_", "."})
        ):
            j += 1
        while j > i and doc[j].text in {"-", "_", "."}:
            j -= 1
        run = doc[i : j + 1]
        if looks_like_name(run.text.replace(" ", "")):
            yield run
        i = j + 1


def _proper_prefix(doc: Doc, head_i: int, sent_start: int) -> Span | None:
    """The capitalised or name-like words right before a dataset head word."""
    start = head_i
    while start - 1 >= sent_start and (
        doc[start - 1].pos_ in {"PROPN", "NUM"}
        or looks_like_name(doc[start - 1].text)
        or doc[start - 1].text in {"-", "_"}
        or (doc[start - 1].is_title and doc[start - 1].pos_ in {"NOUN", "ADJ"})
    ):
        start -= 1
    if start == head_i:
        return None
    span = doc[start:head_i]
    if not any(t.text[:1].isupper() or t.like_num for t in span):
        return None
    while len(span) and span[0].text in {"-", "_"}:
        span = doc[span.start + 1 : span.end]
    return span if len(span) else None


def find_dataset_cues(doc: Doc) -> list[Span]:
    """Spans the cue rules are sure are datasets."""
    found: list[Span] = []
    for sent in doc.sents:
        heads = [t.i for t in sent if t.lower_ in DATASET_HEADS]
        for h in heads:
            # "the MS-COCO dataset" names one; "RL benchmarks" is a kind of benchmark
            plural = doc[h].lower_ != doc[h].lemma_.lower() or doc[h].lower_ == "corpora"
            prefix = None if plural else _proper_prefix(doc, h, sent.start)
            if prefix is not None:
                # "Penn Treebank", "Customer Review Dataset": the head is part of the name
                if doc[h].is_title or doc[h].lower_ in _NAME_PART_HEADS:
                    prefix = doc[prefix.start : h + 1]
                found.append(prefix)
            # "datasets including A, B, and C" / "benchmarks such as A and B" / "datasets: A, B"
            k = h + 1
            while k < sent.end and k <= h + 3 and doc[k].lower_ not in _LIST_OPENERS:
                k += 1
            if k < sent.end and doc[k].lower_ in _LIST_OPENERS:
                found.extend(_list_items(doc, k + 1, sent.end))
        # "A, B and C datasets"
        for h in heads:
            if h > sent.start and doc[h - 1].lower_ not in {"the", "a", "these", "our"}:
                found.extend(_list_items_before(doc, h, sent.start))
    return found


def find_evaluation_targets(doc: Doc) -> list[Span]:
    """Names with digits after "on" in a sentence about experiments: "on CIFAR-10".

    A weaker cue than a dataset head word: models are evaluated "on" too ("we
    evaluate on GPT-4"), so these only add where no entity is.
    """
    found: list[Span] = []
    for sent in doc.sents:
        lower = sent.text.lower()
        if any(w in lower for w in _EVAL_WORDS):
            for t in sent:
                if t.lower_ in {"on", "across"} and t.i + 1 < sent.end:
                    found.extend(_list_items(doc, t.i + 1, sent.end, need_digit=True))
    return found


def _list_items(doc: Doc, start: int, end: int, need_digit: bool = False) -> list[Span]:
    items = []
    i = start
    while i < end:
        run = next(name_spans(doc[i : min(end, i + 6)]), None)
        if run is None or run.start != i:
            if doc[i].text in _LIST_GLUE:
                i += 1
                continue
            break
        if need_digit and not any(c.isdigit() for c in run.text):
            break
        items.append(run)
        i = run.end
    return items


def _list_items_before(doc: Doc, head: int, sent_start: int) -> list[Span]:
    items: list[Span] = []
    i = head - 1
    while i >= sent_start:
        if doc[i].text in _LIST_GLUE:
            i -= 1
            continue
        j = i
        while j - 1 >= sent_start and doc[j - 1].whitespace_ == "" and not doc[j - 1].is_space:
            j -= 1
        run = doc[j : i + 1]
        if not looks_like_name(run.text):
            break
        items.append(run)
        i = j - 1
    return items if len(items) >= 2 else []


@Language.factory("paperkg_dataset_cues", default_config={})
def make_dataset_cues(nlp: Language, name: str) -> DatasetCues:
    return DatasetCues()


class DatasetCues:
    """Labels DATASET the names that strong textual cues mark as datasets.

    Overrides other components' labels on those spans ("the X dataset",
    "datasets such as A and B"); a name with digits after "on" in a sentence
    about experiments is added only where no entity is. Sets no custom attributes.
    """

    def __call__(self, doc: Doc) -> Doc:
        # a DATASET the NER already found keeps its boundaries ("French Treebank")
        # unless a cue holds it, and no other, whole ("Customer Review" in "the
        # Customer Review Dataset"); the cues relabel what it called something else
        # and add what it missed
        datasets = [e for e in doc.ents if e.label_ == "DATASET"]
        spans = [
            Span(doc, s.start, s.end, label="DATASET")
            for s in find_dataset_cues(doc)
            if _may_replace(s, datasets)
        ]
        add_entities(doc, spans, override=True)
        targets = [Span(doc, s.start, s.end, label="DATASET") for s in find_evaluation_targets(doc)]
        add_entities(doc, targets)  # where nothing else was found
        doc.ents = [e for e in doc.ents if not _is_category_prefix(e)]
        return doc


def _may_replace(cue: Span, found: list[Span]) -> bool:
    """Whether ``cue`` may stand for the DATASETs it overlaps in ``found``: none, or
    one it holds whole (never two joined: "MNIST" and "CIFAR-10" in "the MNIST
    CIFAR-10 benchmark" stay two)."""
    overlapped = [e for e in found if cue.start < e.end and e.start < cue.end]
    if not overlapped:
        return True
    whole = overlapped[0]
    return len(overlapped) == 1 and cue.start <= whole.start and whole.end <= cue.end


def _is_category_prefix(ent: Span) -> bool:
    """ "RL" in "RL benchmarks", "NLP" in "NLP datasets": a field naming a kind of
    dataset, not a dataset."""
    doc = ent.doc
    if ent.label_ != "DATASET" or len(ent) != 1 or ent.end >= len(doc):
        return False
    head = doc[ent.end]
    plural = head.lower_ in DATASET_HEADS and (
        head.lower_ != head.lemma_.lower() or head.lower_ == "corpora"
    )
    return (
        plural
        and ent.text.isupper()
        and len(ent.text) <= 4
        and not any(c.isdigit() for c in ent.text)
    )
