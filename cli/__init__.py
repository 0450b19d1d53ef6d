"""The ``paperkg`` command line: thin Typer commands over library functions.

Every command is registered on :data:`~paperkg.cli.app.app`, whose one error
handler turns any :class:`~paperkg.errors.PaperkgError` into one red line and
exit code 1, so no command can let a traceback through for a user's mistake.
"""

# Each module registers its commands on ``app``; add new command modules here.
from . import analyze, build, evaluate, push, train, view  # noqa: F401
from .app import app


def main() -> None:
    """Entry point of the ``paperkg`` console script."""
    from ..extract.nlp.spacy_import import own_this_process

    own_this_process()  # spaCy may come without PyTorch here (see extract/nlp/spacy_import.py)
    app()
