"""Import spaCy without PyTorch when the pipeline to be loaded does not run on it.

spaCy's machine-learning library, thinc, imports PyTorch as it is itself
imported whenever PyTorch is installed (``thinc.compat``), whether or not a
pipeline uses it. paperkg's shipped pipelines run on thinc's numpy ops and
onnxruntime; PyTorch is installed only for ``paperkg train``.
Importing it anyway costs every extraction process 2-4 s of its start (the
main process, each worker of ``--jobs N``, each Dask worker) and about 300 MB,
which is most of what a rebuild that extracts a few new papers spends.

So, before spaCy is first imported in a process that is paperkg's own (the
``paperkg`` command, the extraction workers it starts, the workers of
``--dask local``; see :func:`own_this_process`), :func:`import_spacy_for`
reads the config of the pipeline about to be loaded. When every component and
architecture in it is one known to run without PyTorch, ``torch`` is hidden
from that thread while spaCy is imported. thinc then records, for the rest of
the process, that it has no PyTorch. That is why a process paperkg does not own
(a notebook calling :func:`paperkg.api.build`, a Dask worker of someone's
cluster) imports spaCy as usual: its owner may load a PyTorch pipeline later.
Anything that might need PyTorch (spacy-transformers, a ``TorchBiLSTMEncoder``,
an unknown factory, a config that cannot be read) imports spaCy as usual too.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import re
import sys
import threading
from pathlib import Path

from ...errors import ExtractionError

__all__ = [
    "import_spacy_for",
    "own_this_process",
    "pipeline_needs_torch",
]

#: spaCy's own components that run on thinc's numpy ops, and paperkg's
_TORCH_FREE_FACTORIES = frozenset(
    "tok2vec tagger morphologizer senter sentencizer parser ner beam_ner beam_parser "
    "attribute_ruler lemmatizer trainable_lemmatizer entity_ruler span_ruler spancat "
    "spancat_singlelabel textcat textcat_multilabel entity_linker span_finder "
    "merge_noun_chunks merge_entities merge_subtokens token_splitter doc_cleaner".split()
)
_SETTING = re.compile(r'^\s*(factory|@architectures)\s*=\s*"([^"]+)"', re.MULTILINE)
#: anywhere in a config, even inline: a registered function named after PyTorch
_TORCH_WORDS = re.compile(r"torch|transformers", re.IGNORECASE)

_lock = threading.Lock()
_owned = False  # this process is paperkg's alone (own_this_process)
_hidden = False  # spaCy was imported here with torch hidden


def own_this_process() -> None:
    """Declare this process paperkg's alone, so spaCy may be imported in it without PyTorch.

    Called by the ``paperkg`` command and in the worker processes paperkg starts.
    Not by the library: thinc decides once per process whether it has
    PyTorch, and a process that calls :func:`paperkg.api.build` may need it after.
    """
    global _owned
    _owned = True


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
    >>> pipeline_needs_torch('model = {"@layers": "PyTorchWrapper.v2"}')
    True
    """
    if _TORCH_WORDS.search(config_text):
        return True
    for kind, value in _SETTING.findall(config_text):
        if kind == "factory" and not (
            value in _TORCH_FREE_FACTORIES or value.startswith("paperkg_")
        ):
            return True
        if kind == "@architectures" and not value.startswith("spacy."):
            return True
    return False


def _config_of(model: str | Path | None) -> str | None:
    """The text of ``model``'s config.cfg (a folder or an installed package), or None."""
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
    """A finder that answers "no such module" for ``torch`` to one thread."""

    def __init__(self) -> None:
        self.thread = threading.get_ident()

    def find_spec(self, name, path=None, target=None):
        if threading.get_ident() != self.thread:
            return None
        if name == "torch" or name.startswith("torch."):
            raise ModuleNotFoundError(
                f"No module named {name!r} (hidden by paperkg while importing spaCy "
                "for a pipeline that runs without PyTorch)",
                name=name,
            )
        return None


def import_spacy_for(model: str | Path | None) -> bool:
    """Import spaCy for loading ``model``, without PyTorch when this process is paperkg's
    own and the pipeline does not need it. Returns True when PyTorch was left out.

    Raises
    ------
    ExtractionError
        ``model`` runs on PyTorch but spaCy was imported in this process without it.
    """
    global _hidden
    with _lock:
        if "spacy" in sys.modules or "torch" in sys.modules:
            config = _config_of(model) if _hidden else None  # read only when it matters
            if config is not None and pipeline_needs_torch(config):
                raise ExtractionError(
                    f"the pipeline {model!r} runs on PyTorch, but this process imported "
                    "spaCy without it for paperkg's own pipeline; extract with it in a "
                    "new process (or a new Dask worker)"
                )
            import spacy  # noqa: F401

            return False
        config = _config_of(model) if _owned else None
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
        _hidden = True
        return True
