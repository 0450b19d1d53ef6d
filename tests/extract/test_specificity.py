"""Concepts, not phrases: generic concepts are left out of the graph, named ones stay."""

import pytest

from paperkg.extract import specificity
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


def test_a_concept_written_as_a_name_in_most_of_its_mentions_stays():
    def result(number, sentence, phrase):
        start = sentence.index(phrase)
        mention = Mention(phrase, "METHOD", start, start + len(phrase), sentence)
        paper = Paper(id=f"p{number}", abstract=sentence, text=sentence, source=f"x#{number}")
        return PaperMentions(paper, [mention])

    named = [result(i, f"We train a Search Algorithm {i}.", "Search Algorithm") for i in range(2)]
    unnamed = [result(9, "We train a search algorithm.", "search algorithm")]
    kept = drop_generic(named + unnamed, resolve_concepts(named + unnamed))
    assert kept.concept_of == [["Method:search algorithm"]] * 3
    # written as a name in one mention of three: under the share, so generic
    dropped = drop_generic(named[:1] + unnamed * 2, resolve_concepts(named[:1] + unnamed * 2))
    assert dropped.generic == {"Method:search algorithm": "generic head"}


def test_being_named_only_ever_spares_a_concept():
    # generic_concepts looks at the mentions of a concept only when naming decides it
    words = sorted(specificity.FIELDS | specificity.UMBRELLA_WORDS | specificity.BROAD_NOUNS)
    words += sorted(specificity.GENERIC_MODIFIERS | specificity.METHOD_GENERIC_HEADS)
    words += ["graph", "wilds", "diffusion", "accuracy", "image", "data", "real-world"]
    keys = words + [f"{a} {b}" for a in words[::3] for b in words[1::3]]
    for key in keys:
        for label in ("Method", "Dataset", "Task", "Metric"):
            spared = generic_reason(key, label, named=True)
            assert spared in (None, generic_reason(key, label, named=False)), (key, label)
