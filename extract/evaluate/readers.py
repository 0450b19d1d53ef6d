"""Read annotated corpora (SciERC, SciER, TDMSci, SciREX) into :class:`~.gold.GoldDoc`.

Why one reader per format behind :func:`read_gold`: every corpus spells its
types, tokens and offsets its own way; past this module they are one plain form
labelled with paperkg's entity labels (``METHOD``, ``DATASET``, ``TASK``,
``METRIC``), and a malformed file is one line naming its record, not a traceback.

Type mapping
    SciERC: Method->METHOD, Task->TASK, Material->DATASET, Metric->METRIC;
    OtherScientificTerm and Generic are dropped.
    SciER: Method->METHOD, Task->TASK, Dataset->DATASET.
    TDMSci: TASK, DATASET, METRIC (it has no METHOD).
    SciREX: as SciERC, on the title and abstract of each paper.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterable, Sequence
from pathlib import Path

from ...errors import InputError
from .gold import GoldDoc, GoldSpan, doc_from_tokens

logger = logging.getLogger(__name__)

__all__ = [
    "CORPUS_LABELS",
    "FORMATS",
    "read_gold",
    "read_scier",
    "read_scierc",
    "read_scirex",
    "read_tdmsci",
]

#: Gold formats :func:`read_gold` understands.
FORMATS = ("scierc", "scier", "tdmsci", "scirex")

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
            docs.append(doc_from_tokens(doc_id, tokens, spans, join_digits=join_digits))
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
            docs.append(doc_from_tokens(doc_id, tokens, spans, join_digits=True))
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
            docs.append(doc_from_tokens(doc_id, [words[k] for k in keep], spans))
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
