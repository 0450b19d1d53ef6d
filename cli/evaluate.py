"""``paperkg eval``: score the extraction pipeline against an annotated corpus."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from .app import app
from .output import console


class GoldFormat(str, Enum):
    scierc = "scierc"
    scier = "scier"
    tdmsci = "tdmsci"


@app.command("eval")
def eval_command(
    gold: Annotated[
        Path,
        typer.Argument(
            exists=True, dir_okay=False, help="Annotated file (SciERC, SciER or TDMSci format)."
        ),
    ],
    fmt: Annotated[GoldFormat, typer.Option("--format", "-f", help="Format of the gold file.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of tables.")
    ] = False,
    model: Annotated[
        Optional[str],  # noqa: UP045 (typer needs Optional on Python 3.10)
        typer.Option(
            "--model",
            "-m",
            help="accurate (the default), or a spaCy pipeline (path or package).",
        ),
    ] = None,
    heldout: Annotated[
        bool,
        typer.Option(
            "--heldout",
            help="TDMSci only: score just the held-out last 20% of train the model never saw.",
        ),
    ] = False,
    as_built: Annotated[
        bool,
        typer.Option(
            "--as-built",
            help="Read the texts as `paperkg build` does, not in the gold corpus's own "
            "annotation style (when the model learnt that style).",
        ),
    ] = False,
) -> None:
    """Print precision, recall and F1 per type and micro-averaged (exact and lenient match)."""
    from ..extract.evaluate import evaluate, read_gold, split_tdmsci
    from ..extract.nlp.pipeline import load_pipeline

    docs = read_gold(gold, fmt.value)
    if heldout:
        if fmt is not GoldFormat.tdmsci:
            raise typer.BadParameter("--heldout applies to --format tdmsci only.")
        docs = split_tdmsci(docs)[1]
    nlp = load_pipeline(model)
    style = None if as_built else fmt.value
    report = evaluate(nlp, docs, fmt.value, style=style)
    read_in = _style_read(nlp, style)
    if as_json:
        typer.echo(json.dumps({**report.to_dict(), "style": read_in}, indent=2))
        return
    for title, table in (("exact span match", report.exact), ("lenient", report.lenient)):
        console.print(_table(f"{gold.name} ({fmt.value}), {title}", table))
    console.print(
        f"{report.documents} documents, {report.docs_per_second:.1f} documents/s. "
        "Lenient: a prediction overlapping a gold span of the same label counts."
    )
    if read_in:
        console.print(
            f"Texts read in the {read_in!r} annotation style (--as-built: as a build reads)."
        )


def _style_read(nlp, style: str | None) -> str | None:
    """The annotation style the NER read the texts in, when its model has styles."""
    from ..extract.evaluate import styled_ner

    ner = styled_ner(nlp)
    if ner is None or not ner._styles:
        return None
    return style if style in ner._styles else ner.style


def _table(title: str, rows: dict[str, dict[str, float]]) -> Table:
    table = Table(title=title)
    for column in ("type", "precision", "recall", "F1", "support"):
        table.add_column(column, justify="left" if column == "type" else "right")
    for label, v in rows.items():
        table.add_row(
            label,
            f"{100 * v['precision']:.1f}",
            f"{100 * v['recall']:.1f}",
            f"{100 * v['f1']:.1f}",
            str(v["support"]),
            style="bold" if label == "micro" else None,
        )
    return table
