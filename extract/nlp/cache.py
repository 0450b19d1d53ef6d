"""Extraction results kept in one SQLite file, so a rebuild extracts only what changed.

The spaCy pipeline is nearly all of a build's time; what it finds in a paper
depends only on the text it reads (``Paper.document``) and on the pipeline
itself. So each paper's mentions are stored under a key made of both:

* the **pipeline's identity** (:func:`pipeline_identity`): every file of the
  model folder, the source of paperkg's extraction code, paperkg's and spaCy's
  versions; a retrained model or an edited rule gives a new identity, and the old
  rows are simply never read again;
* the **sha256 of the text** the pipeline reads.

The cache is one file, ``<folder>/extractions.sqlite`` (:data:`FILE_NAME`): delete it
to forget every extraction, or open it with any SQLite client. Its one table,
``extractions``, holds a row per pipeline and text: the text itself (so that a
hash collision is never taken for a hit), the mentions as a JSON list of
:class:`~paperkg.records.Mention` fields and the acronyms as a JSON object. JSON
in a column reads as fast as a table of one row per mention (NeurIPS 2023's
3,218 papers and 62,679 mentions: 0.36 s of CPU either way), in one plain row per
paper and a file 30% smaller.

A build asks which of its papers are stored in a few queries
(:meth:`ExtractionCache.stored`), reads their results a block of papers at a time
as its steps come to them (:class:`CachedRecords`, :meth:`ExtractionCache.get_many`)
and writes its new results in one transaction (:meth:`ExtractionCache.put_many`),
so a killed build leaves the cache as it was, or with all of its new results.
Builds sharing a folder take turns on the file through SQLite's own locks, a
writer waiting up to :data:`BUSY_SECONDS` for another. A file that is not a
database, a damaged one or one of another format is replaced (one warning naming
it); a cache that cannot be opened at all only makes the build slower (one
warning); neither fails a build.

Earlier versions of paperkg kept one JSON file per paper under
``<folder>/extract/``; this cache never reads them (delete that folder to get the
space back).

Examples
--------
>>> import tempfile
>>> from paperkg.records import Mention, Paper, PaperMentions
>>> cache = ExtractionCache(tempfile.mkdtemp(), identity="pipeline-1")
>>> paper = Paper(id="p1", abstract="We use BERT.", text="We use BERT.", source="x#1")
>>> cache.get(paper) is None
True
>>> cache.put(PaperMentions(paper, [Mention("BERT", "METHOD", 7, 11, "We use BERT.")]))
>>> [m.text for m in cache.get(paper).mentions]
['BERT']
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import fields
from functools import partial
from pathlib import Path

from ...records import Mention, Paper, PaperMentions
from ..corpus.record_blocks import RecordBlocks

__all__ = [
    "CACHE_ENV",
    "FILE_NAME",
    "CachedRecords",
    "ExtractionCache",
    "default_cache_dir",
    "pipeline_identity",
]

log = logging.getLogger(__name__)

#: environment variable that moves the cache (default: ~/.cache/paperkg)
CACHE_ENV = "PAPERKG_CACHE_DIR"
#: the cache's one file, inside the cache folder
FILE_NAME = "extractions.sqlite"
#: how long a build waits for another build's write to the same file
BUSY_SECONDS = 60.0
#: bump when the table or what a row holds changes (the file's ``PRAGMA user_version``)
_FORMAT = 2
#: papers per SELECT (SQLite allows 32,766 parameters; a few batches cost nothing)
_BATCH = 900
_MENTION_FIELDS = [field.name for field in fields(Mention)]
#: the code that decides what the pipeline finds, relative to ``extract/``
_CODE_DIRS = ("nlp/components",)
_CODE_FILES = (
    "nlp/extractor.py",
    "nlp/mentions.py",
    "nlp/pipeline.py",
    "acronym_match.py",
    "names.py",
)

_TABLE = """
CREATE TABLE IF NOT EXISTS extractions (
    pipeline TEXT NOT NULL,     -- pipeline_identity(): model files, code, versions
    text_sha256 TEXT NOT NULL,  -- of Paper.document, hex
    document TEXT NOT NULL,     -- Paper.document itself: a hash collision is not a hit
    mentions TEXT NOT NULL,     -- JSON list of objects with the fields of Mention
    acronyms TEXT NOT NULL,     -- JSON object: short form -> long form
    PRIMARY KEY (pipeline, text_sha256)
)
"""


def default_cache_dir() -> Path:
    """``$PAPERKG_CACHE_DIR``, else ``$XDG_CACHE_HOME/paperkg``, else ``~/.cache/paperkg``."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "paperkg"


