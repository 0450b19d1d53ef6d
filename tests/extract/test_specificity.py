"""Concepts, not phrases: generic concepts are left out of the graph, named ones stay."""

import pytest

from paperkg.extract.resolve import resolve_concepts
from paperkg.extract.specificity import drop_generic, generic_reason
from paperkg.records import Mention, Paper, PaperMentions


@pytest.mark.parametrize(
    "key, label, reason",
    [
        # umbrella terms: a field, or the general kind of model
        ("machine learning", "Task", "field"),
        ("deep neural network", "Method", "field"),
        ("learning algorithm", "Method", "field"),
        ("generative model", "Method", "field"),
        # one common word
        ("generation", "Task", "bare word"),
        ("prediction", "Task", "bare word"),
        ("gradient", "Method", "bare word"),
        ("graph", "Method", "bare word"),
        ("sampler", "Method", "bare word"),
        ("image", "Dataset", "bare word"),
        ("error", "Metric", "bare word"),
        # data described, not named
        ("training data", "Dataset", "unnamed data"),
        ("real-world dataset", "Dataset", "unnamed data"),
        # a generic head with broad modifiers only
        ("search algorithm", "Method", "generic head"),
        ("real-world application", "Task", "generic head"),
        ("downstream task", "Task", "generic head"),
        # an object of study described by adjectives
        ("dynamical system", "Method", "object"),
        ("partial differential equation", "Task", "object"),
        ("low-dimensional manifold", "Dataset", "unnamed data"),
        ("latent space", "Method", "object"),
    ],
)
def test_generic_concepts_say_why(key, label, reason):
    assert generic_reason(key, label, named=False) == reason


@pytest.mark.parametrize(
    "key, label",
    [
        ("diffusion model", "Method"),
        ("large language model", "Method"),
        ("graph neural network", "Method"),
        ("attention", "Method"),
        ("image classification", "Task"),
        ("summarization", "Task"),
        ("sample complexity", "Metric"),
        ("accuracy", "Metric"),
        ("regret", "Metric"),
        ("contrastive learning", "Method"),
        ("recommender system", "Method"),
    ],
)
def test_specific_concepts_stay(key, label):
    assert generic_reason(key, label, named=False) is None


def test_a_named_dataset_is_a_dataset():
    # "WILDS data" is written as a name; "training data" is not
    assert generic_reason("wilds data", "Dataset", named=True) is None
    assert generic_reason("training data", "Dataset", named=False) == "unnamed data"


def test_generic_concepts_are_dropped_and_reported():
    text = "We train a deep neural network on ImageNet and other training data."
    mentions = [
        Mention("deep neural network", "METHOD", 11, 30, text),
        Mention("ImageNet", "DATASET", 34, 42, text),
        Mention("training data", "DATASET", 53, 66, text),
    ]
    results = [PaperMentions(Paper(id="p", abstract=text, text=text, source="x"), mentions)]
    resolution = drop_generic(results, resolve_concepts(results))
    assert resolution.concept_of == [[None, "Dataset:imagenet", None]]
    assert set(resolution.concepts) == {"Dataset:imagenet"}
    assert resolution.generic == {
        "Dataset:training data": "unnamed data",
        "Method:deep neural network": "field",
    }
    assert list(resolution.generic) == ["Dataset:training data", "Method:deep neural network"]
