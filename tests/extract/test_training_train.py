"""`paperkg train` end to end on tiny fixtures: spaCy's training, provenance in meta.json."""

import json

import pytest
import spacy

from paperkg.extract.training import train_model


@pytest.fixture(scope="module")
def trained(tmp_path_factory, tiny_corpora):
    out = tmp_path_factory.mktemp("run")
    model_dir = train_model(
        out,
        **tiny_corpora,
        overrides={"training.max_steps": 6, "training.eval_frequency": 3},
        stage1_steps=4,
    )
    return out, model_dir


def test_training_writes_a_loadable_pipeline_with_our_labels(trained):
    _, model_dir = trained
    nlp = spacy.load(model_dir)
    assert set(nlp.get_pipe("ner").labels) == {"METHOD", "DATASET", "TASK", "METRIC"}
    # the sourced English components ride along for lemmas and sentences
    assert {"tagger", "lemmatizer", "senter"} <= set(nlp.pipe_names)
    doc = nlp("We propose a model. It works well.")
    assert len(list(doc.sents)) == 2
    assert doc[1].lemma_ == "propose"


def test_meta_records_data_licences_and_scores(trained):
    _, model_dir = trained
    meta = json.loads((model_dir / "meta.json").read_text())
    assert meta["name"] == "paperkg_ner"
    assert meta["license"] == "GPL-3.0"  # trained on SciER
    assert set(meta["training_data"]) == {"scierc", "scier", "tdmsci"}
    assert meta["training_data"]["tdmsci"]["licence"] == "Apache-2.0"
    assert set(meta["paperkg_scores"]) >= {"scierc_dev", "scier_dev", "tdmsci_heldout"}
    assert set(meta["paperkg_scores"]["scierc_dev"]["micro"]) == {
        "precision",
        "recall",
        "f1",
        "support",
    }
    assert meta["training_procedure"]["scierc_repeat"] == 3


def test_tdmsci_methods_were_masked_by_a_first_stage(trained):
    out, _ = trained
    assert (out / "stage1" / "paperkg_ner" / "meta.json").is_file()
    assert (out / "corpus" / "train.spacy").is_file()
