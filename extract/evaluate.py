"""Measure extraction against expert annotations (SciERC, SciER, TDMSci).

Three gold formats are read into one plain form, :class:`GoldDoc`: a text plus
character-offset spans labelled with paperkg's entity labels (``METHOD``,
``DATASET``, ``TASK``, ``METRIC``). The annotated corpora are tokenised; their
tokens are joined back into readable text (:func:`detokenize`) so the pipeline
sees text as a user would give it, and is scored on character offsets.

Type mapping
    SciERC: Method->METHOD, Task->TASK, Material->DATASET, Metric->METRIC;
    OtherScientificTerm and Generic are dropped.
    SciER: Method->METHOD, Task->TASK, Dataset->DATASET.
    TDMSci: TASK, DATASET, METRIC (it has no METHOD).

Scores
    *exact*: a predicted span counts when its start, end and label equal a gold
    span's. *lenient*: a predicted span counts when it overlaps a not yet matched
    gold span of the same label (one-to-one), so "the CIFAR-10 dataset" against
    gold "CIFAR-10" is a hit.

Examples
--------
>>> gold = [GoldDoc("d1", "We use BERT on SQuAD.", [GoldSpan(7, 11, "METHOD"),
...                                                   GoldSpan(15, 20, "DATASET")])]
>>> report = score(gold, [[(7, 11, "METHOD"), (12, 20, "DATASET")]])
>>> report.exact["micro"]["f1"], report.lenient["micro"]["f1"]
(0.5, 1.0)
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..records import ENTITY_LABELS

logger = logging.getLogger(__name__)

__all__ = [
    "FORMATS",
    "GoldDoc",
    "GoldSpan",
    "Report",
    "detokenize",
    "evaluate",
    "predict_spans",
    "read_gold",
    "read_scier",
    "read_scierc",
    "read_scirex",
    "read_tdmsci",
    "score",
    "split_for_selection",
    "split_tdmsci",
]

#: Gold formats :func:`read_gold` understands.
FORMATS = ("scierc", "scier", "tdmsci", "scirex")

LABELS = tuple(ENTITY_LABELS)  # METHOD, DATASET, TASK, METRIC

SCIERC_TYPES = {"Method": "METHOD", "Task": "TASK", "Material": "DATASET", "Metric": "METRIC"}
SCIER_TYPES = {"Method": "METHOD", "Task": "TASK", "Dataset": "DATASET"}
TDMSCI_TYPES = {"TASK": "TASK", "DATASET": "DATASET", "METRIC": "METRIC"}
SCIREX_TYPES = {"Method": "METHOD", "Task": "TASK", "Material": "DATASET", "Metric": "METRIC"}

#: Labels each corpus annotates: a label outside this set is not scored on it.
CORPUS_LABELS = {
    "scierc": ("METHOD", "DATASET", "TASK", "METRIC"),
    "scier": ("METHOD", "DATASET", "TASK"),
    "tdmsci": ("DATASET", "TASK", "METRIC"),
    "scirex": ("METHOD", "DATASET", "TASK", "METRIC"),
}

#: Share of TDMSci train (its last sentences) held out from training for evaluation.
TDMSCI_HELDOUT_SHARE = 0.2


@dataclass(frozen=True, order=True)
class GoldSpan:
    """One annotated mention: character offsets into :attr:`GoldDoc.text`."""

    start: int
    end: int
    label: str


@dataclass
class GoldDoc:
    """One annotated unit (an abstract, a paper or a sentence) as plain text."""

    id: str
    text: str
    spans: list[GoldSpan] = field(default_factory=list)


# --------------------------------------------------------------------------- detokenising

_PTB = {
    "-LRB-": "(",
    "-RRB-": ")",
    "-LSB-": "[",
    "-RSB-": "]",
    "-LCB-": "{",
    "-RCB-": "}",
    "``": '"',
    "''": '"',
}
_NO_SPACE_BEFORE = {",", ".", ";", ":", ")", "]", "}", "%", "?", "!", "'s", "n't", "'re", "'ve"}
_NO_SPACE_AFTER = {"(", "[", "{"}
_WORD = re.compile(r"\w")
_DIGIT = re.compile(r"\d")


def detokenize(tokens: Sequence[str], *, join_digits: bool = False) -> tuple[str, list[int]]:
    """Join tokens into readable text; return the text and each token's start offset.

    PTB escapes (``-LRB-``) become brackets, no space goes before closing
    punctuation or after an opening bracket, and a hyphen between two words is
    glued to both ("state - of - the - art" -> "state-of-the-art").
    ``join_digits`` glues runs of single digits, as SciER splits numbers
    ("2 0 1 2" -> "2012", "4 2 . 2" -> "42.2").

    >>> detokenize(["a", "-LRB-", "CNN", "-RRB-", "on", "CIFAR", "-", "1", "0", "."],
    ...            join_digits=True)
    ('a (CNN) on CIFAR-10.', [0, 2, 3, 6, 8, 11, 16, 17, 18, 19])
    """
    words = [_PTB.get(t, t) for t in tokens]
    starts: list[int] = []
    parts: list[str] = []
    pos = 0
    for i, word in enumerate(words):
        if i > 0 and _space_between(words, i, join_digits):
            parts.append(" ")
            pos += 1
        starts.append(pos)
        parts.append(word)
        pos += len(word)
    return "".join(parts), starts


def _space_between(words: Sequence[str], i: int, join_digits: bool) -> bool:
    prev, word = words[i - 1], words[i]
    nxt = words[i + 1] if i + 1 < len(words) else ""
    if word in _NO_SPACE_BEFORE and not (word == "." and nxt and _DIGIT.match(nxt) and join_digits):
        return False
    if prev in _NO_SPACE_AFTER:
        return False
    if word == "-" and _WORD.search(prev) and _WORD.match(nxt or " "):
        return False
    if prev == "-" and i >= 2 and _WORD.search(words[i - 2]) and _WORD.match(word):
        return False
    if join_digits:
        if len(prev) == 1 and prev.isdigit() and len(word) == 1 and word.isdigit():
            return False
        if word == "." and prev.isdigit() and nxt.isdigit():
            return False
        if prev == "." and word.isdigit() and i >= 2 and words[i - 2].isdigit():
            return False
    return True


def _doc_from_tokens(
    doc_id: str,
    tokens: Sequence[str],
    token_spans: Iterable[tuple[int, int, str]],
    *,
    join_digits: bool = False,
) -> GoldDoc:
    """Build a :class:`GoldDoc` from tokens and inclusive token-offset spans."""
    text, starts = detokenize(tokens, join_digits=join_digits)
    words = [_PTB.get(t, t) for t in tokens]
    spans = {
        GoldSpan(starts[first], starts[last] + len(words[last]), label)
        for first, last, label in token_spans
    }
    return GoldDoc(doc_id, text, sorted(spans))


# --------------------------------------------------------------------------- readers


def _json_lines(path: Path) -> Iterable[tuple[int, dict]]:
    try:
        handle = path.open(encoding="utf-8")
    except OSError as e:
        raise InputError(
            f"{path}: cannot open the gold file ({e.strerror}); check the path."
        ) from e
    with handle:
        try:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as e:
                    raise InputError(
                        f"{path}#{number}: not a JSON line ({e.msg}); "
                        "expected one JSON object a line."
                    ) from e
                if not isinstance(record, dict):
                    raise InputError(
                        f"{path}#{number}: a JSON {type(record).__name__}, not an object; "
                        "expected one JSON object a line."
                    )
                yield number, record
        except UnicodeDecodeError as e:
            raise _not_utf8(path, e) from e


def _not_utf8(path: Path, error: UnicodeDecodeError) -> InputError:
    return InputError(
        f"{path}: not UTF-8 text (byte 0x{error.object[error.start]:02x}); "
        "a gold file is UTF-8 JSON lines or CoNLL."
    )


@contextlib.contextmanager
def _gold_record(path: Path, number: int, expected: str):
    """Turn a record of the wrong shape (a number where a list should be, a span
    past the end of its tokens) into one line naming it, not a traceback."""
    try:
        yield
    except (TypeError, ValueError, IndexError, KeyError, AttributeError) as e:
        raise InputError(
            f"{path}#{number}: not a {expected} record ({type(e).__name__}: {e})."
        ) from e


def read_scierc(path: str | Path) -> list[GoldDoc]:
    """Read SciERC / DyGIE-style JSON lines: one document a line.

    Each line has ``sentences`` (token lists) and ``ner`` (per sentence,
    ``[start, end, type]`` with inclusive token offsets over the whole document).
    Types are mapped with :data:`SCIERC_TYPES` (SciER's ``dev.plm.jsonl`` has the
    same layout with Dataset/Method/Task and is read by :func:`read_scier`).
    """
    return _read_dygie(Path(path), SCIERC_TYPES, join_digits=False)


def _read_dygie(path: Path, types: dict[str, str], *, join_digits: bool) -> list[GoldDoc]:
    docs = []
    for number, record in _json_lines(path):
        if "sentences" not in record or "ner" not in record:
            raise InputError(
                f"{path}#{number}: no 'sentences'/'ner' keys; expected SciERC-style JSON lines."
            )
        with _gold_record(path, number, "SciERC-style"):
            tokens = [t for sentence in record["sentences"] for t in sentence]
            spans = [
                (s, e, types[t]) for sentence in record["ner"] for s, e, t in sentence if t in types
            ]
            doc_id = str(record.get("doc_key") or record.get("doc_id") or f"{path.name}#{number}")
            docs.append(_doc_from_tokens(doc_id, tokens, spans, join_digits=join_digits))
    return docs


def read_scier(path: str | Path) -> list[GoldDoc]:
    """Read SciER: sentence JSON lines with entity strings, or the PLM document file.

    The sentence files (``train.jsonl``, ``dev.jsonl``) give entities as strings,
    not offsets. Every occurrence of an entity's tokens in its sentence is taken
    as a mention (the annotation does not say which occurrence is meant). The
    PLM file (``dev.plm.jsonl``: ``sentences`` + ``ner`` token offsets) is read
    like SciERC. SciER splits numbers into digits; they are glued back.
    """
    path = Path(path)
    records = list(_json_lines(path))
    if records and "sentences" in records[0][1]:
        return _read_dygie(path, SCIER_TYPES, join_digits=True)
    docs = []
    for number, record in records:
        if "sentence" not in record or "ner" not in record:
            raise InputError(
                f"{path}#{number}: no 'sentence'/'ner' keys; expected SciER JSON lines."
            )
        with _gold_record(path, number, "SciER"):
            tokens = record["sentence"].split(" ")
            spans = set()
            for entity, etype in record["ner"]:
                if etype not in SCIER_TYPES:
                    continue
                for first, last in _find_all(tokens, entity.split(" ")):
                    spans.add((first, last, SCIER_TYPES[etype]))
            doc_id = f"{record.get('doc_id', path.name)}#{number}"
            docs.append(_doc_from_tokens(doc_id, tokens, spans, join_digits=True))
    return docs


def _find_all(tokens: Sequence[str], needle: Sequence[str]) -> list[tuple[int, int]]:
    n = len(needle)
    return [
        (i, i + n - 1)
        for i in range(len(tokens) - n + 1)
        if n and list(tokens[i : i + n]) == list(needle)
    ]


def read_tdmsci(path: str | Path) -> list[GoldDoc]:
    """Read TDMSci CoNLL: ``token<TAB>char offset<TAB>BIO tag``, blank line between sentences.

    Each sentence is one :class:`GoldDoc`; the character offsets restore the
    original spacing between tokens.
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise InputError(
            f"{path}: cannot open the gold file ({e.strerror}); check the path."
        ) from e
    except UnicodeDecodeError as e:
        raise _not_utf8(path, e) from e
    docs: list[GoldDoc] = []
    rows: list[tuple[str, int, str]] = []
    first_line = 1
    for number, line in enumerate([*lines, ""], start=1):
        if not line.strip():
            if rows:
                docs.append(_tdmsci_sentence(f"{path.name}#{first_line}", rows))
            rows, first_line = [], number + 1
            continue
        cols = line.split("\t")
        if len(cols) != 3 or not cols[1].isdigit():
            raise InputError(
                f"{path}#{number}: expected 'token<TAB>offset<TAB>tag' (TDMSci CoNLL), "
                f"got {line!r}."
            )
        rows.append((cols[0], int(cols[1]), cols[2]))
    return docs


