"""The graph's attribute dicts share their keys: real dicts, a fraction of the memory."""

import json
import pickle
import platform
import sys

import pytest

from paperkg.graph.shared_keys import shared_key_dict

EDGE = {"type": "USES", "evidence": "We use BERT.", "count": 2, "weight": 2}


def test_a_shared_key_dict_is_an_equal_dict_in_the_same_order():
    made = shared_key_dict(EDGE)
    assert type(made) is dict and made == EDGE and list(made) == list(EDGE)
    assert json.dumps(made) == json.dumps(EDGE)
    assert pickle.loads(pickle.dumps(made)) == EDGE
    made["corpus_match"] = True  # a key the others lack
    assert list(made) == [*EDGE, "corpus_match"] and shared_key_dict(EDGE) == EDGE


@pytest.mark.skipif(platform.python_implementation() != "CPython", reason="CPython's key sharing")
def test_dicts_with_the_same_keys_hold_their_values_only():
    paper = {key: key.upper() for key in "label name paper_id title abstract year venue".split()}
    for items in (EDGE, paper):
        made = [shared_key_dict(items) for _ in range(50)]  # CPython sizes the first ones larger
        assert sys.getsizeof(made[-1]) < 0.7 * sys.getsizeof(dict(list(items.items())))


def test_keys_that_cannot_be_attributes_make_a_plain_dict():
    for items in ({"__class__": 1}, {1: "one"}):
        assert shared_key_dict(items) == items
