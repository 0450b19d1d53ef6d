"""Stable paper ids, so rebuilding from the same inputs never duplicates a paper.

A paper's id is, in order of preference: the id its record gives, its DOI
(normalised), or ``"h"`` + the first 12 hex digits of the SHA-1 of its
normalised abstract.

>>> normalise_doi("https://doi.org/10.1000/ABC.1")
'10.1000/abc.1'
>>> paper_id(None, None, "We  propose X.") == paper_id(None, None, "we propose x.")
True
>>> paper_id(None, None, "We propose X.")
'h547729ac3147'
"""

from __future__ import annotations

import hashlib
import re

__all__ = ["normalise_abstract", "normalise_doi", "paper_id"]

_DOI_PREFIX = re.compile(r"^\s*(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)


def normalise_doi(doi: str) -> str:
    """Lower-case a DOI and strip ``https://doi.org/`` or ``doi:`` in front of it."""
    return _DOI_PREFIX.sub("", doi).strip().lower()


def normalise_abstract(cleaned: str) -> str:
    """The key two abstracts share when they are the same text: casefolded, spaces collapsed.

    ``cleaned`` is the text :func:`~paperkg.extract.readers.latex.clean_text`
    made of the abstract, so LaTeX spelling differences do not count.
    """
    return " ".join(cleaned.casefold().split())


def paper_id(given: str | None, doi: str | None, cleaned_abstract: str) -> str:
    """The id of a paper: the given id, else its DOI, else a hash of its abstract."""
    if given and given.strip():
        return given.strip()
    if doi and normalise_doi(doi):
        return normalise_doi(doi)
    digest = hashlib.sha1(normalise_abstract(cleaned_abstract).encode("utf-8")).hexdigest()
    return "h" + digest[:12]
