"""Read every input file into :class:`~paperkg.records.Paper` records.

One pass over the inputs, in the order given: each file is decoded, read by
the reader of its format, and every record is cleaned (:mod:`.latex`), given
a stable id (:mod:`.ids`) and checked against what was read before, so
exact duplicate abstracts are merged and a repeated id is skipped.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Literal

from ...errors import InputError
from ...records import Paper, ReadResult, SkippedRecord
from .bibtex import read_bibtex
from .fields import RawPaper
from .ids import normalise_abstract, normalise_doi, paper_id
from .jsonfmt import read_json, read_jsonl
from .latex import clean_text
from .sources import expand_paths, format_of, read_file_text
from .tabular import read_csv, read_tsv
from .text import read_text

__all__ = ["MAX_TEXT_CHARS", "read_inputs", "skip_line"]

logger = logging.getLogger(__name__)

#: characters of an abstract the pipeline reads: about 20 long abstracts. A longer
#: "abstract" is a full text or a broken export; it is read up to a sentence end
#: before this, and the build says so (spaCy refuses texts over 1,000,000 outright)
MAX_TEXT_CHARS = 50_000
#: UTF-16 halves without their pair (a JSON "\ud800"): no encoder writes them
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")

Reader = Callable[[str, str, list[str]], Iterator[RawPaper | SkippedRecord]]

READERS: dict[str, Reader] = {
    "text": read_text,
    "json": read_json,
    "jsonl": read_jsonl,
    "csv": read_csv,
    "tsv": read_tsv,
    "bibtex": read_bibtex,
}


def skip_line(skipped: SkippedRecord) -> str:
    """The one line that tells a user a record was skipped, and why.

    >>> skip_line(SkippedRecord("data.jsonl#7", "invalid JSON (Expecting value at column 1)"))
    'data.jsonl#7: invalid JSON (Expecting value at column 1); record skipped'
    """
    return f"{skipped.source}: {skipped.reason}; record skipped"


def read_inputs(
    paths: Iterable[str | Path],
    *,
    format: str | None = None,
    on_error: Literal["skip", "raise"] = "skip",
) -> ReadResult:
    """Read abstracts from files and globs into one :class:`~paperkg.records.ReadResult`.

    Parameters
    ----------
    paths
        Files or glob patterns (``"data/*.csv"``), read in the given order.
    format
        One of ``text``, ``json``, ``jsonl``, ``csv``, ``tsv``, ``bibtex`` for
        every file; by default each file's extension decides.
    on_error
        ``"skip"`` (the default) skips a bad record and reports it in
        ``ReadResult.skipped``; ``"raise"`` raises :class:`~paperkg.errors.InputError`
        with the same one-line reason, naming file and record, at the first one.

    Raises
    ------
    InputError
        A path matches no file, a file cannot be read or decoded, its format is
        unknown or its structure unusable (e.g. a CSV without an abstract
        column); with ``on_error="raise"``, also a bad record.

    Examples
    --------
    >>> result = read_inputs(["examples/iclr2025_abstracts.txt"])  # doctest: +SKIP
    >>> len(result.papers), result.papers[0].venue, result.papers[0].year  # doctest: +SKIP
    (19, 'ICLR', 2025)
    """
    if on_error not in ("skip", "raise"):
        raise ValueError(f"on_error must be 'skip' or 'raise', not {on_error!r}")
    files = expand_paths(paths)
    formats = {path: format_of(path, format) for path in files}
    result = _Collector(on_error)
    for path in files:
        content = read_file_text(path)
        before = len(result.result.papers)
        records = 0
        for item in READERS[formats[path]](path, content, result.result.notes):
            records += 1
            result.add(item)
        if records == 0:
            result.result.notes.append(f"{path}: no records found")
        logger.info("%s: %d papers read", path, len(result.result.papers) - before)
    return result.result


class _Collector:
    """Turns raw records into papers, merging duplicates and recording skips."""

    def __init__(self, on_error: str) -> None:
        self.on_error = on_error
        self.result = ReadResult()
        self.ids: dict[str, str] = {}  # paper id -> source of the paper that has it
        # digest of the normalised abstract -> paper id: 16 bytes a paper, not its text
        self.abstracts: dict[bytes, str] = {}

    def _without_lone_surrogates(self, item: RawPaper) -> RawPaper:
        """``item`` with lone surrogates replaced by U+FFFD, visibly, and a note saying so."""
        changed = {}
        for name, value in vars(item).items():
            if name == "notes":
                continue
            if isinstance(value, str) and _LONE_SURROGATE.search(value):
                changed[name] = _LONE_SURROGATE.sub("\ufffd", value)
            elif isinstance(value, list) and any(
                isinstance(v, str) and _LONE_SURROGATE.search(v) for v in value
            ):
                changed[name] = [
                    _LONE_SURROGATE.sub("\ufffd", v) if isinstance(v, str) else v for v in value
                ]
        if not changed:
            return item
        self.result.notes.append(
            f"{item.source}: lone surrogates (broken UTF-16) in {', '.join(sorted(changed))} "
            "replaced by U+FFFD"
        )
        return dataclasses.replace(item, **changed)

    def skip(self, skipped: SkippedRecord) -> None:
        if self.on_error == "raise":
            raise InputError(f"{skipped.source}: {skipped.reason}")
        logger.info(skip_line(skipped))
        self.result.skipped.append(skipped)

    def add(self, item: RawPaper | SkippedRecord) -> None:
        if isinstance(item, SkippedRecord):
            self.skip(item)
            return
        self.result.notes.extend(item.notes)
        item = self._without_lone_surrogates(item)
        if not item.abstract or not item.abstract.strip():
            self.skip(SkippedRecord(item.source, "no abstract"))
            return
        text, code_urls = clean_text(item.abstract)
        if text == item.abstract:
            text = item.abstract  # one string for both: most abstracts need no cleaning
        if not text:
            self.skip(SkippedRecord(item.source, "the abstract is empty once markup is removed"))
            return
        if len(text) > MAX_TEXT_CHARS:
            text = _cut(text, MAX_TEXT_CHARS)
            self.result.notes.append(
                f"{item.source}: the abstract is {len(item.abstract):,} characters, far more "
                f"than an abstract; mentions are found in its first {len(text):,} only"
            )
        doi = normalise_doi(item.doi) if item.doi else None
        pid = paper_id(item.id, doi, text)
        key = hashlib.blake2b(
            normalise_abstract(text).encode("utf-8", "surrogatepass"), digest_size=16
        ).digest()
        if key in self.abstracts:
            self.result.duplicates.append((item.source, self.abstracts[key]))
            logger.info("%s: same abstract as paper %s; merged", item.source, self.abstracts[key])
            return
        if pid in self.ids:
            self.skip(
                SkippedRecord(
                    item.source, f"duplicate id {pid!r} (first read from {self.ids[pid]})"
                )
            )
            return
        self.ids[pid] = item.source
        self.abstracts[key] = pid
        self.result.papers.append(
            Paper(
                id=pid,
                abstract=item.abstract,
                text=text,
                source=item.source,
                title=item.title,
                year=item.year,
                venue=item.venue,
                authors=item.authors,
                keywords=item.keywords,
                doi=doi,
                code_urls=code_urls,
                title_text=_cleaned_title(item.title),
            )
        )


def _cleaned_title(title: str | None) -> str | None:
    """``title`` cleaned for NLP; the same string object when cleaning changes nothing."""
    if not title:
        return None
    cleaned = clean_text(title)[0]
    return title if cleaned == title else cleaned


def _cut(text: str, limit: int) -> str:
    """``text`` up to the last sentence end before ``limit`` (else a word boundary)."""
    head = text[:limit]
    end = max(head.rfind(". "), head.rfind("? "), head.rfind("! "))
    if end > limit // 2:
        return head[: end + 1]
    space = head.rfind(" ")
    return head[:space] if space > limit // 2 else head
