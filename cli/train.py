"""``paperkg train``: reproduce (or fine-tune) the shipped transformer NER."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from .app import app
from .output import console


@app.command("train")
def train_command(
    output: Annotated[
        Path, typer.Option("--output", "-o", help="Folder for corpora, checkpoints and the model.")
    ],
    scierc: Annotated[
        Optional[Path],  # noqa: UP045 (typer needs Optional on Python 3.10)
        typer.Option(help="SciERC folder with train.json and dev.json."),
    ] = None,
    scier: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(help="SciER folder with train.jsonl and dev.plm.jsonl (or dev.jsonl)."),
    ] = None,
    tdmsci: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(help="TDMSci train_1500_v2.conll or its folder (last 20% held out)."),
    ] = None,
    scirex: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(help="SciREX train.jsonl or its folder (titles and abstracts are used)."),
    ] = None,
    annotations: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            help="In-domain annotations: a JSON-lines file, or a folder of them as "
            "bench/judged/annotations (its check-* batches left out).",
        ),
    ] = None,
    annotated_inputs: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "--annotated-inputs",
            help="Input files or globs holding the annotated papers, e.g. "
            "'../shared/data/neurips2023/*.csv' (repeatable).",
        ),
    ] = None,
    config: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(help="Training config (default: the committed transformer.cfg)."),
    ] = None,
    settings: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "--set",
            help="Transformer config override, e.g. --set training.epochs=2 (repeatable).",
        ),
    ] = None,
) -> None:
    """Train the METHOD/DATASET/TASK/METRIC transformer NER into OUTPUT/paperkg_trf
    (needs the train extra: PyTorch, transformers, onnx).

    Run on the public SciERC, SciER, TDMSci and SciREX releases it reproduces
    the model shipped in paperkg/extract/nlp/models/paperkg_trf
    (extract/training/transformer.cfg). With --annotations, in-domain annotations
    join them: their train split is learnt, their select split chooses the epoch
    and their test split is scored at the end. Use the result with
    `paperkg build --model OUTPUT/paperkg_trf` or `paperkg eval --model ...`.
    """
    from ..extract.training.transformer import TRANSFORMER_CONFIG, train_transformer

    model_dir = train_transformer(
        output,
        scierc=scierc,
        scier=scier,
        tdmsci=tdmsci,
        scirex=scirex,
        config=config or TRANSFORMER_CONFIG,
        overrides=_parse_settings(settings or []),
        annotated=_annotated(annotations, annotated_inputs or []) if annotations else None,
    )
    _print_scores(model_dir)


def _annotated(annotations: Path, inputs: list[str]) -> dict:
    """The annotations' gold documents by split, their papers read from ``inputs``."""
    from ..extract.evaluate.annotations import read_annotations
    from ..extract.readers import read_inputs

    if not inputs:
        raise typer.BadParameter(
            "the annotations keep no text: name the files holding their papers with "
            "--annotated-inputs",
            param_hint="--annotated-inputs",
        )
    if annotations.is_dir():
        files = sorted(f for f in annotations.glob("*.jsonl") if not f.name.startswith("check"))
    else:
        files = [annotations]
    papers = {paper.id: paper for paper in read_inputs(inputs).papers}
    return read_annotations(files, papers)


def _parse_settings(settings: list[str]) -> dict:
    """``["training.epochs=2"]`` -> ``{"training.epochs": 2}`` (numbers parsed as JSON)."""
    out = {}
    for item in settings:
        key, sep, value = item.partition("=")
        if not sep:
            raise typer.BadParameter(f"{item!r}: write --set section.key=value")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out


def _print_scores(model_dir: Path) -> None:
    meta = json.loads((model_dir / "meta.json").read_text(encoding="utf-8"))
    table = Table(title=f"{model_dir}: exact-match F1", caption=meta["paperkg_scores"].get("note"))
    table.add_column("eval set")
    for column in ("METHOD", "DATASET", "TASK", "METRIC", "micro"):
        table.add_column(column, justify="right")
    for name, scores in meta["paperkg_scores"].items():
        if isinstance(scores, dict):
            cells = [
                f"{100 * scores[c]['f1']:.1f}" if c in scores else "-"
                for c in ("METHOD", "DATASET", "TASK", "METRIC", "micro")
            ]
            table.add_row(name, *cells)
    console.print(table)
