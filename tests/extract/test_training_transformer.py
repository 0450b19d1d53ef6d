"""`paperkg train --transformer` end to end on tiny fixtures: fine-tune, export, reload."""

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
from paperkg.extract.training.transformer import (  # noqa: E402
    TRANSFORMER_MODEL_NAME,
    load_config,
    train_transformer,
)

FAST = {
    "training.epochs": 2,
    "training.batch_size": 4,
    "data.limit": 12,
    "data.max_pieces": 128,
    "training.threads": 1,
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
    assert [e["epoch"] for e in epochs] == [1, 2]
    assert epochs[1]["loss"] < epochs[0]["loss"]
    assert set(epochs[0]["f1"]) == {"scierc_dev", "scier_dev"}
    meta = json.loads((model_dir / "meta.json").read_text())
    assert meta["training_procedure"]["best_epoch"] in (1, 2)
    assert meta["training_procedure"]["config"]["training"]["epochs"] == 2


def test_meta_records_data_licences_base_model_and_scores(trained):
    _, model_dir = trained
    meta = json.loads((model_dir / "meta.json").read_text())
    assert meta["name"] == TRANSFORMER_MODEL_NAME
    assert meta["license"] == "GPL-3.0"  # trained on SciER
    assert "all-MiniLM-L6-v2 (Apache-2.0)" in meta["licence_note"]
    assert set(meta["training_data"]) == {"scierc", "scier", "tdmsci"}
    assert set(meta["paperkg_scores"]) >= {"scierc_dev", "scier_dev", "tdmsci_heldout"}


def test_config_overrides_must_name_a_known_section():
    assert load_config(overrides={"training.epochs": 3})["training"]["epochs"] == 3
    with pytest.raises(ExtractionError, match="unknown setting"):
        load_config(overrides={"trainig.epochs": 3})
