"""Input readers: files of abstracts in, :class:`~paperkg.records.Paper` records out.

:func:`read_inputs` reads plain text, JSON, JSON Lines, CSV, TSV and BibTeX
files (by extension, or ``format=``), cleans LaTeX for NLP while keeping the
original abstract, gives each paper a stable id and merges exact duplicates.

One module per job: :mod:`.sources` (paths, globs, formats), :mod:`.text`,
:mod:`.jsonfmt`, :mod:`.tabular` (+ :mod:`.csvrepair`), :mod:`.bibtex` (one
reader per format), :mod:`.fields` (column matching), :mod:`.header`
(headings of text files), :mod:`.latex` (cleaning), :mod:`.ids` (ids) and
:mod:`.inputs` (putting it together).
"""

from ...records import Paper, ReadResult, SkippedRecord
from .inputs import read_inputs, skip_line
from .latex import clean_text
from .sources import FORMATS

__all__ = [
    "FORMATS",
    "Paper",
    "ReadResult",
    "SkippedRecord",
    "clean_text",
    "read_inputs",
    "skip_line",
]
