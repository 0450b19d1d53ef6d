"""`paperkg train` end to end on tiny fixtures: fine-tune, export, reload."""

import importlib.util
import json
import os

import pytest
import spacy

if importlib.util.find_spec("torch") is None:
    reason = "needs the train extra: pip install -e '.[train]' (./install.sh brings it)"
    if os.environ.get("CI"):
        pytest.fail(reason + "; CI must run the training test, not skip it", pytrace=False)
    pytest.skip(reason, allow_module_level=True)

from paperkg.errors import ExtractionError  # noqa: E402
from paperkg.extract.nlp.pipeline import RULE_COMPONENTS, load_pipeline  # noqa: E402
from paperkg.extract.training.transformer import (  # noqa: E402
    TRANSFORMER_MODEL_NAME,
    load_config,
    train_transformer,
)
from paperkg.extract.training.transformer_data import (  # noqa: E402
    corpus_markers,
    training_items,
)
from paperkg.extract.training.transformer_model import ner_pipeline  # noqa: E402

FAST = {
    "training.epochs": 2,
    "training.batch_size": 4,
    "data.limit": 12,
    "data.max_pieces": 128,
    "training.threads": 1,
    "second_stage.epochs": 1,
}


@pytest.fixture(scope="module")
def trained(tmp_path_factory, tiny_corpora):
    out = tmp_path_factory.mktemp("run")
    model_dir = train_transformer(
        out,
        **tiny_corpora,
        overrides=FAST,
    )
    return out, model_dir


def test_training_writes_a_pipeline_that_loads_without_torch_code(trained):
    _, model_dir = trained
    assert model_dir.name == TRANSFORMER_MODEL_NAME
    assert (model_dir / "transformer_ner" / "model.onnx").stat().st_size > 10_000_000
    nlp = spacy.load(model_dir)
    assert nlp.get_pipe_meta("transformer_ner").factory == "paperkg_transformer_ner"
    # the window length it was trained with is saved in the pipeline's config
    assert nlp.get_pipe("transformer_ner").max_pieces == 128
    doc = nlp("We propose a model. It works well.")
    assert len(list(doc.sents)) == 2
    assert all(e.label_ in {"METHOD", "DATASET", "TASK", "METRIC"} for e in doc.ents)


def test_every_epoch_is_logged_and_the_best_is_kept(trained):
    out, model_dir = trained
    epochs = [
        json.loads(line) for line in (out / "training" / "log.jsonl").read_text().splitlines()
    ]
    assert [(e["epoch"], e["stage"]) for e in epochs] == [(1, 1), (2, 1), (3, 2)]
    assert epochs[1]["loss"] < epochs[0]["loss"]
    # corpora too small to keep a part of train back: the epoch is chosen on dev
    # (test_training_train.py checks the held-back parts of real-sized corpora)
    assert set(epochs[0]["f1"]) == {"scierc_dev", "scier_dev"}
    # the second stage: SciERC once, and as many windows again from the others
    assert epochs[2]["windows"] < epochs[0]["windows"]
    meta = json.loads((model_dir / "meta.json").read_text())
    assert meta["training_procedure"]["best_epoch"] in (1, 2, 3)
    assert meta["training_procedure"]["config"]["training"]["epochs"] == 2


def test_second_stage_reruns_the_same_from_the_first_stage_weights(trained, tiny_corpora, tmp_path):
    # fine-tuning from a finished run: its best_stage1.pt, no first stage
    out, _ = trained
    assert (out / "training" / "best_stage1.pt").is_file()
    train_transformer(
        tmp_path,
        **tiny_corpora,
        overrides={
            **FAST,
            "model.init": str(out / "training" / "best_stage1.pt"),
            "training.epochs": 0,
        },
    )
    log = [json.loads(line) for line in (tmp_path / "training" / "log.jsonl").open()]
    full = [json.loads(line) for line in (out / "training" / "log.jsonl").open()]
    assert [(e["epoch"], e["stage"]) for e in log] == [(0, 0), (1, 2)]
    assert log[1]["loss"] == full[2]["loss"]  # the full run's second stage, step for step
    assert log[1]["f1"] == full[2]["f1"]


def test_init_must_be_weights_of_a_run(tiny_corpora, tmp_path):
    bogus = tmp_path / "bogus.pt"
    bogus.write_text("not weights")
    with pytest.raises(ExtractionError, match="model.init"):
        train_transformer(tmp_path, **tiny_corpora, overrides={**FAST, "model.init": str(bogus)})


def test_every_rule_runs_after_the_trained_ner(trained):
    _, model_dir = trained
    nlp = load_pipeline(model_dir)
    assert nlp.pipe_names[-len(RULE_COMPONENTS) :] == list(RULE_COMPONENTS)
    assert nlp.disabled == []  # transformer.cfg: pipeline.disabled_rules is empty


def test_a_rule_named_in_disabled_rules_is_saved_disabled():
    nlp = ner_pipeline(max_pieces=64, disabled_rules=["paperkg_repeats"])
    assert nlp.disabled == ["paperkg_repeats"]
    with pytest.raises(ExtractionError, match="unknown"):
        ner_pipeline(max_pieces=64, disabled_rules=["paperkg_no_such_rule"])
    # a config recorded by an older paperkg names a rule that is gone: nothing to disable
    old = ner_pipeline(max_pieces=64, disabled_rules=["paperkg_term_rules"])
    assert old.disabled == [] and "paperkg_term_rules" not in old.component_names


