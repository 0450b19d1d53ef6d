"""Tokenised corpora joined back into the text a user would give, offsets kept."""

import pytest

from paperkg.extract.evaluate.gold import GoldSpan, detokenize, doc_from_tokens


@pytest.mark.parametrize(
    ("tokens", "text"),
    [
        (["a", "-LRB-", "CNN", "-RRB-", "."], "a (CNN)."),
        (["state", "-", "of", "-", "the", "-", "art", "parsers"], "state-of-the-art parsers"),
        (["``", "deep", "''", ",", "it", "'s"], '" deep ", it\'s'),
    ],
)
def test_detokenize(tokens, text):
    assert detokenize(tokens)[0] == text


def test_detokenize_glues_split_digits_only_when_asked():
    tokens = ["9", "1", ".", "2", "%", "in", "2", "0", "1", "9"]
    assert detokenize(tokens, join_digits=True)[0] == "91.2% in 2019"
    assert detokenize(tokens)[0] == "9 1. 2% in 2 0 1 9"


def test_token_spans_become_character_spans_of_the_joined_text():
    doc = doc_from_tokens(
        "d1",
        ["a", "-LRB-", "CNN", "-RRB-", "on", "CIFAR", "-", "1", "0"],
        [(2, 2, "METHOD"), (5, 8, "DATASET")],
        join_digits=True,
    )
    assert doc.text == "a (CNN) on CIFAR-10"
    assert doc.spans == [GoldSpan(3, 6, "METHOD"), GoldSpan(11, 19, "DATASET")]
