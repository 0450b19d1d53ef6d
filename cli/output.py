"""What every command prints, in one place: the consoles, the one-line error, shared reports."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table

from ..errors import PaperkgError

#: results go to standard output, progress and errors to standard error
console = Console()
err_console = Console(stderr=True)


def fail(error: PaperkgError) -> None:
    """Say what went wrong in one red line and exit with code 1 (every command, every error)."""
    err_console.print(f"[red]error:[/red] {error}", highlight=False, soft_wrap=True)
    raise typer.Exit(1) from error


def print_push_report(report, *, uri: str) -> None:
    """A short table of what a push sent and created (for ``push`` and ``build --neo4j-uri``)."""
    console.print(
        f"pushed to {uri} (database {report.database or 'default'}, Neo4j {report.server_version})",
        highlight=False,
        soft_wrap=True,
    )
    table = Table()
    table.add_column("label / type")
    table.add_column("in graph", justify="right")
    for name, n in [*report.nodes.items(), *report.relationships.items()]:
        table.add_row(name, str(n))
    console.print(table)
    console.print(
        f"created {report.nodes_created} nodes and {report.relationships_created} relationships; "
        f"the others already existed and were updated ({report.batches} batches, "
        f"{report.seconds:.1f} s)",
        highlight=False,
        soft_wrap=True,
    )
    if report.nodes_deleted or report.relationships_deleted:
        console.print(
            f"pruned {report.nodes_deleted} nodes and {report.relationships_deleted} "
            "relationships the build no longer has",
            highlight=False,
        )
