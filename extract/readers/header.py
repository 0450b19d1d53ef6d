"""Tell a heading from an abstract, and read the venue and year a heading names.

A plain-text file often starts with a line such as ``"ICLR 2025 论文列表"``
("ICLR 2025 paper list"). That is not a paper; when it names a venue and a
year, every paper of the file gets them.

>>> looks_like_heading("ICLR 2025 论文列表")
True
>>> looks_like_heading("We propose X. It beats Y on Z.")
False
>>> venue_and_year("ICLR 2025 论文列表")
('ICLR', 2025)
>>> venue_and_year("Accepted papers, NeurIPS 2023 (main track)")
('NeurIPS', 2023)
"""

from __future__ import annotations

import re

__all__ = ["KNOWN_VENUES", "looks_like_heading", "venue_and_year"]

#: Venues spelled the way their organisers spell them; matched case-insensitively.
KNOWN_VENUES = (
    "NeurIPS", "NIPS", "ICLR", "ICML", "AAAI", "IJCAI", "UAI", "AISTATS", "COLT", "TMLR", "JMLR",
    "ACL", "EMNLP", "NAACL", "EACL", "AACL", "COLING", "CoNLL", "LREC", "TACL", "INTERSPEECH",
    "ICASSP", "CVPR", "ICCV", "ECCV", "WACV", "BMVC", "MICCAI", "TPAMI", "KDD", "WWW", "WSDM",
    "SIGIR", "CIKM", "ICDM", "RecSys", "CHI", "CoRL", "ICRA", "IROS", "RSS", "ISMB", "MLSys",
)  # fmt: skip

#: A heading is short: at most this many words and characters.
MAX_HEADING_WORDS = 15
MAX_HEADING_CHARS = 150

_YEAR = re.compile(r"(?<!\d)(19\d\d|20\d\d)(?!\d)")
_SENTENCE_END = re.compile(r"[.!?。！？](?:[\"')\]]*)(?:\s|$)")
# a generic venue: a token of 2-10 letters, mostly upper case (MIDL, SaTML, NeurIPS)
_VENUE_TOKEN = re.compile(r"(?<![A-Za-z])([A-Za-z]{2,10})(?![A-Za-z])")


def looks_like_heading(paragraph: str) -> bool:
    """True when ``paragraph`` is a short title or heading rather than an abstract.

    An abstract is made of sentences; a heading is short and has no
    sentence-ending punctuation at all.
    """
    text = " ".join(paragraph.split()).lstrip("#").strip()
    if not text or len(text) > MAX_HEADING_CHARS or len(text.split()) > MAX_HEADING_WORDS:
        return False
    return not _SENTENCE_END.search(text)


def venue_and_year(heading: str) -> tuple[str | None, int | None]:
    """The venue and year a heading names, each None when it names none."""
    year_match = _YEAR.search(heading)
    year = int(year_match.group(1)) if year_match else None
    known = {v.casefold(): v for v in KNOWN_VENUES}
    tokens = [m for m in _VENUE_TOKEN.finditer(heading)]
    for token in tokens:
        if token.group(1).casefold() in known:
            return known[token.group(1).casefold()], year
    for token in tokens:
        word = token.group(1)
        upper = sum(c.isupper() for c in word)
        if upper >= 2 and upper >= len(word) / 2:
            return word, year
    return None, year
