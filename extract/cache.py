"""Extraction results kept per paper, so a rebuild extracts only what changed.

The spaCy pipeline is nearly all of a build's time; what it finds in a paper
depends only on the text it reads (``Paper.document``) and on the pipeline
itself. So each paper's mentions are stored under a key made of both:

* the **pipeline's identity** (:func:`pipeline_identity`): every file of the
  model folder, the source of paperkg's extraction code, paperkg's and spaCy's
  versions; a retrained model or an edited rule gives a new identity, and the old
  entries are simply never read again;
* the **content hash** of the text the pipeline reads.

Entries are small JSON files, written to a temporary file and renamed into
place (:func:`paperkg.atomic.atomic_open`), so a killed build never leaves a
half-written entry and two builds writing the same entry at once both leave a
whole one. A corrupt or unreadable entry counts as missing.

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
from dataclasses import asdict
from pathlib import Path

from ..atomic import atomic_open
from ..records import Mention, Paper, PaperMentions

__all__ = ["CACHE_ENV", "ExtractionCache", "default_cache_dir", "pipeline_identity"]

log = logging.getLogger(__name__)

#: environment variable that moves the cache (default: ~/.cache/paperkg)
CACHE_ENV = "PAPERKG_CACHE_DIR"
#: bump when the entry format changes
_FORMAT = 1
_CODE_DIRS = ("components",)
_CODE_FILES = ("extractor.py", "mentions.py", "pipeline.py", "acronym_match.py", "names.py")


def default_cache_dir() -> Path:
    """``$PAPERKG_CACHE_DIR``, else ``$XDG_CACHE_HOME/paperkg``, else ``~/.cache/paperkg``."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "paperkg"


def pipeline_identity(model_dir: str | Path | None) -> str:
    """A hash of everything that decides what the pipeline finds in a text."""
    from importlib.metadata import version

    from ..version import __version__

    digest = hashlib.sha256()
    digest.update(f"format {_FORMAT} paperkg {__version__} spacy {version('spacy')}".encode())
    here = Path(__file__).parent
    code = [here / name for name in _CODE_FILES]
    code += sorted(p for d in _CODE_DIRS for p in (here / d).glob("*.py"))
    files = sorted(Path(model_dir).rglob("*")) if model_dir is not None else []
    for path in [*code, *files]:
        if path.is_file():
            digest.update(str(path.name).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


class ExtractionCache:
    """Per-paper extraction results under ``folder/<identity>/``."""

    def __init__(self, folder: str | Path, *, identity: str) -> None:
        self.folder = Path(folder) / "extract" / identity[:24]
        self.hits = 0
        self.misses = 0

    def _path(self, paper: Paper) -> Path:
        key = hashlib.sha256(paper.document.encode("utf-8", "surrogatepass")).hexdigest()
        return self.folder / key[:2] / f"{key}.json"

    def has(self, paper: Paper) -> bool:
        """Whether an entry for ``paper``'s text is there (not whether it reads back)."""
        return self._path(paper).is_file()

    def get(self, paper: Paper) -> PaperMentions | None:
        """The stored result for ``paper``'s text (with ``paper`` as its record), or None."""
        path = self._path(paper)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
            if entry.get("document") != paper.document:
                raise ValueError("another text under this key")
            mentions = [Mention(**m) for m in entry["mentions"]]
            acronyms = dict(entry["acronyms"])
        except FileNotFoundError:
            self.misses += 1
            return None
        except (OSError, ValueError, KeyError, TypeError) as e:
            log.warning("extraction cache: ignoring %s (%s)", path, e)
            self.misses += 1
            return None
        self.hits += 1
        return PaperMentions(paper=paper, mentions=mentions, acronyms=acronyms)

    def put(self, result: PaperMentions) -> None:
        """Store one paper's result; a cache that cannot be written is only a slower build."""
        path = self._path(result.paper)
        entry = {
            "document": result.paper.document,
            "mentions": [asdict(m) for m in result.mentions],
            "acronyms": result.acronyms,
        }
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with atomic_open(path) as f:
                json.dump(entry, f, ensure_ascii=False)
        except (OSError, UnicodeEncodeError) as e:
            log.warning("extraction cache: cannot write %s (%s)", path, e)
