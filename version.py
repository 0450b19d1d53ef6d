"""paperkg's version, in a module of its own: the extraction cache keys on it, and the
package's ``__init__`` (which can import the whole API) need not be imported for it."""

__version__ = "0.1.0"
