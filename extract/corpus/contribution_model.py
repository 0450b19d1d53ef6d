"""The learned decision of what a paper proposes: boosted regression trees over the
signs of :mod:`paperkg.extract.corpus.contributions`, read with numpy alone.

``bench/train_contributions.py`` fits them with scikit-learn and writes them as JSON
(:meth:`ContributionModel.to_json`); the build reads that file
(:func:`paperkg.extract.corpus.contributions.load_model`) and needs neither
scikit-learn nor pickles.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ContributionModel", "Tree"]


@dataclass(frozen=True)
class Tree:
    """One regression tree of the ensemble, as parallel arrays over its nodes (node 0 is
    the root): an inner node sends a row left when ``x[feature] <= split``; a leaf
    (``left == -1``) holds the log-odds it adds."""

    feature: np.ndarray
    split: np.ndarray
    left: np.ndarray
    right: np.ndarray
    value: np.ndarray

    def leaf_values(self, x: np.ndarray) -> np.ndarray:
        """The value of the leaf each row of ``x`` reaches."""
        node = np.zeros(len(x), dtype=np.int64)
        rows = np.arange(len(x))
        while True:
            inner = self.left[node] >= 0
            if not inner.any():
                return self.value[node]
            go_left = x[rows, self.feature[node]] <= self.split[node]
            node = np.where(inner, np.where(go_left, self.left[node], self.right[node]), node)

    def split_features(self) -> list[int]:
        """The sign each inner node splits on."""
        return [int(f) for f, left in zip(self.feature, self.left, strict=True) if left >= 0]

    def to_json(self) -> dict:
        """The tree as JSON lists (leaf values to 6 significant digits; splits exact)."""
        return {
            "feature": self.feature.tolist(),
            "split": self.split.tolist(),
            "left": self.left.tolist(),
            "right": self.right.tolist(),
            "value": [float(f"{v:.6g}") for v in self.value],
        }

    @classmethod
    def from_json(cls, data: dict, signs: int) -> Tree:
        """A tree read back from :meth:`to_json`; ``ValueError`` unless it is a tree over
        ``signs`` columns whose every child comes after its parent (so reading ends)."""
        whole = {name: np.asarray(data[name]) for name in ("feature", "left", "right")}
        real = {name: np.asarray(data[name], dtype=float) for name in ("split", "value")}
        if any(a.ndim != 1 for a in (*whole.values(), *real.values())):
            raise ValueError("a tree's fields must be flat lists")
        if any(a.dtype.kind not in "iu" for a in whole.values()):
            raise ValueError("a tree's features and children must be whole numbers")
        if not all(np.isfinite(a).all() for a in real.values()):
            raise ValueError("a tree's splits and values must be finite numbers")
        tree = cls(**{name: a.astype(np.int64) for name, a in whole.items()}, **real)
        n = len(tree.left)
        nodes = np.arange(n)
        inner = tree.left >= 0
        if (
            n == 0
            or any(len(a) != n for a in (tree.feature, tree.split, tree.right, tree.value))
            or ((tree.left == -1) != (tree.right == -1)).any()
            or ((tree.left[inner] <= nodes[inner]) | (tree.left[inner] >= n)).any()
            or ((tree.right[inner] <= nodes[inner]) | (tree.right[inner] >= n)).any()
            or ((tree.feature < 0) | (tree.feature >= signs)).any()  # leaves' too: all are read
            or ((tree.left < -1) | (tree.right < -1)).any()
        ):
            raise ValueError("a tree's nodes do not form a tree over the signs")
        return tree


@dataclass(frozen=True)
class ContributionModel:
    """Boosted regression trees over the signs ``features``: ``p = sigmoid(bias + the
    sum of the leaf each tree gives)``.

    Trees rather than one weight per sign, because on the selection set they made
    fewer wrong PROPOSES edges at about the same recall than a logistic regression
    over the same signs (``bench/train_contributions.py`` scores both; the numbers
    are in ``docs/concept-resolution.md``). A concept is proposed when
    ``p >= threshold``. (Giving a paper none of whose concepts reaches it its
    likeliest one did not pay on the selection set at any floor tried, so there is
    no such fallback.)
    """

    trees: tuple[Tree, ...]
    bias: float
    threshold: float
    #: the signs the trees read, in the order of their columns
    features: tuple[str, ...]

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        # the trees were fitted on float32 copies of the signs (scikit-learn's trees)
        x = np.asarray(x, dtype=np.float32)
        z = np.full(len(x), self.bias)
        for tree in self.trees:
            z += tree.leaf_values(x)
        return 1.0 / (1.0 + np.exp(-z))

    def to_json(self) -> dict:
        """The model as the JSON file the build reads."""
        return {
            "features": list(self.features),
            "bias": self.bias,
            "threshold": self.threshold,
            "trees": [tree.to_json() for tree in self.trees],
        }

    @classmethod
    def from_json(cls, data: dict) -> ContributionModel:
        """The model of a :meth:`to_json` file; ``ValueError`` for any other file."""
        if "trees" not in data and "weights" in data:
            raise ValueError("it is an older model (a logistic regression with weights), not trees")
        features = tuple(str(f) for f in data["features"])
        model = cls(
            trees=tuple(Tree.from_json(tree, len(features)) for tree in data["trees"]),
            bias=float(data["bias"]),
            threshold=float(data["threshold"]),
            features=features,
        )
        if not model.trees or not np.isfinite([model.bias, model.threshold]).all():
            raise ValueError("a model needs trees, and a finite bias and threshold")
        return model
