"""The ``paperkg`` command line: thin Typer commands over library functions."""

import typer

app = typer.Typer(
    name="paperkg",
    help="Turn scientific paper abstracts into a knowledge graph.",
    no_args_is_help=True,
    add_completion=False,
)

# Each module registers its commands on ``app``; add new command modules here.
from . import (  # noqa: E402,F401
    analyze,
    build,
    evaluate,
    push,  # noqa: E402,F401
    train,
    view,  # noqa: E402,F401
)


def main() -> None:
    """Entry point of the ``paperkg`` console script."""
    app()