def _tdmsci_sentence(doc_id: str, rows: list[tuple[str, int, str]]) -> GoldDoc:
    parts: list[str] = []
    pos = 0
    spans: list[GoldSpan] = []
    open_span: list | None = None
    for i, (token, offset, tag) in enumerate(rows):
        if i > 0:
            prev_token, prev_offset, _ = rows[i - 1]
            if offset != prev_offset + len(prev_token):
                parts.append(" ")
                pos += 1
        start = pos
        parts.append(token)
        pos += len(token)
        prefix, _, label = tag.partition("-")
        if open_span and (prefix != "I" or label != open_span[2]):
            spans.append(GoldSpan(*open_span))
            open_span = None
        if prefix == "B" or (prefix == "I" and open_span is None):
            if label in TDMSCI_TYPES:
                open_span = [start, pos, TDMSCI_TYPES[label]]
        elif prefix == "I" and open_span is not None:
            open_span[1] = pos
    if open_span:
        spans.append(GoldSpan(*open_span))
    return GoldDoc(doc_id, "".join(parts), sorted(set(spans)))


#: SciREX's header words ("document :", "section : Abstract") are part of its text
_SCIREX_HEADERS = ("document", "section")
#: a SciREX paper whose front matter is not an abstract's length (its sections are
#: unmarked) is left out rather than read as one
SCIREX_FRONT_WORDS = (30, 450)


