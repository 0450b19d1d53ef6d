"""Co-occurrence counting in numpy gives what counting pairs one by one gives, in the same order."""

from collections import Counter
from itertools import combinations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from paperkg.graph.builder import _PairTotals, cooccurrence_counts


def counted_one_by_one(paper_concepts):
    pairs = Counter()
    for concepts in paper_concepts:
        pairs.update(combinations(sorted(concepts), 2))
    return list(pairs.items())  # a Counter keeps the order pairs first came in


concept_sets = st.lists(st.sets(st.sampled_from([f"Method:m{i}" for i in range(12)]), max_size=8))


@given(concept_sets)
def test_counts_and_order_are_those_of_counting_pairs(paper_concepts):
    assert list(cooccurrence_counts(paper_concepts)) == counted_one_by_one(paper_concepts)


def test_no_papers_and_papers_of_one_concept_have_no_pairs():
    assert list(cooccurrence_counts([])) == []
    assert list(cooccurrence_counts([{"Task:qa"}, set()])) == []


@given(concept_sets, st.integers(min_value=1, max_value=7))
def test_counting_chunk_by_chunk_changes_nothing(paper_concepts, chunk):
    from paperkg.graph import builder

    default = builder._PAIR_CHUNK
    builder._PAIR_CHUNK = chunk  # totals merged after every few pairs
    try:
        assert list(cooccurrence_counts(paper_concepts)) == counted_one_by_one(paper_concepts)
    finally:
        builder._PAIR_CHUNK = default


@given(concept_sets, st.integers(min_value=1, max_value=7), st.integers(min_value=1, max_value=3))
def test_counting_in_parts_changes_nothing(paper_concepts, part, least):
    from paperkg.graph import builder

    default = builder._PAIRS_PER_PART, builder._PAIR_CHUNK
    builder._PAIRS_PER_PART, builder._PAIR_CHUNK = part, 3  # a pass per few pairs
    try:
        expected = [(pair, n) for pair, n in counted_one_by_one(paper_concepts) if n >= least]
        assert list(cooccurrence_counts(paper_concepts, min_papers=least)) == expected
    finally:
        builder._PAIRS_PER_PART, builder._PAIR_CHUNK = default


@given(concept_sets, st.integers(min_value=1, max_value=4))
def test_a_minimum_keeps_the_pairs_counted_that_often_in_the_same_order(paper_concepts, least):
    expected = [(pair, n) for pair, n in counted_one_by_one(paper_concepts) if n >= least]

    assert list(cooccurrence_counts(paper_concepts, min_papers=least)) == expected


@given(concept_sets, st.integers(min_value=1, max_value=4))
def test_paper_counts_the_caller_has_give_the_same_pairs(paper_concepts, least):
    papers_of = Counter(c for concepts in paper_concepts for c in concepts)

    given_counts = cooccurrence_counts(paper_concepts, min_papers=least, papers_of=papers_of)

    assert list(given_counts) == list(cooccurrence_counts(paper_concepts, min_papers=least))


def test_positions_past_two_billion_occurrences_are_kept_in_64_bits():
    totals = _PairTotals()  # 32-bit positions until they no longer fit
    totals.add(np.array([5, 3, 5]), 2**31 - 1)
    assert list(totals.codes) == [3, 5] and list(totals.counts) == [1, 2]
    assert list(totals.first) == [2**31, 2**31 - 1]
