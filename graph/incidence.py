"""Papers x concepts as a sparse incidence matrix, and the co-occurrence counts it gives.

The graph builder and the concept map both count the papers two concepts share:
one row per paper, one column per concept, a one where the paper names the
concept; ``incidence.T @ incidence`` then holds, at ``[i, j]``, the papers that
name both concepts ``i`` and ``j`` (and on its diagonal, each concept's papers).

The builder's concepts come as a table of ``paper, concept`` rows (one per
concept a paper links to, :func:`paperkg.graph.builder.paper_concepts`), which
:func:`count_cooccurrences` turns into pair counts; on a Dask DataFrame of such
rows :func:`count_cooccurrences_on_dask` does the same, partition by partition.

Examples
--------
>>> incidence = incidence_matrix([0, 0, 1, 1, 1], [0, 1, 0, 1, 2], shape=(2, 3))
>>> cooccurrence(incidence).toarray()
array([[2, 2, 1],
       [2, 2, 1],
       [1, 1, 1]], dtype=int32)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from scipy import sparse

if TYPE_CHECKING:
    import dask.dataframe as dd

#: pairs of columns :func:`_first_rows` lists at once (a block of rows' pairs, 16 MB of codes)
PAIRS_AT_ONCE = 1 << 21

__all__ = [
    "cooccurrence",
    "count_cooccurrences",
    "count_cooccurrences_on_dask",
    "incidence_matrix",
    "pair_counts",
]


def incidence_matrix(
    rows: Sequence[int] | np.ndarray,
    cols: Sequence[int] | np.ndarray,
    shape: tuple[int, int],
    dtype: type = np.int32,
) -> sparse.csr_matrix:
    """A ``shape`` matrix with a one at each ``(rows[k], cols[k])`` (papers x concepts).

    Each pair must be given once: a repeated one would count twice.
    """
    ones = np.ones(len(rows), dtype=dtype)
    return sparse.csr_matrix((ones, (rows, cols)), shape=shape)


def cooccurrence(incidence: sparse.spmatrix) -> sparse.csr_matrix:
    """Column x column counts of the rows they share: ``incidence.T @ incidence``."""
    return (incidence.T @ incidence).tocsr()


def count_cooccurrences(incidence: pd.DataFrame, *, min_papers: int = 1) -> pd.DataFrame:
    """Every pair of concepts that ``min_papers`` papers or more name together.

    Parameters
    ----------
    incidence : DataFrame
        A row per paper and concept it names, each once: ``paper`` (int) and
        ``concept`` (a categorical whose categories are in the order pairs are
        to be written in, e.g. sorted).
    min_papers : int
        Pairs named together by fewer papers are left out.

    Returns
    -------
    DataFrame
        ``a``, ``b`` (the two concepts, ``a`` before ``b`` among the categories)
        and ``papers``, in order of first occurrence: by the first paper naming
        both, then by ``a``, then by ``b``.

    Examples
    --------
    >>> rows = pd.DataFrame({"paper": [0, 0, 0, 1, 1],
    ...                      "concept": pd.Categorical(["a", "b", "c", "a", "b"])})
    >>> count_cooccurrences(rows).values.tolist()
    [['a', 'b', 2], ['a', 'c', 1], ['b', 'c', 1]]
    """
    shared = incidence[incidence["concept"].isin(_in_papers(incidence, min_papers).index)]
    return _ordered(pair_counts(shared), min_papers, incidence["concept"].cat.categories)


def count_cooccurrences_on_dask(incidence: dd.DataFrame, *, min_papers: int = 1) -> pd.DataFrame:
    """:func:`count_cooccurrences` for rows spread over a Dask DataFrame's partitions,
    computed where dask computes (on a cluster's workers while a
    ``distributed.Client`` is open). The same pairs, counts and order.

    ``concept`` must be a categorical with known categories (as
    ``dask.dataframe.from_pandas`` keeps them). The rows are shuffled so that
    each paper's are in one partition; each partition counts its pairs
    (:func:`pair_counts`) and the counts are summed per pair.
    """
    kept = _in_papers(incidence, min_papers).compute().index
    shared = incidence[incidence["concept"].isin(list(kept))].shuffle("paper")
    counts = shared.map_partitions(pair_counts).groupby(["a", "b"])
    pairs = counts.agg({"papers": "sum", "first": "min"}).reset_index().compute()
    return _ordered(pairs, min_papers, incidence["concept"].cat.categories)


def pair_counts(incidence: pd.DataFrame) -> pd.DataFrame:
    """Each pair of concepts that the papers of ``incidence`` name together: ``a`` and
    ``b`` (codes of ``concept``'s categories, ``a < b``), the number of ``papers``
    and the ``first`` of them.

    ``incidence`` holds every row of each of its papers (the counts of papers in
    several frames add up).
    """
    rows, papers = pd.factorize(incidence["paper"], sort=True)
    cols = incidence["concept"].cat.codes.to_numpy()
    matrix = incidence_matrix(rows, cols, (len(papers), len(incidence["concept"].cat.categories)))
    counts = sparse.triu(cooccurrence(matrix), k=1).tocoo()
    first = papers[_first_rows(matrix, counts.row, counts.col)]
    return pd.DataFrame(
        {
            "a": counts.row.astype(np.int64),
            "b": counts.col.astype(np.int64),
            "papers": counts.data.astype(np.int64),
            "first": np.asarray(first, dtype=np.int64),
        }
    )


def _in_papers(incidence, min_papers: int):
    """The papers of each concept of ``incidence`` (pandas or dask) named by
    ``min_papers`` papers or more: a pair can be that often only if each of its
    concepts is, and most concepts of a corpus are named once."""
    papers = incidence["concept"].value_counts()
    return papers[papers >= min_papers]


def _ordered(pairs: pd.DataFrame, min_papers: int, concepts: pd.Index) -> pd.DataFrame:
    """The pairs of :func:`pair_counts` named by ``min_papers`` papers or more, in
    order of first occurrence, with the concepts' names."""
    pairs = pairs[pairs["papers"] >= min_papers].sort_values(["first", "a", "b"])
    return pd.DataFrame(
        {
            "a": concepts.take(pairs["a"]),
            "b": concepts.take(pairs["b"]),
            "papers": pairs["papers"].to_numpy(),
        }
    )


def _first_rows(incidence: sparse.csr_matrix, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """For each pair of columns ``(a[k], b[k])``, ``a[k] < b[k]``, set together in some
    row of ``incidence``, the first such row.

    Goes through the rows in order, a block of rows at a time, listing the pairs of
    columns set in each row of the block (a row of ``k`` ones has ``k (k - 1) / 2``)
    and taking each asked pair's first; a block lists about :data:`PAIRS_AT_ONCE`
    pairs, so the pairs of the whole corpus are never listed at once.
    """
    incidence.sort_indices()
    n = incidence.shape[1]
    asked = a.astype(np.int64) * n + b
    order = np.argsort(asked, kind="stable")
    asked = asked[order]
    first = np.full(len(asked), -1, dtype=np.int64)
    ones = np.diff(incidence.indptr).astype(np.int64)
    listed = np.cumsum(ones * (ones - 1) // 2)  # pairs listed up to each row, inclusive
    marks = np.arange(PAIRS_AT_ONCE, listed[-1] if len(listed) else 0, PAIRS_AT_ONCE)
    bounds = np.searchsorted(listed, marks, side="right")
    top = 0
    for end in [*bounds.tolist(), incidence.shape[0]]:
        if end <= top:
            continue
        rows, codes = _row_pairs(incidence, top, end)
        distinct, at = np.unique(codes, return_index=True)  # each pair's first in the block
        place = np.searchsorted(asked, distinct)
        hit = place < len(asked)
        hit[hit] = asked[place[hit]] == distinct[hit]
        place, at = place[hit], at[hit]
        new = first[place] < 0
        first[place[new]] = rows[at[new]]
        top = end
    out = np.empty_like(first)
    out[order] = first
    return out


def _row_pairs(incidence: sparse.csr_matrix, top: int, end: int) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of columns set together in rows ``top`` to ``end - 1`` (sorted
    indices), row by row: the row of each pair, and the pair as ``a * columns + b``."""
    n = incidence.shape[1]
    indptr = incidence.indptr[top : end + 1]
    lo = int(indptr[0])
    indices = incidence.indices[lo : int(indptr[-1])]
    ones = len(indices)
    row_of = np.repeat(np.arange(top, end), np.diff(indptr))
    # each one pairs with every one after it in its row
    after = indptr[1:][row_of - top] - lo - np.arange(ones) - 1
    left = np.repeat(np.arange(ones), after)
    right = left + 1 + np.arange(len(left)) - np.repeat(np.cumsum(after) - after, after)
    codes = indices[left].astype(np.int64) * n + indices[right]
    return row_of[left], codes
