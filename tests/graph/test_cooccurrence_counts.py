"""Co-occurrence counted as a sparse matrix product gives what counting pairs one by one
gives, in the same order (graph.json's edge order depends on it)."""

from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from paperkg.graph.builder import cooccurrence_counts


def counted_one_by_one(paper_concepts):
    pairs = Counter()
    for concepts in paper_concepts:
        pairs.update(combinations(sorted(concepts), 2))
    return list(pairs.items())  # a Counter keeps the order pairs first came in


concept_sets = st.lists(st.sets(st.sampled_from([f"Method:m{i}" for i in range(12)]), max_size=8))


@settings(deadline=None)  # a loaded machine, not paperkg, decides how long an example takes
@given(concept_sets)
def test_counts_and_order_are_those_of_counting_pairs(paper_concepts):
    assert list(cooccurrence_counts(paper_concepts)) == counted_one_by_one(paper_concepts)


def test_a_pair_comes_where_a_paper_first_names_it_then_in_sorted_order():
    papers = [{"Task:d", "Task:c"}, {"Task:a", "Task:c"}, {"Task:b", "Task:a", "Task:d"}]

    assert [pair for pair, _ in cooccurrence_counts(papers)] == [
        ("Task:c", "Task:d"),
        ("Task:a", "Task:c"),
        ("Task:a", "Task:b"),
        ("Task:a", "Task:d"),
        ("Task:b", "Task:d"),
    ]


def test_no_papers_and_papers_of_one_concept_have_no_pairs():
    assert list(cooccurrence_counts([])) == []
    assert list(cooccurrence_counts([{"Task:qa"}, set()])) == []


@settings(deadline=None)
@given(concept_sets, st.integers(min_value=1, max_value=4))
def test_a_minimum_keeps_the_pairs_counted_that_often_in_the_same_order(paper_concepts, least):
    expected = [(pair, n) for pair, n in counted_one_by_one(paper_concepts) if n >= least]

    assert list(cooccurrence_counts(paper_concepts, min_papers=least)) == expected


def test_papers_link_to_their_concepts_and_the_broader_ones_once_each():
    from paperkg.graph.builder import paper_concepts
    from paperkg.records import Resolution

    resolution = Resolution(
        concept_of=[
            ["Method:latent diffusion model", "Method:latent diffusion model", None],
            [],
            ["Task:qa"],
        ]
    )
    broader = {"Method:latent diffusion model": "Method:diffusion model"}

    rows = paper_concepts([0, 0, 0, 2], resolution, broader)

    assert sorted(rows.values.tolist()) == [
        [0, "Method:diffusion model"],
        [0, "Method:latent diffusion model"],
        [2, "Task:qa"],
    ]
    assert list(rows["concept"].cat.categories) == sorted(set(rows["concept"]))
    assert len(paper_concepts([], Resolution(concept_of=[[], []]), {})) == 0
