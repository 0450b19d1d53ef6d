"""The Examples sections of the docstrings are tests too."""

import doctest
import importlib
import pkgutil

import pytest

import paperkg

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(paperkg.__path__, prefix="paperkg.")
    # setup.py sits in the repository root, which an editable install maps to paperkg;
    # it is no module of the package (a wheel leaves it out)
    if ".cli" not in m.name and ".training" not in m.name and m.name != "paperkg.setup"
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name, monkeypatch, repo_root):
    monkeypatch.chdir(repo_root)
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


@pytest.mark.parametrize("name", ["synthetic_corpus", "synthetic_field"])
def test_the_bench_data_makers_examples_run(name):
    """The synthetic data the benchmarks and tests use lives in bench/ (on the path here)."""
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted and result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
