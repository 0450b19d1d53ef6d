"""A bundle cell is what the driver would store, whatever the value and its column."""

import itertools

from paperkg.export.neo4j_bundle import _CellWriter, _Column, _ColumnFinder, _kind
from paperkg.export.neo4j_rows import neo4j_value

VALUES = [
    "BERT",
    "",
    "a|b",
    None,
    0,
    7,
    -3,
    2.5,
    0.1 + 0.2,
    1e-300,
    float("inf"),
    True,
    False,
    ["GNN", "graph neural network"],
    ["a|b", ""],
    ["", ""],
    ["x", "", "y|z|w"],
    [],
    [1, 2],
    [1, 2.5],
    [True, "x"],
    {"b": 1, "a": [2]},
    {},
    ("x", None),
    {"s", "t"},
]
COLUMNS = [
    _Column(name, kind, is_list)
    for name, (kind, is_list) in zip(
        "abcdefgh",
        itertools.product((str, int, float, bool), (False, True)),
        strict=True,
    )
]


def test_a_cell_written_at_once_is_the_cell_of_the_stored_value():
    fast, slow = _CellWriter(), _CellWriter()
    for value, column in itertools.product(VALUES, COLUMNS):
        stored = neo4j_value(value)
        if column.is_list and not isinstance(stored, list) and stored is not None:
            continue  # a list column holds lists only (the first pass makes it so)
        assert fast.cell_of(value, column) == slow.cell(stored, column), (value, column)
    assert fast.replaced == slow.replaced > 0


def test_the_columns_found_are_the_kinds_of_the_stored_values():
    for value in VALUES:
        finder = _ColumnFinder()
        finder.see({"k": value}, skip=())
        stored = neo4j_value(value)
        expected = {} if stored is None else {"k": {_kind(stored)}}
        assert finder.seen == expected, value
