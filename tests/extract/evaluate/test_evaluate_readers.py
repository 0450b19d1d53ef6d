"""Gold readers: SciERC, SciER (sentence strings and PLM offsets) and TDMSci, on tiny fixtures."""

from pathlib import Path

import pytest

from paperkg.errors import InputError
from paperkg.extract.evaluate import read_gold

GOLD = Path(__file__).resolve().parents[2] / "fixtures" / "gold"


def mentions(doc):
    return [(doc.text[s.start : s.end], s.label) for s in doc.spans]


def test_scierc_maps_types_and_drops_generic():
    docs = read_gold(GOLD / "tiny_scierc.json", "scierc")
    assert [d.id for d in docs] == ["tiny_1", "tiny_2"]
    assert docs[0].text == (
        "We train a convolutional neural network (CNN) for image classification. "
        "It reaches high accuracy on CIFAR-10."
    )
    assert mentions(docs[0]) == [
        ("convolutional neural network", "METHOD"),
        ("CNN", "METHOD"),
        ("image classification", "TASK"),
        ("accuracy", "METRIC"),
        ("CIFAR-10", "DATASET"),
    ]
    # Generic and OtherScientificTerm are not concepts
    assert docs[1].spans == []


def test_scier_sentences_match_every_occurrence_and_glue_digits():
    docs = read_gold(GOLD / "tiny_scier.jsonl", "scier")
    assert docs[0].text == "We fine-tune BERT on SQuAD and compare BERT with ELMo."
    # "BERT" occurs twice and is taken twice; "question answering" is not in the text
    assert mentions(docs[0]) == [
        ("BERT", "METHOD"),
        ("SQuAD", "DATASET"),
        ("BERT", "METHOD"),
        ("ELMo", "METHOD"),
    ]
    assert docs[1].text == "It reaches 91.2% accuracy on CIFAR-10 in 2019."
    assert mentions(docs[1]) == [("CIFAR-10", "DATASET")]


def test_scier_plm_file_uses_token_offsets():
    (doc,) = read_gold(GOLD / "tiny_scier_plm.jsonl", "scier")
    assert doc.text == "We fine-tune BERT on SQuAD. It beats ELMo on CIFAR-10."
    assert mentions(doc) == [
        ("BERT", "METHOD"),
        ("SQuAD", "DATASET"),
        ("ELMo", "METHOD"),
        ("CIFAR-10", "DATASET"),
    ]


def test_tdmsci_restores_spacing_from_offsets():
    docs = read_gold(GOLD / "tiny_tdmsci.conll", "tdmsci")
    assert [d.text for d in docs] == [
        "We report F1 for named entity recognition on CoNLL-2003.",
        "Parsing (see above) is hard.",
    ]
    assert mentions(docs[0]) == [
        ("F1", "METRIC"),
        ("named entity recognition", "TASK"),
        ("CoNLL-2003", "DATASET"),
    ]
    assert mentions(docs[1]) == [("Parsing", "TASK")]


@pytest.mark.parametrize(
    ("fixture", "fmt", "message"),
    [
        ("tiny_tdmsci.conll", "scierc", "not a JSON line"),
        ("tiny_scierc.json", "tdmsci", "expected 'token<TAB>offset<TAB>tag'"),
        ("tiny_scierc.json", "conll", "unknown gold format 'conll'"),
    ],
)
def test_wrong_format_is_a_clear_error(fixture, fmt, message):
    with pytest.raises(InputError, match=message):
        read_gold(GOLD / fixture, fmt)


BROKEN_GOLD = [
    (b"\xca\xfe\x00\x17 random bytes", "scierc", "g.jsonl: not UTF-8 text (byte 0xca)"),
    (b"\xca\xfe random bytes", "tdmsci", "g.jsonl: not UTF-8 text (byte 0xca)"),
    (b"[1, 2]\n", "scier", "g.jsonl#1: a JSON list, not an object"),
    (b'{"sentences": [["a"]], "ner": [[[0, 5, "Method"]]]}\n', "scierc",
     "g.jsonl#1: not a SciERC-style record (IndexError"),
    (b'{"sentences": 7, "ner": []}\n', "scierc", "g.jsonl#1: not a SciERC-style record"),
    (b'{"sentence": "a b", "ner": [["a"]]}\n', "scier", "g.jsonl#1: not a SciER record"),
]  # fmt: skip


@pytest.mark.parametrize(("content", "fmt", "message"), BROKEN_GOLD)
def test_a_broken_gold_file_is_one_line_naming_the_record(tmp_path, content, fmt, message):
    (tmp_path / "g.jsonl").write_bytes(content)
    with pytest.raises(InputError) as error:
        read_gold(tmp_path / "g.jsonl", fmt)
    assert str(error.value).startswith(str(tmp_path / message))
    assert "\n" not in str(error.value)
