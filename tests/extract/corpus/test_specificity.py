"""Umbrella terms and bare words are generic whatever the concept model says; other
concepts are its call."""

import pytest

from paperkg.extract.corpus.specificity import FIELDS, generic_reason


@pytest.mark.parametrize(
    "key",
    [
        "machine learning",
        "computer vision",
        "natural language processing",  # a field whose name wraps a line of the list
        "scientific computing",
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


@pytest.mark.parametrize(
    "key, label, reason",
    [
        ("detection", "Task", "bare word"),
        ("kernel", "Method", "bare word"),
        ("rate", "Metric", "bare word"),
        ("summarization", "Task", None),
        ("distillation", "Method", None),
        ("regret", "Metric", None),
        ("object detection", "Task", None),
    ],
)
def test_a_bare_word_is_generic_unless_it_names_one_thing(key, label, reason):
    assert generic_reason(key, label) == reason


def test_a_bare_word_written_as_a_name_is_left_to_the_model():
    assert generic_reason("imagenet", "Dataset") == "bare word"
    assert generic_reason("imagenet", "Dataset", named=True) is None


@pytest.mark.parametrize(
    "key, label",
    [
        ("meta-learning", "Task"),
        ("actor-critic", "Method"),
        ("t-sne", "Method"),
        ("text-to-image", "Task"),
        ("l-cad", "Method"),
    ],
)
def test_a_hyphenated_compound_is_not_a_bare_word(key, label):
    assert generic_reason(key, label) is None


def test_a_word_written_as_a_compound_in_any_spelling_is_left_to_the_model():
    assert generic_reason("downsampling", "Method") == "bare word"
    spellings = ["downsampling", "down-sampling"]
    assert generic_reason("downsampling", "Method", surfaces=spellings) is None
    assert generic_reason("kernel", "Method", surfaces=["kernels", "Kernel"]) == "bare word"
    assert generic_reason("online", "Method", surfaces=["Online Algorithms"]) == "bare word"
    assert generic_reason("l2", "Method") is None


def test_every_field_of_the_list_is_written_as_a_key_is():
    # a field that wraps a line of the list must not keep the line break's spaces
    assert all(field and field == " ".join(field.split()) for field in FIELDS)
