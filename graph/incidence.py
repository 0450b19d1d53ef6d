"""Papers x concepts as a sparse incidence matrix, and the co-occurrence counts it gives.

The graph builder and the concept map both count the papers two concepts share:
one row per paper, one column per concept, a one where the paper names the
concept; ``incidence.T @ incidence`` then holds, at ``[i, j]``, the papers that
name both concepts ``i`` and ``j`` (and on its diagonal, each concept's papers).

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

import numpy as np
from scipy import sparse

__all__ = ["cooccurrence", "incidence_matrix"]


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
