"""The ``paperkg`` command line: thin Typer commands over library functions.

Every command is registered on :data:`~paperkg.cli.app.app`, whose one error
handler turns any :class:`~paperkg.errors.PaperkgError` into one red line and
exit code 1, so no command can let a traceback through for a user's mistake.
"""

import atexit
import os
import sys
import threading
from typing import NoReturn

# Each module registers its commands on ``app``; add new command modules here.
from . import (  # noqa: E402,F401
    analyze,
    build,
    evaluate,
    push,
    train,
    view,
)
from .app import app  # noqa: E402


def main() -> None:
    """Entry point of the ``paperkg`` console script."""
    from ..extract.spacy_import import own_this_process

    own_this_process()  # spaCy may come without PyTorch here (see extract/spacy_import.py)
    try:
        app()
    except SystemExit as done:
        leave(done.code)


def leave(code: object) -> NoReturn:
    """End the command with ``code`` (a ``SystemExit`` code) without tearing Python down.

    Why: a build's graph is freed by the cyclic garbage collector (networkx's cached
    views refer back to their graph), which Python runs over every object as it
    exits: 0.3 s of a 10 s rebuild of 3,218 papers, and more as the graph grows.
    The process's memory goes back to the system anyway. What an exit must do is
    still done: the ``atexit`` handlers run (multiprocessing's, logging's) and the
    output is flushed. While another thread runs, Python exits as usual (it waits
    for the thread). mypy ends the same way.
    """
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:  # what sys.exit does with a message
        print(code, file=sys.stderr)
        status = 1
    run_exit_handlers = getattr(atexit, "_run_exitfuncs", None)
    if run_exit_handlers is None or threading.active_count() > 1:
        sys.exit(status)
    run_exit_handlers()
    for stream in (sys.stdout, sys.stderr):
        if stream is None or stream.closed:  # started without it (">&-"), or closed: as Python
            continue
        try:
            stream.flush()
        except OSError:  # a closed pipe ("paperkg ... | head")
            status = status or 120  # Python's own status when it cannot flush at exit
    os._exit(status)
