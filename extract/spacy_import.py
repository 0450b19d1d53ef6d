"""Import spaCy without PyTorch when the pipeline to be loaded does not run on it.

spaCy's machine-learning library, thinc, imports PyTorch as it is itself
imported whenever PyTorch is installed (``thinc.compat``), whether or not a
pipeline uses it. paperkg's shipped pipelines run on thinc's numpy ops and
onnxruntime; PyTorch is installed only for ``paperkg train --transformer``.
Importing it anyway costs every extraction process 2-4 s of its start (the
main process, each worker of ``--jobs N``, each Dask worker) and about 300 MB,
which is most of what a rebuild that extracts a few new papers spends.

So, before spaCy is first imported in a process, :func:`import_spacy_for` reads
the config of the pipeline about to be loaded. When every component and
architecture in it is one known to run without PyTorch, ``torch`` is hidden
for the length of that import, and thinc records that it has none. Anything
else (spacy-transformers, a ``TorchBiLSTMEncoder``, an unknown factory, a
config that cannot be read) imports spaCy as usual.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import re
import sys
from pathlib import Path

__all__ = ["import_spacy_for", "pipeline_needs_torch"]

#: spaCy's own components that run on thinc's numpy ops, and paperkg's
_TORCH_FREE_FACTORIES = frozenset(
    "tok2vec tagger morphologizer senter sentencizer parser ner beam_ner beam_parser "
    "attribute_ruler lemmatizer trainable_lemmatizer entity_ruler span_ruler spancat "
    "spancat_singlelabel textcat textcat_multilabel entity_linker span_finder "
    "merge_noun_chunks merge_entities merge_subtokens token_splitter doc_cleaner".split()
)
_SETTING = re.compile(r'^\s*(factory|@architectures)\s*=\s*"([^"]+)"', re.MULTILINE)


def pipeline_needs_torch(config_text: str) -> bool:
    """Whether a pipeline with this ``config.cfg`` may need PyTorch.

    >>> pipeline_needs_torch('factory = "ner"\\n@architectures = "spacy.TransitionBasedParser.v2"')
    False
    >>> pipeline_needs_torch('factory = "transformer"\\n@architectures = "spacy-transformers.TransformerModel.v3"')
    True
    >>> pipeline_needs_torch('@architectures = "spacy.TorchBiLSTMEncoder.v1"')
    True
    >>> pipeline_needs_torch('factory = "someone_elses_component"')
    True
    """
    for kind, value in _SETTING.findall(config_text):
        if "torch" in value.lower():
            return True
        if kind == "factory" and not (
            value in _TORCH_FREE_FACTORIES or value.startswith("paperkg_")
        ):
            return True
        if kind == "@architectures" and not value.startswith("spacy."):
            return True
    return False


def _config_of(model: str | Path | None) -> str | None:
    """The text of ``model``'s config.cfg (a folder or an installed package), or None."""
    from ..errors import ExtractionError
    from .model_names import BASE_MODEL, resolve_model

    try:
        resolved = resolve_model(model)
    except ExtractionError:  # load_pipeline says so, with the same message
        return None
    name = BASE_MODEL if resolved is None else resolved
    folder = Path(name)
    if not folder.is_dir():
        try:
            spec = importlib.util.find_spec(str(name))
        except (ImportError, ValueError):
            return None
        if spec is None or not spec.submodule_search_locations:
            return None
        folder = Path(next(iter(spec.submodule_search_locations)))
    configs = [folder / "config.cfg", *sorted(folder.glob("*/config.cfg"))]
    for config in configs:
        try:
            return config.read_text(encoding="utf-8")
        except OSError:
            continue
    return None


class _HideTorch(importlib.abc.MetaPathFinder):
    """A finder that answers "no such module" for ``torch`` and its submodules."""

    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


def import_spacy_for(model: str | Path | None) -> bool:
    """Import spaCy for loading ``model``, without PyTorch when it does not need it.

    Returns True when PyTorch was left out. Does nothing more than ``import
    spacy`` once spaCy or PyTorch is already imported in this process.
    """
    if "spacy" in sys.modules or "torch" in sys.modules:
        import spacy  # noqa: F401

        return False
    config = _config_of(model)
    if config is None or pipeline_needs_torch(config):
        import spacy  # noqa: F401

        return False
    hide = _HideTorch()
    sys.meta_path.insert(0, hide)
    try:
        import spacy  # noqa: F401
        import thinc.api  # noqa: F401  (thinc.compat decides has_torch here)
    finally:
        sys.meta_path.remove(hide)
    return True
