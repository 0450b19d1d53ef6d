"""The ``paperkg`` command line: thin Typer commands over library functions.

Every command is registered through :class:`PaperkgApp`, whose one error
handler turns any :class:`~paperkg.errors.PaperkgError` into one red line and
exit code 1, so no command can let a traceback through for a user's mistake.
"""

import functools
import logging

import typer

from ..errors import PaperkgError
from .output import fail


class PaperkgApp(typer.Typer):
    """A Typer app whose commands share one error handler (:func:`~paperkg.cli.output.fail`)."""

    def command(self, *args, **kwargs):
        register = super().command(*args, **kwargs)

        def decorator(function):
            @functools.wraps(function)
            def handled(*a, **kw):
                try:
                    return function(*a, **kw)
                except PaperkgError as error:
                    fail(error)

            register(handled)
            return function

        return decorator


# Libraries' own logs are not for a command's user: the Neo4j driver, for one, logs
# every retry of a lost connection at WARNING, which Python would print raw to stderr
# (it has no handler of its own). The command reports the outcome in one line.
for _library in ("neo4j", "distributed", "dask"):
    logging.getLogger(_library).addHandler(logging.NullHandler())

app = PaperkgApp(
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
    push,
    train,
    view,
)


def main() -> None:
    """Entry point of the ``paperkg`` console script."""
    from ..extract.spacy_import import own_this_process

    own_this_process()  # spaCy may come without PyTorch here (see extract/spacy_import.py)
    app()
