"""paperkg's own in-domain annotations as gold documents, for training and scoring the NER.

Why a reader of its own: the annotations in ``bench/judged/annotations/`` keep no
text, only each paper's id and each mention's field (``title`` or ``abstract``),
offsets and surface (``bench/judged/GUIDE.md``, section 5), so they are read
together with the input files that hold the papers. A paper's gold text is what
the NER reads, :attr:`~paperkg.records.Paper.document`, made from the abstract as
it was annotated (the raw one, LaTeX and all). Its spans are the mentions of its
*specific* concepts: the guide asks for every specific concept, so every other
word, a listed generic phrase included, is outside any mention.

A paper missing from the inputs, or whose text no longer holds a mention's
surface at its offsets (the input changed since it was annotated), is one
warning naming it, and is left out.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path

from ...errors import InputError
from ...records import Paper
from .gold import GoldDoc, GoldSpan

logger = logging.getLogger(__name__)

__all__ = ["read_annotations"]

#: the annotations' labels as the NER's
_LABELS = {"Method": "METHOD", "Dataset": "DATASET", "Task": "TASK", "Metric": "METRIC"}


def read_annotations(
    paths: Iterable[str | Path], papers: Mapping[str, Paper]
) -> dict[str, list[GoldDoc]]:
    """The annotated papers of ``paths`` (JSON lines) as gold documents, by split
    (``train``, ``select``, ``test``, as each row says), in file and line order;
    ``papers``: the papers the rows name, by id."""
    splits: dict[str, list[GoldDoc]] = {}
    for path in map(Path, paths):
        for number, row in _rows(path):
            where = f"{path}:{number}"
            paper = papers.get(row["paper_id"])
            if paper is None:
                logger.warning(
                    "%s: paper %s is not in the inputs; left out", where, row["paper_id"]
                )
                continue
            doc = _gold_doc(paper, row, where)
            if doc is not None:
                splits.setdefault(row.get("split", "train"), []).append(doc)
    return splits


def _rows(path: Path) -> Iterable[tuple[int, dict]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise InputError(f"{path}: cannot read the annotations ({e.strerror})") from e
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(f"{path}:{number}: not a JSON object ({e.msg})") from None
        if not isinstance(row, dict) or "paper_id" not in row or "concepts" not in row:
            raise InputError(f"{path}:{number}: an annotation needs paper_id and concepts")
        yield number, row


def _gold_doc(paper: Paper, row: dict, where: str) -> GoldDoc | None:
    """The paper's document with its specific concepts' mentions, or None (warned)
    when a mention's surface is no longer at its offsets."""
    annotated = replace(paper, text=paper.abstract, title_text=None)
    text = annotated.document
    title = paper.title or ""
    shift = {
        "title": len(title.lstrip()) - len(title),  # the document's title is stripped
        "abstract": annotated.abstract_start,
    }
    spans = []
    for concept in row["concepts"]:
        if not concept.get("specific") or concept.get("label") not in _LABELS:
            continue
        for field, start, end, surface in concept.get("mentions", []):
            if field not in shift:
                raise InputError(f"{where}: a mention in {field!r}; expected title or abstract")
            start, end = start + shift[field], end + shift[field]
            if text[start:end] != surface:
                logger.warning(
                    "%s: paper %s no longer reads %r at %s %d; left out",
                    where, row["paper_id"], surface, field, start,
                )  # fmt: skip
                return None
            spans.append(GoldSpan(start, end, _LABELS[concept["label"]]))
    return GoldDoc(id=row["paper_id"], text=text, spans=sorted(spans))
