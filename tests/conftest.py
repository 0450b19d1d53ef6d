"""Fixtures shared by the whole suite: the spaCy pipeline and the example graph, loaded once."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

# the CLI keeps extractions in a cache (paperkg.extract.cache): give the suite its own,
# empty at every run, so no test reads what another run or a user's builds left
os.environ["PAPERKG_CACHE_DIR"] = tempfile.mkdtemp(prefix="paperkg-test-cache-")

REPO_ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = REPO_ROOT / "examples" / "iclr2025_abstracts.txt"
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data``; tests that need it skip when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is absent (only on the developers' machines)")
    return SHARED_DATA


@pytest.fixture(scope="session")
def nlp():
    from paperkg.extract.pipeline import load_pipeline

    return load_pipeline()


@pytest.fixture(scope="session")
def example_build():
    """The build of the bundled ICLR 2025 example (read, extracted, resolved)."""
    from paperkg.api import build

    return build([EXAMPLE])


@pytest.fixture(scope="session")
def example_graph(example_build):
    return example_build.graph
