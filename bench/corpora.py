"""NeurIPS 2023 extracted once, then built again from any of its papers: the corpora
the training scripts (``concept_training.py``, ``train_contributions.py``) learn from.

The extraction cache makes the first step quick; the corpus stages after it run on
whichever papers a script reads as a corpus of their own (the whole conference, or
reading lists of 20).
"""

from __future__ import annotations

from dataclasses import replace

from paperkg.api import BUILD_STAGES
from paperkg.extract.nlp.cache import default_cache_dir
from paperkg.stages import BuildOptions, Corpus, Stage, run_stages

#: build stages 1-2: reading the inputs and extracting every paper's mentions
EXTRACTION = BUILD_STAGES[:2]


def add_model_option(parser) -> None:
    """``--model``: the NER whose mentions a training script learns from."""
    parser.add_argument(
        "--model",
        help="the NER pipeline folder to learn from the mentions of (default: the shipped one); "
        "without --out, the shipped model files are replaced",
    )


def extracted_corpus(paths: list[str], model: str | None = None) -> Corpus:
    """The papers of ``paths`` read and extracted (from the default extraction cache) by
    ``model`` (a pipeline folder; the shipped one when None), their records held as a
    list so that any of them can be built again."""
    options = BuildOptions(model=model, cache_dir=default_cache_dir(), jobs=1)
    extracted = run_stages(EXTRACTION, Corpus(list(paths), options))
    return replace(extracted, results=list(extracted.results))


def built_from(extracted: Corpus, papers: list, stages: tuple[Stage, ...] | list[Stage]) -> Corpus:
    """``papers`` (records of ``extracted``) built as a corpus of their own through
    ``stages`` (stages after the extraction)."""
    read = replace(extracted.read, papers=[r.paper for r in papers])
    return run_stages(stages, replace(extracted, read=read, results=papers))
