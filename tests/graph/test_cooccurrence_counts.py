"""Co-occurrence counted as a sparse matrix product gives what counting pairs one by one
gives, in the same order (graph.json's edge order depends on it)."""

from collections import Counter
from itertools import combinations
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from paperkg.graph import incidence
from paperkg.graph.builder import paper_concepts
from paperkg.graph.incidence import count_cooccurrences
from paperkg.records import Resolution


def counted_by_the_build(named, *, min_papers=1):
    """The pairs as the build counts them, ``((a, b), papers)`` each: the paper x concept
    rows of papers naming the concepts in ``named`` (:func:`paper_concepts`, no broader
    concepts), counted by :func:`count_cooccurrences`."""
    concept_of = [list(concepts) for concepts in named]
    papers = [i for i, concepts in enumerate(concept_of) for _ in concepts]
    rows = paper_concepts(papers, Resolution(concept_of=concept_of), broader={})
    counted = count_cooccurrences(rows, min_papers=min_papers)
    return [((a, b), n) for a, b, n in counted[["a", "b", "papers"]].values.tolist()]


def counted_one_by_one(named):
    pairs = Counter()
    for concepts in named:
        pairs.update(combinations(sorted(concepts), 2))
    return list(pairs.items())  # a Counter keeps the order pairs first came in


concept_sets = st.lists(st.sets(st.sampled_from([f"Method:m{i}" for i in range(12)]), max_size=8))


@settings(deadline=None)  # a loaded machine, not paperkg, decides how long an example takes
@given(concept_sets)
def test_counts_and_order_are_those_of_counting_pairs(named):
    assert counted_by_the_build(named) == counted_one_by_one(named)


@settings(deadline=None)
@given(concept_sets, st.integers(min_value=1, max_value=30))
def test_the_same_when_the_pairs_are_listed_a_few_papers_at_a_time(named, at_once):
    # each pair's first paper is found a block of papers at a time (a block lists about
    # PAIRS_AT_ONCE pairs), never from the corpus's pairs listed all at once
    with patch.object(incidence, "PAIRS_AT_ONCE", at_once):
        counted = counted_by_the_build(named)

    assert counted == counted_one_by_one(named)


def test_a_pair_comes_where_a_paper_first_names_it_then_in_sorted_order():
    papers = [{"Task:d", "Task:c"}, {"Task:a", "Task:c"}, {"Task:b", "Task:a", "Task:d"}]

    assert [pair for pair, _ in counted_by_the_build(papers)] == [
        ("Task:c", "Task:d"),
        ("Task:a", "Task:c"),
        ("Task:a", "Task:b"),
        ("Task:a", "Task:d"),
        ("Task:b", "Task:d"),
    ]


def test_no_papers_and_papers_of_one_concept_have_no_pairs():
    assert counted_by_the_build([]) == []
    assert counted_by_the_build([{"Task:qa"}, set()]) == []


@settings(deadline=None)
@given(concept_sets, st.integers(min_value=1, max_value=4))
def test_a_minimum_keeps_the_pairs_counted_that_often_in_the_same_order(named, least):
    expected = [(pair, n) for pair, n in counted_one_by_one(named) if n >= least]

    assert counted_by_the_build(named, min_papers=least) == expected


def test_pairs_counted_on_a_dask_cluster_are_those_counted_in_memory(local_cluster):
    import random

    import dask.dataframe as dd
    import pandas as pd

    from paperkg.extract.nlp.dask_cluster import dask_client
    from paperkg.graph.incidence import count_cooccurrences, count_cooccurrences_on_dask

    rng = random.Random(0)
    # a few concepts in many papers, most in one or two
    names = [f"Method:m{i:02}" for i in range(40)]
    weights = range(40, 0, -1)
    papers = [set(rng.choices(names, weights, k=rng.randrange(6))) for _ in range(400)]
    concepts = [c for named in papers for c in named]
    rows = pd.DataFrame(
        {
            "paper": [i for i, named in enumerate(papers) for _ in named],
            "concept": pd.Categorical(concepts, categories=names),
        }
    )
    # split by rows: a paper's rows may start in one partition and end in the next
    spread = dd.from_pandas(rows, npartitions=6)

    for least in (1, 3):
        with dask_client(local_cluster.scheduler_address):
            on_dask = count_cooccurrences_on_dask(spread, min_papers=least)

        in_memory = count_cooccurrences(rows, min_papers=least)
        one_by_one = [[a, b, n] for (a, b), n in counted_one_by_one(papers) if n >= least]
        assert on_dask.values.tolist() == in_memory.values.tolist() == one_by_one


def test_papers_link_to_their_concepts_and_the_broader_ones_once_each():
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
