"""One exception base for paperkg, one subclass per stage.

Messages say what was received, what was expected and what to do next.
"""


class PaperkgError(Exception):
    """Base class of every error paperkg raises on purpose."""


class InputError(PaperkgError):
    """An input file or one of its records cannot be read."""


class ExtractionError(PaperkgError):
    """The NLP pipeline could not be loaded or run."""


class GraphError(PaperkgError):
    """A graph is malformed or of a kind an analytics function refuses."""


class ExportError(PaperkgError):
    """Writing the graph out (files, Neo4j, HTML) failed."""


class OutputsBusyError(ExportError):
    """Another build is writing into the same output folder."""
