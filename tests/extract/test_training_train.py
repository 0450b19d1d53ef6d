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


def test_a_part_of_each_training_corpus_is_kept_back_to_select_on(tmp_path):
    """Checkpoints are chosen on held-back papers of train, so dev measures untuned models."""
    from paperkg.extract.training import prepare_corpora

    scierc = tmp_path / "scierc"
    scierc.mkdir()
    abstract = {"sentences": [["We", "use", "BERT", "."]], "ner": [[[2, 2, "Method"]]]}
    with (scierc / "train.json").open("w") as f:
        for i in range(14):  # 14 abstracts: 2 kept back (50 of SciERC's 350)
            f.write(json.dumps({**abstract, "doc_key": f"a{i}"}) + "\n")
    (scierc / "dev.json").write_text(json.dumps({**abstract, "doc_key": "dev"}) + "\n")
    scier = tmp_path / "scier"
    scier.mkdir()
    sentence = {"sentence": "We fine - tune BERT .", "ner": [["BERT", "Method"]]}
    with (scier / "train.jsonl").open("w") as f:
        for paper in range(7):  # 7 papers of 2 sentences: the last paper kept back
            for _ in range(2):
                f.write(json.dumps({**sentence, "doc_id": f"p{paper}"}) + "\n")
    (scier / "dev.plm.jsonl").write_text(
        json.dumps({"sentences": [["BERT", "."]], "ner": [[[0, 0, "Method"]]]}) + "\n"
    )
    corpora = prepare_corpora(tmp_path / "out", scierc=scierc, scier=scier, selection=True)
    assert {name: len(docs) for name, (_, docs) in corpora["eval"].items()} == {
        "scierc_select": 2,
        "scierc_dev": 1,
        "scier_select": 2,
        "scier_dev": 1,
    }
    assert corpora["counts"]["scierc"]["train_docs"] == 12
    assert corpora["counts"]["scier"]["train_sentences"] == 12
    # spaCy's own checkpoint choice reads dev.spacy: the kept-back part, not dev
    assert (
        len(list(spacy.tokens.DocBin().from_disk(corpora["dev"]).get_docs(spacy.blank("en").vocab)))
        == 4
    )
    # without selection, everything is trained on
    plain = prepare_corpora(tmp_path / "plain", scierc=scierc, scier=scier)
    assert plain["counts"]["scierc"]["train_docs"] == 14
    assert not any(name.endswith("_select") for name in plain["eval"])
