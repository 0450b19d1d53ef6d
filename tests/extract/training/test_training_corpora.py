"""The gold corpora laid out for training: the parts trained, selected and scored on."""

import json

import spacy

from paperkg.extract.training import prepare_corpora


def test_a_part_of_each_training_corpus_is_kept_back_to_select_on(tmp_path):
    """Checkpoints are chosen on held-back papers of train, so dev measures untuned models."""
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


def test_in_domain_annotations_train_select_and_are_scored_by_their_split(tmp_path):
    """train is learnt, select chooses the epoch (kept back even without selection),
    test is only scored; they come last in the training corpus."""
    from paperkg.extract.evaluate import GoldDoc, GoldSpan
    from paperkg.extract.training.transformer_epochs import selection_sets

    def doc(i):
        return GoldDoc(f"n{i}", "We train BERT on ImageNet.", [GoldSpan(9, 13, "METHOD")])

    splits = {"train": [doc(0), doc(1), doc(2)], "select": [doc(3)], "test": [doc(4), doc(5)]}
    corpora = prepare_corpora(tmp_path / "out", annotated=splits)

    assert corpora["counts"]["annotated"] == {"train_docs": 3, "select_docs": 1, "test_docs": 2}
    assert {name: len(docs) for name, (_, docs) in corpora["eval"].items()} == {
        "annotated_select": 1,
        "annotated_test": 2,
    }
    vocab = spacy.blank("en").vocab
    trained = list(spacy.tokens.DocBin().from_disk(corpora["train"]).get_docs(vocab))
    assert [e.text for d in trained for e in d.ents] == ["BERT"] * 3
    assert len(list(spacy.tokens.DocBin().from_disk(corpora["dev"]).get_docs(vocab))) == 1
    # the held-out test split never chooses, even where nothing else could
    assert set(selection_sets(corpora["eval"])) == {"annotated_select"}
    assert set(selection_sets({"annotated_test": corpora["eval"]["annotated_test"]})) == {
        "annotated_test"
    }  # (only when it is all there is: a run must be scored on something)
