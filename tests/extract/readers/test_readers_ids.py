"""Stable paper ids: the given id, else the DOI, else a hash of the normalised abstract."""

import pytest

from paperkg.extract.readers.ids import normalise_doi, paper_id


@pytest.mark.parametrize(
    "given, doi, abstract, expected",
    [
        ("p1", "10.1/x", "We propose X.", "p1"),
        (" p1 ", None, "We propose X.", "p1"),
        (None, "https://doi.org/10.1234/ABC.5", "We propose X.", "10.1234/abc.5"),
        (None, "doi:10.1234/ABC.5", "We propose X.", "10.1234/abc.5"),
        ("", None, "We propose X.", "h547729ac3147"),
    ],
)
def test_paper_id(given, doi, abstract, expected):
    assert paper_id(given, doi, abstract) == expected


@pytest.mark.parametrize(
    "a, b",
    [
        ("We propose X.", "we  propose\nX."),
        ("We propose X.", "WE PROPOSE X."),
    ],
)
def test_hash_ids_ignore_case_and_spacing(a, b):
    assert paper_id(None, None, a) == paper_id(None, None, b)


def test_different_abstracts_get_different_ids():
    assert paper_id(None, None, "We propose X.") != paper_id(None, None, "We propose Y.")


def test_normalise_doi():
    assert normalise_doi("  HTTPS://dx.doi.org/10.5555/AbC ") == "10.5555/abc"
