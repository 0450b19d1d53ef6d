"""Every paper's records, made a block of papers at a time when a stage reads them.

The corpus steps before the table of mentions (the terms found again across the
corpus, what titles name) read each paper's records in order, and each paper on
its own once the corpus-wide counts are known. Holding the records of a whole
corpus at once costs about a gigabyte at 100,000 papers; these views make
:data:`RECORD_BLOCK` papers' records when a stage reads them, from wherever they
come from: the extraction cache
(:class:`~paperkg.extract.nlp.cache.CachedRecords`), another view with a change
made to each paper (:class:`ChangedRecords`), or the table of mentions
(:class:`~.mention_table.MentionRecords`).

A view of a large corpus reads its source again each time it is read: reading
twice gives equal records, not always the same objects, and a record changed by a
stage changes nothing in the view. A view of at most :data:`KEPT_PAPERS` papers
keeps the records it made: their memory is small, and the steps read each
paper's records three or four times (a cached rebuild of NeurIPS 2023's 3,218
papers spends 1.3 s less).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from ...records import PaperMentions

__all__ = ["KEPT_PAPERS", "RECORD_BLOCK", "ChangedRecords", "RecordBlocks"]

#: papers whose records a view makes at a time
RECORD_BLOCK = 1024
#: a view of at most this many papers keeps the records it made (about 75 MB)
KEPT_PAPERS = 10_000


class RecordBlocks(Sequence[PaperMentions]):
    """A sequence of ``length`` papers' records made by :meth:`_make` a block at a time;
    the block last read by index is kept, so papers read one by one cost one block each
    :data:`RECORD_BLOCK`."""

    def __init__(self, length: int) -> None:
        self._length = length
        #: the block of papers read by index last: its first paper and its records
        self._block: tuple[int, list[PaperMentions]] = (-1, [])
        #: every block made, by its first and last paper, in a view small enough to keep
        self._kept: dict[tuple[int, int], list[PaperMentions]] | None = (
            {} if length <= KEPT_PAPERS else None
        )

    def _make(self, first: int, last: int) -> list[PaperMentions]:
        """The records of papers ``first`` to ``last - 1``."""
        raise NotImplementedError

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step == 1:
                return [r for block in self._blocks(start, max(start, stop)) for r in block]
            return [self[i] for i in range(start, stop, step)]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"paper {index} of {len(self)}")
        block = index - index % RECORD_BLOCK
        if self._block[0] != block:
            self._block = (block, self._made(block, min(block + RECORD_BLOCK, len(self))))
        return self._block[1][index - block]

    def __iter__(self) -> Iterator[PaperMentions]:
        for block in self._blocks(0, len(self)):
            yield from block

    def _blocks(self, first: int, last: int) -> Iterator[list[PaperMentions]]:
        for start in range(first, last, RECORD_BLOCK):
            yield self._made(start, min(start + RECORD_BLOCK, last))

    def _made(self, first: int, last: int) -> list[PaperMentions]:
        """:meth:`_make`, or the block kept from an earlier read."""
        if self._kept is None:
            return self._make(first, last)
        if (first, last) not in self._kept:
            self._kept[(first, last)] = self._make(first, last)
        return self._kept[(first, last)]


class ChangedRecords(RecordBlocks):
    """``change(index, record)`` of each of ``records``, made when read.

    >>> from paperkg.records import Paper
    >>> papers = [PaperMentions(Paper(id=i, abstract="", text="", source="t"), []) for i in "ab"]
    >>> upper = ChangedRecords(papers, lambda i, r: PaperMentions(r.paper, [], {"i": str(i)}))
    >>> [r.acronyms for r in upper]
    [{'i': '0'}, {'i': '1'}]
    """

    def __init__(
        self,
        records: Sequence[PaperMentions],
        change: Callable[[int, PaperMentions], PaperMentions],
    ) -> None:
        super().__init__(len(records))
        self.records = records
        self.change = change

    def _make(self, first: int, last: int) -> list[PaperMentions]:
        source = self.records[first:last]
        return [self.change(i, r) for i, r in enumerate(source, first)]