def read_scirex(path: str | Path) -> list[GoldDoc]:
    """Read SciREX (``train.jsonl``): the title and abstract of each paper, one doc each.

    SciREX annotates whole ML papers (Method, Task, Material, Metric; Material
    mapped to DATASET). paperkg reads abstracts, so only each paper's front
    matter is kept: its first section (the title, and the abstract when it is
    not a section of its own) or, after a short title, the first two, with the
    header words ("document :", "section : Abstract") left out. Papers whose
    front matter is not 30-450 words long have no marked abstract and are left
    out. Mentions are semi-automatic (distant supervision, then corrected), so
    noisier than SciERC's or SciER's.
    """
    path = Path(path)
    docs = []
    for number, record in _json_lines(path):
        if "words" not in record or "ner" not in record or "sections" not in record:
            raise InputError(
                f"{path}#{number}: no 'words'/'ner'/'sections' keys; expected SciREX JSON lines."
            )
        with _gold_record(path, number, "SciREX"):
            words, sections = record["words"], record["sections"]
            if not sections:
                continue
            first = sections[0]
            end = sections[1][1] if first[1] - first[0] < 40 and len(sections) > 1 else first[1]
            keep, i = [], 0
            while i < end:
                if words[i] in _SCIREX_HEADERS and i + 1 < end and words[i + 1] == ":":
                    is_abstract = i + 2 < end and words[i + 2].lower() == "abstract"
                    i += 3 if words[i] == "section" and is_abstract else 2
                    continue
                keep.append(i)
                i += 1
            if not SCIREX_FRONT_WORDS[0] <= len(keep) <= SCIREX_FRONT_WORDS[1]:
                continue
            index = {old: new for new, old in enumerate(keep)}
            spans = [
                (index[s], index[e - 1], SCIREX_TYPES[t])
                for s, e, t in record["ner"]
                if t in SCIREX_TYPES and e <= end and s in index and (e - 1) in index
            ]
            doc_id = str(record.get("doc_id") or f"{path.name}#{number}")
            docs.append(_doc_from_tokens(doc_id, [words[k] for k in keep], spans))
    return docs