def test_each_corpus_is_learnt_behind_its_own_marker(trained):
    out, model_dir = trained
    nlp = spacy.load(model_dir)
    ner = nlp.get_pipe("transformer_ner")
    unused = {f"[unused{i}]": ner._tokenizer.token_to_id(f"[unused{i}]") for i in range(3)}
    # the shipped component reads every text as an abstract: SciERC's marker
    window = ner.windows(nlp("We propose a model."))[0]
    assert window.piece_ids[:2] == [ner._special["cls_id"], unused["[unused0]"]]
    assert min(position for _, position in window.words) == 2
    # in training, each document carries its corpus's marker instead
    counts = json.loads((model_dir / "meta.json").read_text())["training_data"]
    markers = corpus_markers(counts, ner)
    items = training_items(out / "corpus" / "train.spacy", nlp, ner, markers)
    scierc = counts["scierc"]["train_docs"] * counts["scierc"]["repeated"]
    scier = counts["scier"]["train_sentences"]
    marker_of = {doc: ids[1] for ids, _, doc in items}
    assert {marker_of[d] for d in range(scierc)} == {unused["[unused0]"]}
    assert {marker_of[d] for d in range(scierc, scierc + scier)} == {unused["[unused1]"]}
    assert {marker_of[d] for d in marker_of if d >= scierc + scier} == {unused["[unused2]"]}
    with pytest.raises(ExtractionError, match="corpus markers"):
        training_items(out / "corpus" / "train.spacy", nlp, ner, markers[:-1])


def test_without_scierc_the_first_corpus_it_learnt_is_the_default_style(tiny_corpora, tmp_path):
    corpora = {**tiny_corpora, "scierc": None}
    model_dir = train_transformer(
        tmp_path, **corpora, overrides={**FAST, "training.epochs": 1, "second_stage.epochs": 0}
    )
    ner = spacy.load(model_dir).get_pipe("transformer_ner")
    assert set(ner._styles) == {"scier", "tdmsci"}  # no marker it never learnt
    assert ner.style == "scier"


def test_meta_records_data_licences_base_model_and_scores(trained):
    _, model_dir = trained
    meta = json.loads((model_dir / "meta.json").read_text())
    assert meta["name"] == TRANSFORMER_MODEL_NAME
    assert meta["license"] == "GPL-3.0"  # trained on SciER
    assert meta["author"] != "Explosion"  # not the sourced English pipeline's authors
    assert "all-MiniLM-L6-v2 (Apache-2.0)" in meta["licence_note"]
    assert set(meta["training_data"]) == {"scierc", "scier", "tdmsci"}
    assert set(meta["paperkg_scores"]) >= {"scierc_dev", "scier_dev", "tdmsci_heldout"}


def test_config_overrides_must_name_a_known_section():
    assert load_config(overrides={"training.epochs": 3})["training"]["epochs"] == 3
    with pytest.raises(ExtractionError, match="unknown setting"):
        load_config(overrides={"trainig.epochs": 3})


def test_in_domain_annotations_are_learnt_behind_a_marker_that_users_then_get(
    tiny_corpora, tmp_path
):
    from paperkg.extract.evaluate import GoldDoc, GoldSpan

    text = "We train BERT on ImageNet and report accuracy."
    spans = [GoldSpan(9, 13, "METHOD"), GoldSpan(17, 25, "DATASET"), GoldSpan(37, 45, "METRIC")]
    annotated = {
        "train": [GoldDoc(f"n{i}", text, spans) for i in range(4)],
        "select": [GoldDoc("n8", text, spans)],
        "test": [GoldDoc("n9", text, spans)],
    }
    overrides = {**FAST, "data.limit": 0, "training.epochs": 1, "second_stage.epochs": 0}
    model_dir = train_transformer(
        tmp_path, scier=tiny_corpora["scier"], annotated=annotated, overrides=overrides
    )

    ner = spacy.load(model_dir).get_pipe("transformer_ner")
    assert set(ner._styles) == {"scier", "annotated"}
    assert ner.style == "annotated"  # users' texts are read as the in-domain abstracts
    meta = json.loads((model_dir / "meta.json").read_text())
    assert meta["training_data"]["annotated"]["train_docs"] == 4
    assert {"annotated_select", "annotated_test"} <= set(meta["paperkg_scores"])
    chosen_on = {name for line in meta["training_procedure"]["epochs_log"] for name in line["f1"]}
    assert chosen_on == {"annotated_select"}  # test is scored once, after the choice
    # each set is scored in its own corpus's style, and again as the graph reads it
    procedure = meta["training_procedure"]
    assert set(procedure["scores_in_users_style"]) == {"scier_dev"}
    nlp = spacy.load(model_dir)
    ner = nlp.get_pipe("transformer_ner")
    marker = {style: ids[0] for style, ids in ner._styles.items()}
    doc = nlp.make_doc("We propose a model.")
    with ner.reading_style("scier"):
        assert ner.windows(doc)[0].piece_ids[1] == marker["scier"]
    with ner.reading_style("scierc"):  # a style it never learnt: read as usual
        assert ner.windows(doc)[0].piece_ids[1] == marker["annotated"]
    assert ner.windows(doc)[0].piece_ids[1] == marker["annotated"]
