"""The boosted trees that decide what a paper proposes, read with numpy."""

from __future__ import annotations

import numpy as np
import pytest

from paperkg.extract.corpus.contribution_model import ContributionModel, Tree

SIGNS = ("first", "second")


def test_a_tree_sends_each_row_to_its_leaf_and_the_model_adds_the_leaves():
    """One split on the first sign at 0.5, then one on the second at 2 on the right:
    three leaves worth -1, +0.5 and +2."""
    tree = Tree(
        feature=np.array([0, 0, 1, 0, 0]),
        split=np.array([0.5, 0.0, 2.0, 0.0, 0.0]),
        left=np.array([1, -1, 3, -1, -1]),
        right=np.array([2, -1, 4, -1, -1]),
        value=np.array([0.0, -1.0, 0.0, 0.5, 2.0]),
    )
    x = np.array([[0.0, 9.0], [1.0, 1.0], [1.0, 3.0], [0.5, 3.0]])
    assert tree.leaf_values(x).tolist() == [-1.0, 0.5, 2.0, -1.0]
    model = ContributionModel((tree, tree), bias=0.5, threshold=0.5, features=SIGNS)
    z = np.array([-1.5, 1.5, 4.5, -1.5])
    assert model.probabilities(x) == pytest.approx(1 / (1 + np.exp(-z)))
    read_back = ContributionModel.from_json(model.to_json())
    assert read_back.probabilities(x) == pytest.approx(model.probabilities(x))


def test_a_sign_is_compared_as_the_trees_were_fitted_in_float32():
    """scikit-learn's trees split float32 copies of the signs: 0.1 + 1e-9 is 0.1 in
    float32, so it goes left of a split at float32(0.1)."""
    split = float(np.float32(0.1))
    tree = Tree(np.array([0, 0, 0]), np.array([split, 0.0, 0.0]), np.array([1, -1, -1]),
                np.array([2, -1, -1]), np.array([0.0, -1.0, 1.0]))  # fmt: skip
    model = ContributionModel((tree,), bias=0.0, threshold=0.5, features=SIGNS)
    assert model.probabilities(np.array([[split + 1e-9]]))[0] < 0.5