def read_gold(path: str | Path, fmt: str) -> list[GoldDoc]:
    """Read a gold file in one of :data:`FORMATS`."""
    readers = {
        "scierc": read_scierc,
        "scier": read_scier,
        "tdmsci": read_tdmsci,
        "scirex": read_scirex,
    }
    if fmt not in readers:
        raise InputError(f"unknown gold format {fmt!r}; expected one of {', '.join(FORMATS)}.")
    docs = readers[fmt](path)
    logger.info("read %d gold documents from %s (%s)", len(docs), path, fmt)
    return docs


def split_tdmsci(docs: Sequence[GoldDoc]) -> tuple[list[GoldDoc], list[GoldDoc]]:
    """Split TDMSci train into (training part, held-out part): the last 20% is held out.

    The held-out block is contiguous, so sentences of one paper rarely sit on
    both sides.
    """
    cut = len(docs) - round(len(docs) * TDMSCI_HELDOUT_SHARE)
    return list(docs[:cut]), list(docs[cut:])


#: Share of each training corpus kept back to choose checkpoints and rules on
#: (never trained on): the dev sets then measure what was not tuned on.
SELECTION_SHARE = {"scierc": 50 / 350, "scier": 12 / 80, "tdmsci": 0.1 / 0.8, "scirex": 0.1}


