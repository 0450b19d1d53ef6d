"""The NER asks onnxruntime for exact int8 products on x86 CPUs that lack them.

Without VNNI (AVX2, early AVX-512), onnxruntime's int8 matrix products saturate
16-bit sums: on an emulated Haswell two NeurIPS abstracts lost or changed 11 of
their 38 mentions; with exact products none did (docs/extraction-quality.md).
Asking for them everywhere would slow a CPU with VNNI by 70%, where they are exact
anyway, so the session asks only where they are not.
"""

from __future__ import annotations

import platform
import shutil
import subprocess
import sys

import pytest

from paperkg.extract.nlp.components import transformer_ner
from paperkg.extract.nlp.components.transformer_ner import MODEL_FILE, X64_QUANT_PRECISION
from paperkg.extract.nlp.model_names import resolve_model

MODEL = resolve_model(None) / "transformer_ner" / MODEL_FILE


def asks_for_exact_products(monkeypatch, exact: bool) -> bool:
    monkeypatch.setattr(transformer_ner, "int8_products_exact", lambda: exact)
    options = transformer_ner.onnx_session(MODEL, threads=1).get_session_options()
    try:
        return options.get_session_config_entry(X64_QUANT_PRECISION) == "1"
    except RuntimeError:  # onnxruntime's answer for an option not set
        return False


def test_the_session_asks_for_exact_products_only_where_they_are_not(monkeypatch):
    assert asks_for_exact_products(monkeypatch, exact=False)
    assert not asks_for_exact_products(monkeypatch, exact=True)


@pytest.mark.skipif(
    platform.machine() != "x86_64" or shutil.which("qemu-x86_64") is None,
    reason="needs an x86-64 machine and qemu-user (./install.sh brings it)",
)
def test_a_cpu_without_vnni_is_told_apart():
    code = (
        "from paperkg.extract.nlp.components.transformer_ner import int8_products_exact\n"
        "print(int8_products_exact())"
    )
    haswell = subprocess.run(
        ["qemu-x86_64", "-cpu", "Haswell", sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert haswell.stdout.strip() == "False", haswell.stderr[-2000:]
