"""Fixtures shared by the whole suite: the spaCy pipeline and the example graph, loaded once."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# property tests check results, not speed: a loaded machine (CI beside other jobs) must
# not fail them on Hypothesis's default 200 ms deadline per example
settings.register_profile("paperkg", deadline=None)
settings.load_profile("paperkg")

# the CLI keeps extractions in a cache (paperkg.extract.nlp.cache): give the suite its own,
# empty at every run, so no test reads what another run or a user's builds left
os.environ["PAPERKG_CACHE_DIR"] = tempfile.mkdtemp(prefix="paperkg-test-cache-")

REPO_ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = REPO_ROOT / "examples" / "iclr2025_abstracts.txt"
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"

# the synthetic corpora and fields the benchmarks measure with are test data too; they
# live in bench/ (not shipped), importable by name as the bench scripts import them
sys.path.append(str(REPO_ROOT / "bench"))


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data``; tests that need it skip when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is absent (only on the developers' machines)")
    return SHARED_DATA


def read_outputs(folder: Path) -> dict[str, bytes]:
    """The files of an output folder as a user opens them: through its links into
    the current build, without the builds' folder itself (paperkg.output_switch.BUILDS)."""
    from paperkg.output_switch import BUILDS

    files = {}
    for root, dirs, names in os.walk(folder, followlinks=True):
        dirs[:] = [d for d in dirs if d != BUILDS]
        for name in names:
            path = Path(root, name)
            if path.is_file():
                files[str(path.relative_to(folder))] = path.read_bytes()
    return files


@pytest.fixture(scope="session")
def output_files():
    """:func:`read_outputs`, for tests that compare output folders."""
    return read_outputs


@pytest.fixture(scope="session")
def local_cluster():
    """A real Dask ``LocalCluster`` of two worker processes, for what runs on a cluster."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        yield cluster


@pytest.fixture(scope="session")
def nlp():
    from paperkg.extract.nlp.pipeline import load_pipeline

    return load_pipeline()


@pytest.fixture(scope="session")
def rules_nlp():
    """The shipped pipeline with its NER switched off: the rule components alone.

    For tests of what the rules do with a sentence. The int8 NER's tags on a
    borderline sentence differ between CPUs (onnxruntime's int8 kernels with
    and without VNNI round differently), so a test that runs it tests the CPU too.
    """
    from paperkg.extract.nlp.pipeline import load_pipeline

    nlp = load_pipeline()
    if "transformer_ner" in nlp.pipe_names:
        nlp.disable_pipe("transformer_ner")
    return nlp


@pytest.fixture(scope="session")
def example_build():
    """The build of the bundled ICLR 2025 example (read, extracted, resolved)."""
    from paperkg.api import build

    return build([EXAMPLE])


@pytest.fixture(scope="session")
def example_graph(example_build):
    return example_build.graph


#: records a real corpus throws at a build: control characters (38 of 2,398 abstracts of
#: one conference export had U+0002), lone surrogates, markup, names that look like Cypher,
#: LaTeX, punctuation only, another language, a 10,000-character title, a 5 MB abstract
HOSTILE_RECORDS = [
    {"id": "ctrl", "title": "Control\x02 characters\x1b in a title",
     "abstract": "We propose Ctrl\x02Net, a graph neural network, for node classification "
                 "on Cora.\x0b It improves accuracy.", "year": 2023},
    {"id": "surrogate", "title": "Lone \ud800 surrogates",
     "abstract": "We fine-tune BERT \udfff on SQuAD for question answering.", "year": 2024},
    {"id": "markup", "title": "<script>alert('x')</script> & <b>bold</b>",
     "abstract": "We introduce <img src=x onerror=alert(1)>Net, a transformer for machine "
                 "translation evaluated on WMT14 with BLEU.", "year": 2024,
     "authors": ["Robert'); DROP TABLE papers;--", "<i>Ann</i>"]},
    {"id": "cypher", "title": "'}) DETACH DELETE n // and `backticks` and $param",
     "abstract": "We propose the '}) DETACH DELETE n // model, a diffusion model for image "
                 "generation on ImageNet, evaluated by FID.", "year": 2023,
     "keywords": ["$rows", "`) MATCH (m) DETACH DELETE m //"]},
    {"id": "latex", "title": "Only LaTeX", "abstract": r"$\sum_{i=1}^{n} \alpha_i \mathbf{x}_i$",
     "year": 2023},
    {"id": "punct", "title": "Only punctuation", "abstract": "?!... --- ;;; ***", "year": 2023},
    {"id": "zh", "title": "图神经网络", "abstract": "我们提出了一种用于节点分类的图神经网络方法。",
     "year": 2024},
    {"id": "long-title", "title": "T" * 10_000,
     "abstract": "We use ResNet-50 on CIFAR-10 for image classification.", "year": 2024},
    {"id": "huge", "title": "A 5 MB abstract",
     "abstract": "We apply ResNet-50 to ImageNet for image classification. " * 90_000,
     "year": 2024},
    {"id": "good", "title": "A good paper",
     "abstract": "We train a graph neural network on Cora and Citeseer for node classification "
                 "and report accuracy.", "year": 2022},
]  # fmt: skip


@pytest.fixture(scope="session")
def hostile_papers() -> set[str]:
    """The paper node ids of :data:`HOSTILE_RECORDS`."""
    return {f"paper:{r['id']}" for r in HOSTILE_RECORDS}


@pytest.fixture(scope="session")
def hostile_build(tmp_path_factory):
    """The CLI's build of :data:`HOSTILE_RECORDS` (plus one broken line): its output folder."""
    import json

    from typer.testing import CliRunner

    from paperkg.cli import app

    folder = tmp_path_factory.mktemp("hostile")
    corpus = folder / "hostile.jsonl"
    lines = [json.dumps(r) for r in HOSTILE_RECORDS]
    lines.insert(3, '{"id": "broken", "abstract": ')  # one record that cannot be read
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["build", str(corpus), "-o", str(folder / "out"), "-j", "1"])
    return folder / "out", result