def split_for_selection(docs: Sequence[GoldDoc], fmt: str) -> tuple[list[GoldDoc], list[GoldDoc]]:
    """Split a training corpus into (what to train on, what to select on).

    Why: checkpoints and rule switches chosen on a dev set fit that dev set
    (the CNN scored 73.3 on SciER dev, 65.2 on its test). The selection part
    is the last block of whole papers (SciERC's last 50 abstracts, SciER's last
    12 of 80 papers, TDMSci's last eighth of its training part, i.e. 10% of the
    file before the 20% held out), so no paper sits on both sides.

    >>> docs = [GoldDoc(f"p{i // 2}#{i}", "x") for i in range(40)]
    >>> train, select = split_for_selection(docs, "scier")
    >>> len(train), len(select), select[0].id
    (34, 6, 'p17#34')
    """
    papers: list[str] = []
    for d in docs:
        paper = d.id.split("#")[0] if fmt == "scier" else d.id
        if not papers or papers[-1] != paper:
            papers.append(paper)
    n_select = round(len(papers) * SELECTION_SHARE.get(fmt, 0.1))
    if n_select == 0 or n_select >= len(papers):  # too small to keep a part back
        return list(docs), []
    if fmt == "tdmsci":  # sentences of consecutive papers: a contiguous block
        cut = len(docs) - n_select
        return list(docs[:cut]), list(docs[cut:])
    selected = set(papers[-n_select:])
    key = (lambda d: d.id.split("#")[0]) if fmt == "scier" else (lambda d: d.id)
    return [d for d in docs if key(d) not in selected], [d for d in docs if key(d) in selected]


# --------------------------------------------------------------------------- scoring

Spans = Sequence[tuple[int, int, str]]


@dataclass
class Report:
    """Precision/recall/F1 per label and micro-averaged, exact and lenient.

    ``exact`` and ``lenient`` map each label and ``"micro"`` to
    ``{"precision", "recall", "f1", "support"}`` (support = gold mentions).
    """

    exact: dict[str, dict[str, float]]
    lenient: dict[str, dict[str, float]]
    documents: int = 0
    seconds: float = 0.0

    @property
    def docs_per_second(self) -> float:
        return self.documents / self.seconds if self.seconds else 0.0

    def to_dict(self) -> dict:
        """The JSON form printed by ``paperkg eval --json``."""
        out: dict = {label: dict(v) for label, v in self.exact.items()}
        out["lenient"] = {label: dict(v) for label, v in self.lenient.items()}
        out["documents"] = self.documents
        out["docs_per_second"] = round(self.docs_per_second, 2)
        return out


