"""The Typer app every command module registers on, with the one error handler they share.

Kept apart from the package's ``__init__``, which imports every command module: a
command imports ``app`` from here, not from the package that imports it.
"""

import functools
import logging

import typer

from ..errors import PaperkgError
from .output import fail

__all__ = ["PaperkgApp", "app"]


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
