"""The mentions of a corpus as one table: a row per mention, a column per field.

Extraction gives one :class:`~paperkg.records.PaperMentions` per paper, which is
what a paper's own steps want. The corpus steps ask about all mentions at once
("which label do most mentions of this name have?", "which papers name both
of these concepts?"), and for them the mentions are one table,
:func:`mention_table`, made once the corpus's mentions are all found (after the
corpus terms and the titles' proposals):

============  ========  ===================================================
column        type      what it holds
============  ========  ===================================================
paper         int32     the paper: its index in the list of results
mention       int32     the mention: its index in its paper's mentions
start, end    int32     character offsets into ``Paper.document``
text          category  the words of the text that were tagged
label         category  ``METHOD``, ``DATASET``, ``TASK`` or ``METRIC``
name          category  what the mention names: its long form when it is an
                        acronym its paper defines, else its text
key           category  the name's :func:`~paperkg.extract.resolve.canonical_key`
                        (``""`` for a generic phrase such as "our method")
proposed      bool      the paper introduces the thing
corpus_match  bool      found only as a corpus term, not by the NER
sentence      category  the sentence the mention is in (the graph's evidence)
long_form     category  the long form its paper gives an acronym (else missing)
============  ========  ===================================================

Rows are in corpus order: paper by paper, each paper's mentions in their order.
The string columns are dictionary-encoded (pandas categoricals): each distinct
string is stored once and each row holds a small integer code, as spaCy's DocBin
keeps tokens (arrays of ints plus one string store). A function of a string,
such as the canonical key of a name, then runs once per distinct string, not
once per mention.

Before the table, a rebuild reads each paper's records from the extraction cache
as a step comes to it, a block of papers at a time (:mod:`.record_blocks`), and
the table is made :data:`TABLE_BLOCK` papers at a time. Once it is made, it is
where the corpus's mentions live, and the stages after it that still read a
paper's mentions as :class:`~paperkg.records.PaperMentions` (resolution, the
generic concepts, the graph builder) read them through :class:`MentionRecords`,
which makes each paper's records from the table's rows as a stage comes to it.
A rebuild's mentions are then never one Python object each all at once, only a
block of papers' (:data:`~.record_blocks.RECORD_BLOCK`) and whatever a step keeps
of them; a first build holds the records it extracted until the table is made.

On a Dask cluster
-----------------
The corpus steps that read the table are group-bys and a sparse product, so
they run the same on a Dask DataFrame, partition by partition, when the table
outgrows one machine. ``paperkg build --dask ADDRESS`` sends two of them to
the cluster (the table as a Dask DataFrame of :data:`PARTITION_ROWS`-row
partitions):

* the label vote, :func:`~paperkg.extract.corpus.labels.choose_labels_on_dask`: the
  votes are summed per key and label on the workers, and only the sums (a row
  per key and label) and each key's first name come back;
* the co-occurrence count,
  :func:`~paperkg.graph.incidence.count_cooccurrences_on_dask`: the paper x
  concept rows are shuffled so that each paper's rows are in one partition,
  each partition counts its pairs with the sparse product, and the counts are
  summed per pair.

The graph is the same as in memory (the tests build both on a real
``LocalCluster``). What else would move the same way:

* the paper and mention counts of each concept node, the concept map's
  incidence and the corpus terms' agreement (how often a phrase is tagged, with
  which label, in how many papers) are group-bys over this table or the paper x
  concept rows;
* the titles' count of the papers that define each acronym is a group-by over
  the acronym definitions;
* the table itself could be made on the workers, each extraction chunk
  returning its partition (or writing it to Parquet) instead of records.

What does not yet:

* the table is made here, in one process, from records read a block at a time
  (the corpus terms and the titles' proposals still read records): a corpus
  whose table does not fit in one machine's memory does not fit yet;
* concept resolution (keys merged by union-find over spelling variants, acronym
  votes, near-duplicate names) needs every name of the corpus in one place; it
  works on the distinct names, far fewer than the mentions, so it stays here;
* the graph is built and written by networkx in this process, from the
  aggregates.

Examples
--------
>>> from paperkg.records import Mention, Paper, PaperMentions
>>> paper = Paper(id="p1", abstract="", text="", source="x")
>>> found = PaperMentions(paper, [Mention("GNNs", "METHOD", 0, 4, ""),
...                               Mention("GNN", "METHOD", 9, 12, "")],
...                       acronyms={"GNN": "graph neural network"})
>>> table = mention_table([found])
>>> table[["paper", "mention", "text", "key"]].to_dict("list")
{'paper': [0, 0], 'mention': [0, 1], 'text': ['GNNs', 'GNN'], 'key': ['gnn', 'graph neural network']}
>>> records = MentionRecords([paper], [found.acronyms], table)
>>> records[0] == found
True
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from ...records import Mention, Paper, PaperMentions
from ..resolve.keys import canonical_key
from .record_blocks import RECORD_BLOCK, RecordBlocks

__all__ = [
    "PARTITION_ROWS",
    "TABLE_BLOCK",
    "MentionRecords",
    "mention_table",
    "mention_table_and_acronyms",
    "name_of",
]

#: rows of the table in each partition when it goes to a Dask cluster (about 10 MB)
PARTITION_ROWS = 500_000
#: papers whose rows :func:`mention_table` makes at a time
TABLE_BLOCK = 8 * RECORD_BLOCK
#: the columns a :class:`~paperkg.records.Mention` is made of, in its fields' order
_MENTION_COLUMNS = (
    "text", "label", "start", "end", "sentence", "proposed", "long_form", "corpus_match",
)  # fmt: skip


def name_of(mention: Mention, acronyms: dict[str, str]) -> str:
    """What a mention names: its long form when it is an acronym its paper defines
    (``acronyms``: the paper's short form -> long form)."""
    return mention.long_form or acronyms.get(mention.text) or mention.text


def mention_table(results: Sequence[PaperMentions]) -> pd.DataFrame:
    """The mentions of ``results`` as one table, a row per mention, in corpus order
    (the columns are in the module's docstring)."""
    return mention_table_and_acronyms(results)[0]


def mention_table_and_acronyms(
    results: Sequence[PaperMentions],
) -> tuple[pd.DataFrame, list[dict[str, str]]]:
    """:func:`mention_table`, and each paper's acronyms (short form -> long form), in
    one read of ``results``, :data:`TABLE_BLOCK` papers' records at a time, so a view
    of records (:mod:`.record_blocks`) is never all made at once. Each column grows
    as the blocks are read: the numbers in arrays, the strings as a code per row and
    each distinct string once (:class:`_Codes`)."""
    numbers = {name: array("i") for name in ("paper", "mention", "start", "end")}
    flags = {name: array("b") for name in ("proposed", "corpus_match")}
    strings = {name: _Codes() for name in ("text", "label", "name", "sentence", "long_form")}
    acronyms = []
    for first in range(0, len(results), TABLE_BLOCK):
        block = results[first : first + TABLE_BLOCK]
        for paper, result in enumerate(block, first):
            acronyms.append(result.acronyms)
            mentions = result.mentions
            numbers["paper"].extend([paper] * len(mentions))
            numbers["mention"].extend(range(len(mentions)))
            numbers["start"].extend(m.start for m in mentions)
            numbers["end"].extend(m.end for m in mentions)
            flags["proposed"].extend(m.proposed for m in mentions)
            flags["corpus_match"].extend(m.corpus_match for m in mentions)
            strings["text"].add(m.text for m in mentions)
            strings["label"].add(m.label for m in mentions)
            strings["name"].add(name_of(m, result.acronyms) for m in mentions)
            strings["sentence"].add(m.sentence for m in mentions)
            strings["long_form"].add(m.long_form for m in mentions)
    columns = {name: np.frombuffer(values, dtype=np.int32) for name, values in numbers.items()}
    columns.update(
        {name: np.frombuffer(v, dtype=np.int8).astype(bool) for name, v in flags.items()}
    )
    columns.update({name: codes.categorical() for name, codes in strings.items()})
    table = pd.DataFrame({name: columns[name] for name in _COLUMNS if name != "key"})
    table.insert(_COLUMNS.index("key"), "key", _keys(columns["name"]))
    return table, acronyms


#: the table's columns, in order
_COLUMNS = (
    "paper", "mention", "start", "end", "text", "label", "name", "key", "proposed",
    "corpus_match", "sentence", "long_form",
)  # fmt: skip


def _keys(names: pd.Categorical) -> pd.Categorical:
    """The canonical key of each name, computed once per distinct name."""
    key_of = _Codes()
    key_of.add(canonical_key(name, "") for name in names.categories)
    codes = np.append(np.frombuffer(key_of.codes, dtype=np.int32), -1)  # -1: no name
    return _categorical(list(key_of.code_of), codes[names.codes])


class _Codes:
    """A string column read a block at a time: a code per row (-1 for None) and each
    distinct string once, as a pandas categorical at the end, with its categories
    sorted as ``pd.Categorical`` sorts them.

    The categories are the Python strings the records held (``dtype=object``), not
    an Arrow copy: pandas 3 would check an Arrow index's uniqueness through a
    Python copy of every string and keep both, and the records a stage reads back
    from the table share these strings instead of each making its own."""

    def __init__(self) -> None:
        self.code_of: dict[str, int] = {}
        self.codes = array("i")

    def add(self, values: Iterable[str | None]) -> None:
        code_of = self.code_of
        self.codes.extend(-1 if v is None else code_of.setdefault(v, len(code_of)) for v in values)

    def categorical(self) -> pd.Categorical:
        distinct = list(self.code_of)
        self.code_of = {}
        return _categorical(distinct, np.frombuffer(self.codes, dtype=np.int32))


def _categorical(distinct: list[str], codes: np.ndarray) -> pd.Categorical:
    """A categorical of the strings ``distinct[code]`` (missing where the code is -1),
    its categories sorted as ``pd.Categorical`` sorts them (see :class:`_Codes`)."""
    order = sorted(range(len(distinct)), key=distinct.__getitem__)
    rank = np.empty(len(order) + 1, dtype=np.int32)  # the last: -1 stays -1
    rank[order] = np.arange(len(order), dtype=np.int32)
    rank[-1] = -1
    categories = pd.Index([distinct[i] for i in order], dtype=object)
    return pd.Categorical.from_codes(rank[codes], categories=categories)


class MentionRecords(RecordBlocks):
    """Each paper's :class:`~paperkg.records.PaperMentions`, made from the table of
    mentions when a stage reads it (:mod:`.record_blocks`).

    ``papers`` and ``acronyms`` (each paper's short form -> long form) are in the
    order of the table's ``paper`` column; the mentions' fields come from the
    table's columns (its labels, so the voted ones). A record changed by a stage
    changes nothing here (write a column of the table instead).
    """

    def __init__(
        self, papers: Sequence[Paper], acronyms: Sequence[dict[str, str]], table: pd.DataFrame
    ) -> None:
        if not len(papers) == len(acronyms):
            raise ValueError(f"{len(papers)} papers but {len(acronyms)} papers' acronyms")
        super().__init__(len(papers))
        self.papers = papers
        self.acronyms = acronyms
        self.table = table
        counts = np.bincount(table["paper"].to_numpy(), minlength=len(papers))
        if len(counts) > len(papers):
            raise ValueError(f"the table has rows of paper {len(counts) - 1}: {len(papers)} given")
        #: the table's first row of each paper, and one past the last paper's last row
        self._starts = np.concatenate(([0], np.cumsum(counts))).tolist()

    def _make(self, first: int, last: int) -> list[PaperMentions]:
        starts = self._starts
        offset = starts[first]
        mentions = self._mentions(offset, starts[last])
        return [
            PaperMentions(
                self.papers[paper],
                mentions[starts[paper] - offset : starts[paper + 1] - offset],
                self.acronyms[paper],
            )
            for paper in range(first, last)
        ]

    def _mentions(self, first: int, last: int) -> list[Mention]:
        """The mentions of the table's rows ``first`` to ``last - 1``."""
        columns = []
        for name in _MENTION_COLUMNS:
            column = self.table[name]
            if isinstance(column.dtype, pd.CategoricalDtype):
                columns.append(_strings(column, first, last))
            else:
                columns.append(column.to_numpy()[first:last].tolist())
        return [Mention(*fields) for fields in zip(*columns, strict=True)]


def _strings(column: pd.Series, first: int, last: int) -> list[str | None]:
    """The values of a categorical column's rows ``first`` to ``last - 1`` (None where
    missing), each distinct one made once."""
    categories = column.cat.categories
    if len(categories) == 0:  # every value missing
        return [None] * (last - first)
    codes = column.cat.codes.to_numpy()[first:last]
    used, inverse = np.unique(codes, return_inverse=True)
    values = categories.take(np.maximum(used, 0)).tolist()
    values = [value if code >= 0 else None for value, code in zip(values, used, strict=True)]
    return [values[i] for i in inverse.tolist()]
