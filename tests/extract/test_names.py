"""The name predicates: each asks a slightly different question, and these say which."""

from __future__ import annotations

import pytest

from paperkg.extract.names import (
    is_coined_model_token,
    is_coined_name,
    looks_like_name,
    mention_is_name,
    proper_name_token,
    title_cased,
)
from paperkg.records import Mention


@pytest.mark.parametrize(
    "text, sentence, named",
    [
        ("ImageNet", "We train on ImageNet.", True),
        ("CIFAR-10", "Results on CIFAR-10.", True),
        # a name may start in lower case: it is not a bare word the map leaves out
        ("nuScenes", "We test on nuScenes.", True),
        ("mAP", "It improves mAP by 3%.", True),
        ("pH sensitivity", "We measure pH sensitivity.", False),  # a unit is no name
        ("Training data", "Training data is scarce.", False),  # a capital that starts a sentence
        ("training data", "We collect training data.", False),
        ("Open X-Embodiment", "Open X-Embodiment is large.", True),
        # capitals in a Title-Case title say nothing
        ("Synthetic Data", "Learning from Synthetic Data at Scale.", False),
        ("ImageNet", "Scaling Vision Models on ImageNet.", True),
        # one letter, a hyphen and an acronym: a name wherever it stands
        ("L-CAD", "L-CAD: Language-based Colorization with Any-level Descriptions.", True),
        ("R-CNN", "R-CNN detects objects in two stages.", True),
        ("t-SNE", "Embeddings shown by t-SNE.", True),
        ("β-VAE", "We train a β-VAE.", True),
        # not a letter before a Title-Case word
        ("Z-Score", "Robust Z-Score Normalization for Tabular Learning.", False),
        ("k-Means", "Fair k-Means Clustering in Graphs.", False),
    ],
)
def test_a_mention_is_a_name_by_its_writing(text, sentence, named):
    assert mention_is_name(Mention(text, "DATASET", 0, len(text), sentence)) is named


@pytest.mark.parametrize(
    "token, shape, proper, coined, model",
    [
        # an acronym has a name's shape, but is neither coined nor a model's name by itself
        ("GNN", True, True, False, False),
        ("SelKD", True, True, True, True),
        ("LLaMA", True, True, True, True),
        ("GPT-4", True, True, False, True),
        ("CIFAR-10", True, True, False, True),
        # a name may start in lower case; a metric written so is no model's name
        ("mAP", True, True, False, False),
        ("nuScenes", True, True, True, False),
        # a hyphenated adjective is no name a generic word may be dropped after
        ("GNN-based", True, False, None, None),
        ("method", False, False, False, False),
    ],
)
def test_the_predicates_side_by_side(token, shape, proper, coined, model):
    assert looks_like_name(token) is shape
    assert proper_name_token(token) is proper
    if coined is not None:
        assert is_coined_name(token) is coined
    if model is not None:
        assert is_coined_model_token(token) is model


def test_a_title_is_told_by_its_capitals():
    assert title_cased("Scaling Vision Transformers to Gigapixel Images.")
    assert not title_cased("We scale Vision Transformers to gigapixel images.")
