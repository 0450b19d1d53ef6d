"""The Examples in the readers' docstrings run as tests."""

import doctest
import importlib

import pytest

MODULES = ["latex", "ids", "fields", "header", "csvrepair", "sources", "inputs"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"paperkg.extract.readers.{name}")

    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)

    assert attempted > 0 and failed == 0
