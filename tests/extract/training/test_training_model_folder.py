"""The component's settings written from a pretrained encoder's tokenizer: which pieces
open, close and pad a window, whichever family of encoders spelled them."""

import json

import pytest
from tokenizers import Tokenizer
from tokenizers.models import WordLevel

from paperkg.errors import ExtractionError
from paperkg.extract.training.transformer_model import write_model_folder


def encoder_folder(tmp_path, vocabulary: list[str]):
    """A folder holding only the tokenizer.json of an encoder with ``vocabulary``."""
    ids = {piece: i for i, piece in enumerate(vocabulary)}
    tmp_path.mkdir()
    Tokenizer(WordLevel(ids, unk_token=vocabulary[0])).save(str(tmp_path / "tokenizer.json"))
    return tmp_path


def test_a_bert_style_tokenizer_opens_windows_with_cls(tmp_path):
    base = encoder_folder(tmp_path / "bert", ["[PAD]", "[unused0]", "[CLS]", "[SEP]", "graph"])
    write_model_folder(base, tmp_path / "ner", styles={"scierc": "[unused0]"})
    settings = json.loads((tmp_path / "ner" / "ner.json").read_text())
    assert (settings["cls_id"], settings["sep_id"], settings["pad_id"]) == (2, 3, 0)
    assert settings["styles"] == {"scierc": [1]}


def test_an_mpnet_tokenizer_opens_windows_with_its_own_s_not_berts_unused_cls(tmp_path):
    """all-mpnet-base-v2 keeps BERT's vocabulary, [CLS] included, but was pretrained
    with <s> ... </s>."""
    vocabulary = ["<s>", "<pad>", "</s>", "[unused0]", "[CLS]", "[SEP]", "[PAD]"]
    base = encoder_folder(tmp_path / "mpnet", vocabulary)
    write_model_folder(base, tmp_path / "ner", styles={"scierc": "[unused0]"})
    settings = json.loads((tmp_path / "ner" / "ner.json").read_text())
    assert (settings["cls_id"], settings["sep_id"], settings["pad_id"]) == (0, 2, 1)
    assert settings["styles"] == {"scierc": [3]}


def test_a_tokenizer_without_window_pieces_is_refused(tmp_path):
    base = encoder_folder(tmp_path / "words", ["<unk>", "graph", "model"])
    with pytest.raises(ExtractionError, match="BERT- or MPNet-style"):
        write_model_folder(base, tmp_path / "ner")


def test_a_vocabulary_without_the_corpus_markers_says_to_train_without_them(tmp_path):
    base = encoder_folder(tmp_path / "roberta", ["<s>", "<pad>", "</s>", "graph"])
    with pytest.raises(ExtractionError, match=r"\[unused0\].*corpus_markers=false"):
        write_model_folder(base, tmp_path / "ner", styles={"scierc": "[unused0]"})
    assert not (tmp_path / "ner" / "tokenizer.json").exists()  # nothing half-written