def _prf(tp: int, n_pred: int, n_gold: int) -> dict[str, float]:
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": p, "recall": r, "f1": f, "support": n_gold}


def _lenient_hits(gold: Spans, pred: Spans) -> list[tuple[int, int, str]]:
    """Predicted spans matched one-to-one to overlapping gold spans of the same label."""
    free = sorted(gold)
    hits = []
    for p in sorted(pred):
        for g in free:
            if g[2] == p[2] and g[0] < p[1] and p[0] < g[1]:
                hits.append(p)
                free.remove(g)
                break
    return hits


def score(
    gold_docs: Sequence[GoldDoc],
    predictions: Sequence[Spans],
    labels: Sequence[str] | None = None,
) -> Report:
    """Score predicted ``(start, end, label)`` spans against the gold documents.

    ``labels`` limits scoring to the labels the corpus annotates (a corpus
    without METHOD must not count predicted METHODs as wrong); by default every
    label that occurs in the gold documents.
    """
    if len(gold_docs) != len(predictions):
        raise ValueError(f"{len(gold_docs)} gold documents but {len(predictions)} predictions")
    if labels is None:
        labels = [lab for lab in LABELS if any(s.label == lab for d in gold_docs for s in d.spans)]
    counts = {kind: {lab: [0, 0, 0] for lab in labels} for kind in ("exact", "lenient")}
    for doc, pred in zip(gold_docs, predictions, strict=True):
        gold = {(s.start, s.end, s.label) for s in doc.spans if s.label in labels}
        pred = {tuple(p) for p in pred if p[2] in labels}
        for kind, hits in (("exact", gold & pred), ("lenient", _lenient_hits(list(gold), pred))):
            for lab in labels:
                c = counts[kind][lab]
                c[0] += sum(1 for h in hits if h[2] == lab)
                c[1] += sum(1 for p in pred if p[2] == lab)
                c[2] += sum(1 for g in gold if g[2] == lab)
    tables = {}
    for kind, by_label in counts.items():
        table = {lab: _prf(*c) for lab, c in by_label.items()}
        table["micro"] = _prf(*(sum(c[i] for c in by_label.values()) for i in range(3)))
        tables[kind] = table
    return Report(exact=tables["exact"], lenient=tables["lenient"], documents=len(gold_docs))


# --------------------------------------------------------------------------- running a pipeline


def predict_spans(nlp, texts: Sequence[str], batch_size: int = 64) -> list[list[tuple]]:
    """Run a spaCy pipeline; return each text's mentions as ``(start, end, label)``.

    Mentions are taken as the extractor takes them
    (:func:`paperkg.extract.mentions.mentions_from_doc`), so the score is the
    score of what reaches the graph.
    """
    from .mentions import mentions_from_doc

    out = []
    for doc in nlp.pipe(texts, batch_size=batch_size):
        mentions, _ = mentions_from_doc(doc)
        out.append([(m.start, m.end, m.label) for m in mentions])
    return out


def evaluate(
    nlp,
    gold_docs: Sequence[GoldDoc],
    fmt: str | None = None,
    predict: Callable[[Sequence[str]], list[list[tuple]]] | None = None,
) -> Report:
    """Run ``nlp`` over the gold texts and score it; ``fmt`` picks the labels scored.

    ``predict`` replaces :func:`predict_spans` (e.g. a baseline); it gets the
    texts and returns their ``(start, end, label)`` spans.
    """
    texts = [d.text for d in gold_docs]
    started = time.perf_counter()
    predictions = predict(texts) if predict else predict_spans(nlp, texts)
    seconds = time.perf_counter() - started
    report = score(gold_docs, predictions, CORPUS_LABELS.get(fmt) if fmt else None)
    report.seconds = seconds
    return report