def pipeline_identity(model_dir: str | Path | None) -> str:
    """A hash of everything that decides what the pipeline finds in a text."""
    from importlib.metadata import version

    from ...version import __version__

    digest = hashlib.sha256()
    digest.update(f"format {_FORMAT} paperkg {__version__} spacy {version('spacy')}".encode())
    extract = Path(__file__).parents[1]
    code = [extract / name for name in _CODE_FILES]
    missing = [str(path) for path in code if not path.is_file()]
    if missing:  # a moved file would silently leave the identity
        raise RuntimeError(f"pipeline_identity: code files moved or gone: {missing}")
    code += sorted(p for d in _CODE_DIRS for p in (extract / d).glob("*.py"))
    files = sorted(Path(model_dir).rglob("*")) if model_dir is not None else []
    for path in [*code, *files]:
        if path.is_file():
            digest.update(str(path.name).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def text_hash(document: str) -> str:
    """The key of a text in the cache: its sha256, in hex."""
    return hashlib.sha256(document.encode("utf-8", "surrogatepass")).hexdigest()


class ExtractionCache:
    """The extraction results of one pipeline in ``folder/extractions.sqlite``.

    ``hits`` and ``misses`` count the papers :meth:`get_many` found and did not find.
    """

    def __init__(self, folder: str | Path, *, identity: str) -> None:
        self.path = Path(folder) / FILE_NAME
        self.identity = identity
        self.hits = 0
        self.misses = 0

    def get_many(self, papers: Sequence[Paper]) -> list[PaperMentions | None]:
        """The stored result of each paper's text (with the paper as its record), or None."""
        keys = [text_hash(paper.document) for paper in papers]
        stored = self._read(_select, keys)
        results = [_result(p, stored.get(key)) for p, key in zip(papers, keys, strict=True)]
        found = sum(result is not None for result in results)
        self.hits += found
        self.misses += len(results) - found
        return results

    def stored(self, papers: Sequence[Paper]) -> list[bool]:
        """Whether the cache holds each paper's result, read without decoding it (a
        build reads the results later, a block at a time: :class:`CachedRecords`)."""
        keys = [text_hash(paper.document) for paper in papers]
        documents = self._read(partial(_rows, columns="document"), keys)
        return [documents.get(k) == p.document for p, k in zip(papers, keys, strict=True)]

    def _read(self, select: Callable, keys: list[str]) -> dict:
        """``dict(select(db, identity, keys))`` over the cache file; empty when it cannot
        be read (a build then extracts every paper) or is no cache (it is replaced)."""
        try:
            with self._database() as db:
                return dict(select(db, self.identity, sorted(set(keys))))
        except (sqlite3.OperationalError, OSError) as e:  # locked too long, or no access
            log.warning(
                "extraction cache: cannot read %s (%s); extracting every paper", self.path, e
            )
        except sqlite3.DatabaseError as e:  # not a database, a damaged one, another format
            self._start_again(e)
        return {}

    def put_many(self, results: Sequence[PaperMentions]) -> None:
        """Store these results in one transaction; a cache that cannot be written is only a
        slower next build."""
        rows = [
            (
                self.identity,
                text_hash(result.paper.document),
                result.paper.document,
                json.dumps([_fields(m) for m in result.mentions], ensure_ascii=False),
                json.dumps(result.acronyms, ensure_ascii=False),
            )
            for result in results
        ]
        if not rows:
            return
        try:
            with self._database() as db, db:  # the second `db`: one transaction
                db.executemany("INSERT OR REPLACE INTO extractions VALUES (?, ?, ?, ?, ?)", rows)
        except (sqlite3.OperationalError, OSError) as e:
            log.warning("extraction cache: cannot write %s (%s)", self.path, e)
        except sqlite3.DatabaseError as e:
            self._start_again(e)

    def get(self, paper: Paper) -> PaperMentions | None:
        """The stored result for ``paper``'s text, or None (one paper of :meth:`get_many`)."""
        return self.get_many([paper])[0]

    def put(self, result: PaperMentions) -> None:
        """Store one paper's result (a transaction of its own: prefer :meth:`put_many`)."""
        self.put_many([result])

    @contextmanager
    def _database(self) -> Iterator[sqlite3.Connection]:
        """The cache file, open (made with its table if new), closed after use."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=BUSY_SECONDS)
        try:
            found = db.execute("PRAGMA user_version").fetchone()[0]
            if found == 0:  # a new file (or one made by hand): give it the table
                db.execute(_TABLE)
                db.execute(f"PRAGMA user_version = {_FORMAT}")
            elif found != _FORMAT:
                raise sqlite3.DatabaseError(f"cache format {found}, this paperkg uses {_FORMAT}")
            yield db
        finally:
            db.close()

    def _start_again(self, error: sqlite3.DatabaseError) -> None:
        """Remove a file that cannot serve as the cache, so the next write makes a new one."""
        log.warning("extraction cache: replacing %s (%s)", self.path, error)
        try:
            self.path.unlink(missing_ok=True)
            # a journal left beside it belongs to the removed file, never to the new one
            Path(f"{self.path}-journal").unlink(missing_ok=True)
        except OSError as e:
            log.warning("extraction cache: cannot remove %s (%s)", self.path, e)


def _fields(mention: Mention) -> dict:
    """A mention as a JSON object (``dataclasses.asdict`` copies deeply: 3x slower)."""
    return {name: getattr(mention, name) for name in _MENTION_FIELDS}


def _rows(db: sqlite3.Connection, identity: str, keys: list[str], columns: str) -> Iterator[tuple]:
    """``(text hash, *columns)`` of each of ``keys`` stored for ``identity``, a batch of
    :data:`_BATCH` keys per query (a corpus's rows are never all in memory at once)."""
    for start in range(0, len(keys), _BATCH):
        batch = keys[start : start + _BATCH]
        marks = ", ".join("?" * len(batch))  # placeholders only: the keys are parameters
        query = (
            f"SELECT text_sha256, {columns} FROM extractions "
            f"WHERE pipeline = ? AND text_sha256 IN ({marks})"
        )
        yield from db.execute(query, [identity, *batch])


def _select(
    db: sqlite3.Connection, identity: str, keys: list[str]
) -> Iterator[tuple[str, tuple[str, list[Mention], dict[str, str]]]]:
    """``(text hash, (document, mentions, acronyms))`` of each of ``keys`` stored for
    ``identity``, decoded as each batch of rows arrives."""
    for key, document, mentions, acronyms in _rows(
        db, identity, keys, "document, mentions, acronyms"
    ):
        try:
            found = [Mention(**fields) for fields in json.loads(mentions)]
            yield key, (document, found, dict(json.loads(acronyms)))
        except (ValueError, TypeError) as e:  # a row damaged by hand: extract it again
            log.warning("extraction cache: ignoring the row of text %s (%s)", key, e)


class CachedRecords(RecordBlocks):
    """Each paper's result: the one the build extracted (``fresh``: index -> result),
    else the cache's, read when a stage reads it, a block of papers at a time.

    ``papers`` are the build's papers, whose results :meth:`ExtractionCache.stored`
    said the cache holds unless they are in ``fresh``. A stored result that does not
    read back (a row damaged meanwhile) is extracted again by ``extract_again`` and
    stored.
    """

    def __init__(
        self,
        cache: ExtractionCache,
        papers: Sequence[Paper],
        fresh: dict[int, PaperMentions],
        extract_again: Callable[[list[Paper]], list[PaperMentions]],
    ) -> None:
        super().__init__(len(papers))
        self.cache = cache
        self.papers = papers
        self.fresh = fresh
        self.extract_again = extract_again

    def _make(self, first: int, last: int) -> list[PaperMentions]:
        wanted = [i for i in range(first, last) if i not in self.fresh]
        found = self.cache.get_many([self.papers[i] for i in wanted]) if wanted else []
        stored = dict(zip(wanted, found, strict=True))
        lost = [i for i, result in stored.items() if result is None]
        if lost:
            again = self.extract_again([self.papers[i] for i in lost])
            self.cache.put_many(again)
            self.fresh.update(zip(lost, again, strict=True))
        return [self.fresh.get(i) or stored[i] for i in range(first, last)]


def _result(
    paper: Paper, stored: tuple[str, list[Mention], dict[str, str]] | None
) -> PaperMentions | None:
    """``paper``'s result, or None if nothing is stored for its text or it is another text's."""
    if stored is None:
        return None
    document, mentions, acronyms = stored
    if document != paper.document:  # two texts with one sha256: never seen, never trusted
        return None
    # copies: two papers with one text must not share a list a later stage may change
    return PaperMentions(paper=paper, mentions=list(mentions), acronyms=dict(acronyms))
