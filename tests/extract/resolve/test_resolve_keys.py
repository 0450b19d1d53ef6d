"""Canonical keys: one key for the forms of one name; generic phrases get none."""

from __future__ import annotations

import pytest

from paperkg.extract.resolve import canonical_key, resolve_concepts

from .conftest import paper


@pytest.mark.parametrize(
    "surface, label, key",
    [
        ("graph neural networks", "METHOD", "graph neural network"),
        ("Graph Neural Network", "METHOD", "graph neural network"),
        ("GNNs", "METHOD", "gnn"),
        ("ResNets", "METHOD", "resnet"),
        ("CIFAR-100", "DATASET", "cifar-100"),
        ("the ImageNet dataset", "DATASET", "imagenet"),
        ("BERT model", "METHOD", "bert"),
        ("language model", "METHOD", "language model"),
        ("Gaussian processes", "METHOD", "gaussian process"),
        ("principal component analysis", "METHOD", "principal component analysis"),
        ("inductive biases", "METHOD", "inductive bias"),
        ("training data", "DATASET", "training data"),
        ("pre‐training", "METHOD", "pre-training"),  # U+2010 hyphen
        ("pre–training", "METHOD", "pre-training"),  # en dash
        ("long short - term memory", "METHOD", "long short-term memory"),
        ("a novel graph neural network", "METHOD", "graph neural network"),
        ("novel view synthesis", "TASK", "novel view synthesis"),
        ("the proposed contrastive loss", "METHOD", "contrastive loss"),
        ("$\\ell_p$ regression", "METHOD", "ell_p regression"),
        ("policies", "METHOD", "policy"),
        ("F1 score", "METRIC", "f1"),
        ("naïve Bayes", "METHOD", "naive bayes"),  # accents dropped, "Bayes" is no plural
        ("Navier-Stokes equations", "METHOD", "navier-stokes equation"),
        ("Matérn kernels", "METHOD", "matern kernel"),
        ("Transformer (", "METHOD", "transformer"),  # tokenizer debris
        ("C 3 D", "METHOD", "c3d"),  # a name the tokenizer split around its digit
        ("Pseudo-3 D networks", "METHOD", "pseudo-3d"),
        ("Deeplab-V 2", "METHOD", "deeplab-v2"),
        ("UCF 101", "DATASET", "ucf 101"),  # a word and a number stay apart
        ("2 D convolution", "METHOD", "2d convolution"),
        ("MORphological PArser MORPA", "METHOD", "morphological parser"),  # name + acronym
        ("CNN LSTM GRU", "METHOD", "cnn lstm gru"),  # not spelled by the capitals before
    ],
)
def test_canonical_key(surface, label, key):
    assert canonical_key(surface, label) == key


@pytest.mark.parametrize(
    "generic",
    [
        "our method",
        "this approach",
        "the model",
        "a novel framework",
        "existing methods",
        "state-of-the-art methods",
        "the proposed method",
        "baselines",
        "previous approaches",
    ],
)
def test_generic_phrases_are_dropped(generic):
    assert canonical_key(generic, "METHOD") == ""
    res = resolve_concepts([paper("p", (generic, "METHOD"), ("dropout", "METHOD"))])
    assert res.concept_of == [[None, "Method:dropout"]]
    assert res.mention_count == 1


def test_names_keep_their_casing():
    res = resolve_concepts(
        [paper("p", ("CIFAR-10", "DATASET"), ("ImageNet-100", "DATASET"), ("LADS", "METHOD"))]
    )
    assert sorted(c.name for c in res.concepts.values()) == ["CIFAR-10", "ImageNet-100", "LADS"]


def test_title_case_names_keep_their_plural_but_share_the_singular_key():
    res = resolve_concepts(
        [
            paper("p1", ("Supervised Diffusion Maps", "METHOD")),
            paper("p2", ("supervised diffusion map", "METHOD")),
        ]
    )
    assert len(res.concepts) == 1
    assert next(iter(res.concepts.values())).name in {
        "Supervised Diffusion Maps",
        "supervised diffusion map",
    }
    assert canonical_key("Supervised Diffusion Maps", "METHOD") == "supervised diffusion map"
