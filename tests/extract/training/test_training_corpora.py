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
