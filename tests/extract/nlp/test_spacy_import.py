"""spaCy is imported without PyTorch for pipelines that do not run on it."""

import json
import subprocess
import sys
from importlib.util import find_spec

import pytest

from paperkg.extract.nlp.model_names import SHIPPED_TRANSFORMER_DIR
from paperkg.extract.nlp.spacy_import import pipeline_needs_torch

needs_torch_installed = pytest.mark.skipif(
    find_spec("torch") is None, reason="PyTorch is not installed: nothing to leave out"
)


#: the start of a fresh process that paperkg owns (as the paperkg command does)
OWNED = (
    "from paperkg.extract.nlp.spacy_import import import_spacy_for, own_this_process\n"
    "own_this_process()\n"
)


def _torch_pipeline(folder):
    """A pipeline folder whose config needs PyTorch (a spacy-transformers component)."""
    (folder / "config.cfg").write_text('[components.t]\nfactory = "transformer"\n')
    return str(folder)


def _in_fresh_python(code: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_shipped_pipeline_config_needs_no_torch():
    config = (SHIPPED_TRANSFORMER_DIR / "config.cfg").read_text(encoding="utf-8")
    assert not pipeline_needs_torch(config)


def test_a_spacy_transformers_pipeline_needs_torch():
    config = '[components.transformer]\nfactory = "transformer"\n'
    assert pipeline_needs_torch(config)


@needs_torch_installed
def test_the_shipped_pipeline_loads_and_extracts_without_importing_torch():
    found = _in_fresh_python(
        "import json, sys\n" + OWNED + "left_out = import_spacy_for(None)\n"
        "from paperkg.extract.nlp.pipeline import load_pipeline\n"
        "doc = load_pipeline()('We train a graph neural network (GNN) on Cora.')\n"
        "print(json.dumps({'left_out': left_out, 'torch': 'torch' in sys.modules,\n"
        "                  'ents': [e.label_ for e in doc.ents]}))\n"
    )
    assert found["left_out"] is True
    assert found["torch"] is False
    assert "DATASET" in found["ents"] and "METHOD" in found["ents"]


@needs_torch_installed
def test_torch_can_still_be_imported_afterwards():
    found = _in_fresh_python(
        "import json\n" + OWNED + "import_spacy_for(None)\n"
        "import torch\n"
        "print(json.dumps({'tensor': torch.ones(2).sum().item()}))\n"
    )
    assert found == {"tensor": 2.0}


@needs_torch_installed
def test_a_pipeline_that_needs_torch_gets_it(tmp_path):
    found = _in_fresh_python(
        "import json\n" + OWNED + f"left_out = import_spacy_for({_torch_pipeline(tmp_path)!r})\n"
        "import thinc.compat\n"
        "print(json.dumps({'left_out': left_out, 'has_torch': thinc.compat.has_torch}))\n"
    )
    assert found == {"left_out": False, "has_torch": True}


@needs_torch_installed
def test_extraction_workers_start_without_torch():
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from paperkg.extract.nlp.workers import load_worker

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        1, mp_context=context, initializer=load_worker, initargs=(None,)
    ) as pool:
        assert pool.submit(eval, "'torch' in __import__('sys').modules").result() is False
        assert pool.submit(eval, "'spacy' in __import__('sys').modules").result() is True


@needs_torch_installed
def test_a_process_paperkg_does_not_own_keeps_torch():
    # a library caller (a notebook) may load a PyTorch pipeline after paperkg's
    found = _in_fresh_python(
        "import json\n"
        "from paperkg.extract.nlp.spacy_import import import_spacy_for\n"
        "left_out = import_spacy_for(None)\n"
        "import thinc.compat\n"
        "print(json.dumps({'left_out': left_out, 'has_torch': thinc.compat.has_torch}))\n"
    )
    assert found == {"left_out": False, "has_torch": True}


@needs_torch_installed
def test_a_torch_pipeline_after_torch_was_left_out_is_a_clear_error(tmp_path):
    found = _in_fresh_python(
        "import json\n"
        "from paperkg.errors import ExtractionError\n" + OWNED + "import_spacy_for(None)\n"
        "try:\n"
        f"    import_spacy_for({_torch_pipeline(tmp_path)!r})\n"
        "    print(json.dumps({'error': None}))\n"
        "except ExtractionError as e:\n"
        "    print(json.dumps({'error': str(e)}))\n"
    )
    assert "runs on PyTorch" in found["error"] and "new process" in found["error"]


def test_torch_is_hidden_from_the_importing_thread_only():
    import threading

    from paperkg.extract.nlp.spacy_import import _HideTorch

    hide = _HideTorch()
    seen = []
    other = threading.Thread(target=lambda: seen.append(hide.find_spec("torch")))
    other.start()
    other.join()

    assert seen == [None]
    with pytest.raises(ModuleNotFoundError, match="hidden by paperkg"):
        hide.find_spec("torch.nn")
