"""The trained pipeline shipped inside the package: loads offline, finds our four types."""

import json

import pytest
import spacy

from paperkg.extract.pipeline import SHIPPED_MODEL_DIR


@pytest.fixture(scope="module")
def shipped():
    return spacy.load(SHIPPED_MODEL_DIR)


def test_labels_are_exactly_ours(shipped):
    assert set(shipped.get_pipe("ner").labels) == {"METHOD", "DATASET", "TASK", "METRIC"}


@pytest.mark.parametrize(
    ("text", "mention", "label"),
    [
        ("We report top-1 accuracy on CIFAR-10 and ImageNet.", "CIFAR-10", "DATASET"),
        ("We report top-1 accuracy on CIFAR-10 and ImageNet.", "ImageNet", "DATASET"),
        ("We fine-tune BERT for named entity recognition.", "BERT", "METHOD"),
        ("We fine-tune BERT for named entity recognition.", "named entity recognition", "TASK"),
    ],
)
def test_finds_mentions(shipped, text, mention, label):
    assert (mention, label) in [(e.text, e.label_) for e in shipped(text).ents]


def test_sentences_and_lemmas_come_with_it(shipped):
    doc = shipped("Transformers were proposed in 2017. They use attention.")
    assert [s.text for s in doc.sents] == [
        "Transformers were proposed in 2017.",
        "They use attention.",
    ]
    assert doc[2].lemma_ == "propose"


def test_meta_says_what_it_was_trained_on_and_under_which_licence():
    meta = json.loads((SHIPPED_MODEL_DIR / "meta.json").read_text(encoding="utf-8"))
    assert meta["license"] == "GPL-3.0"
    assert {k: v["licence"] for k, v in meta["training_data"].items()} == {
        "scierc": "none stated by the authors; research use",
        "scier": "GPL-3.0",
        "tdmsci": "Apache-2.0",
    }
    assert meta["paperkg_scores"]["scierc_dev"]["micro"]["f1"] > 0.4


def test_small_enough_to_ship():
    size = sum(p.stat().st_size for p in SHIPPED_MODEL_DIR.rglob("*") if p.is_file())
    assert size < 30 * 1024 * 1024
