"""Extraction: input files -> Paper records -> mentions -> canonical concepts.

The stage in calls: :func:`read_inputs` (readers), :func:`load_pipeline` (the spaCy
pipeline), :func:`extract_mentions` (Mention records per paper) and
:func:`resolve_concepts` (mentions -> Concept records). Submodules are imported
lazily so that reading a file never pays for loading spaCy.
"""

__all__ = ["canonical_key", "extract_mentions", "load_pipeline", "read_inputs", "resolve_concepts"]

_WHERE = {
    "canonical_key": "resolve",
    "extract_mentions": "nlp.extractor",
    "load_pipeline": "nlp.pipeline",
    "read_inputs": "readers",
    "resolve_concepts": "resolve",
}


def __getattr__(name: str):
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module 'paperkg.extract' has no attribute {name!r}")
