"""Umbrella terms are generic whatever the concept model says; other concepts are its call."""

import pytest

from paperkg.extract.specificity import generic_reason


@pytest.mark.parametrize(
    "key",
    [
        "machine learning",
        "computer vision",
        "deep neural network",
        "learning algorithm",
        "generative model",
        "neural network",
    ],
)
def test_umbrella_terms_are_generic(key):
    assert generic_reason(key) == "field"


@pytest.mark.parametrize(
    "key",
    [
        "diffusion model",
        "large language model",
        "graph neural network",
        "contrastive learning",
        "image classification",
        "imagenet",
        "accuracy",
    ],
)
def test_names_of_one_thing_are_left_to_the_model(key):
    assert generic_reason(key) is None
