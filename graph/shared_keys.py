"""Attribute dicts that share one table of keys, as an object's ``__dict__`` does.

A corpus graph has millions of attribute dicts with the same few keys: every
paper-to-concept edge has ``type``, ``evidence``, ``count``, ``weight``; every
concept node the same eight. A plain dict stores its keys in each dict (200
bytes for four, 500 for a paper's twelve). CPython stores the keys of the
``__dict__``\\ s of a class's instances once, in the class, when the
attributes are set in the same order; each dict then holds only its values
(120 and 200 bytes). :func:`shared_key_dict` makes such a dict by setting the
attributes on an instance of a class kept per key sequence and returning its
``__dict__``: a real :class:`dict` (``type(d) is dict``, JSON, pickle, ``==``
and new keys work as ever), smaller where CPython shares keys and the same
elsewhere.
"""

from __future__ import annotations

from typing import Any

__all__ = ["MAX_KEY_SEQUENCES", "shared_key_dict"]

#: classes whose instances' dicts share keys, one per key sequence (few: a paper
#: lacks a year or a venue, an edge a mark); beyond this many, plain dicts
MAX_KEY_SEQUENCES = 256

_holders: dict[tuple, type] = {}


def shared_key_dict(items: dict[str, Any]) -> dict[str, Any]:
    """A dict equal to ``items``, with its keys in the same order, sharing its key
    table with the other dicts made here with the same keys in the same order.

    >>> a = shared_key_dict({"type": "USES", "weight": 2})
    >>> a, type(a) is dict, list(a) == ["type", "weight"]
    ({'type': 'USES', 'weight': 2}, True, True)
    >>> a["note"] = "any key can be added"; len(a)
    3
    """
    keys = tuple(items)
    holder = _holders.get(keys)
    if holder is None:
        if len(_holders) >= MAX_KEY_SEQUENCES or not all(
            type(k) is str and not k.startswith("__")
            for k in keys  # not __class__, __dict__
        ):
            return dict(items)
        holder = _holders[keys] = type("SharedKeys", (), {"__module__": __name__})
    instance = holder()
    for key, value in items.items():
        setattr(instance, key, value)
    return instance.__dict__
