"""Every name a package lists in ``__all__`` can be imported from it."""

import importlib

import pytest

PACKAGES = [
    "paperkg",
    "paperkg.extract",
    "paperkg.extract.resolve",
    "paperkg.graph",
    "paperkg.export",
]


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_is_there(package):
    module = importlib.import_module(package)
    missing = [name for name in module.__all__ if not hasattr(module, name)]
    assert missing == []
