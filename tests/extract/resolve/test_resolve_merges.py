"""What must merge into one concept, what must stay apart, and the counts the build reports."""

from __future__ import annotations

import pytest

from paperkg.extract.resolve import resolve_concepts

from .conftest import paper, same_concept

MUST_MERGE = [
    # (mention a, mention b) in two papers, same label; why
    ("graph neural network", "graph neural networks"),  # plural
    ("pre-training", "pretraining"),  # hyphen
    ("pre-training", "pre training"),  # space
    ("pre–training", "pre-training"),  # Unicode dash
    ("ImageNet", "imagenet"),  # case
    ("Transformers", "transformer"),
    ("valid receptive field", "valid receptive filed"),  # typo
    ("k-means", "K means"),
    ("graph convolutional network", "graph convolution network"),  # word form
    ("exponential moving average", "exponentially moving average"),
    ("evolutionary strategies", "evolution strategies"),
    ("C 3 D", "C3D"),  # tokenizer spacing
    ("batch normalisation", "batch normalization"),  # British spelling
    ("sequence modelling", "sequence modeling"),
    ("hashtag recommendation", "hash-tag recommendation approach"),  # generic last word
    ("information extraction technique", "information extraction system"),
    ("Fragment-and-Compose", "Fragment-and-Compose paradigm"),
    ("intelligibility prediction", "predictions of intelligibility"),  # "X of Y"
    ("Deep Q Network DQN", "deep Q-network"),  # a name followed by its acronym
]


@pytest.mark.parametrize("a, b", MUST_MERGE)
def test_must_merge(a, b):
    res = resolve_concepts([paper("p1", (a, "METHOD"), (a, "METHOD")), paper("p2", (b, "METHOD"))])
    assert same_concept(res, (0, 0), (1, 0)), res.concepts
    (concept,) = res.concepts.values()
    defined = {"DQN": 1} if a == "Deep Q Network DQN" else {}  # its acronym is an alias too
    assert concept.aliases == ({a: 2, b: 1} if a != b else {a: 3}) | defined
    assert all(
        concept.merge_reasons.get(alias) for alias in concept.aliases if alias != concept.name
    )


MUST_NOT_MERGE = [
    ("CIFAR-10", "CIFAR-100", "DATASET"),
    ("GPT-3", "GPT-4", "METHOD"),
    ("ResNet-50", "ResNet-101", "METHOD"),
    ("BERT-base", "BERT-large", "METHOD"),
    ("YOLO v1", "YOLO v2", "METHOD"),
    ("supervised learning", "unsupervised learning", "METHOD"),
    ("transformer encoder", "transformer decoder", "METHOD"),
    ("linear regression", "nonlinear regression", "METHOD"),
    ("2D convolution", "3D convolution", "METHOD"),
    ("gradient descent", "gradient ascent", "METHOD"),
    ("function space", "functional space", "METHOD"),
    ("graph model", "graphical model", "METHOD"),
    ("language", "language model", "METHOD"),  # a one-word stem is no name
    ("diffusion", "diffusion model", "METHOD"),
    ("number of parameters", "parameter number", "METRIC"),  # "number of" is no noun
    ("noise", "noize", "METHOD"),  # only British endings are respelled
    ("filled", "filed", "METHOD"),
    ("GAN-based generators", "GNN-based generators", "METHOD"),  # an acronym, not a typo
    ("causal", "causal mechanism", "METHOD"),  # an adjective left by a cut is no process
    ("ReAction", "reaction mechanism", "METHOD"),  # a coined name is no common noun
    ("attention", "attention model", "METHOD"),  # "model" makes a thing of its own
    ("DVS-CIFAR-10", "CIFAR-10", "DATASET"),  # a dataset made from another
    ("Tiny ImageNet", "ImageNet", "DATASET"),
    ("Split MNIST", "MNIST", "DATASET"),
]


@pytest.mark.parametrize("a, b, label", MUST_NOT_MERGE)
def test_must_not_merge(a, b, label):
    res = resolve_concepts([paper("p1", (a, label), (b, label))])
    assert not same_concept(res, (0, 0), (0, 1))
    assert len(res.concepts) == 2


@pytest.mark.parametrize(
    "bare, with_kind",
    [("attention", "attention mechanism"), ("self-attention", "self-attention mechanisms")],
)
def test_a_process_and_the_process_with_mechanism_in_one_paper_are_one_concept(bare, with_kind):
    res = resolve_concepts([paper("p", (bare, "METHOD"), (with_kind, "METHOD"))])
    assert same_concept(res, (0, 0), (0, 1))


@pytest.mark.parametrize(
    "short, long",
    [("STG Transformer", "State-to-Go Transformer"), ("CI testing", "conditional independence testing"),
     ("V-L models", "vision-language models")],
)  # fmt: skip
def test_a_name_led_by_an_acronym_its_paper_spells_out_is_that_name(short, long):
    res = resolve_concepts([paper("p", (long, "METHOD"), (short, "METHOD"))])
    assert same_concept(res, (0, 0), (0, 1))
    (concept,) = res.concepts.values()
    reasons = concept.merge_reasons
    assert any(r.startswith(f"'{short.split()[0]}' is the initials of") for r in reasons.values())


@pytest.mark.parametrize(
    "short, other",
    [("MLP head", "multi-layer head"), ("GAN loss", "adversarial loss")],  # not the initials
)
def test_a_name_led_by_an_acronym_stays_apart_from_words_that_do_not_spell_it(short, other):
    res = resolve_concepts([paper("p", (other, "METHOD"), (short, "METHOD"))])
    assert not same_concept(res, (0, 0), (0, 1))


@pytest.mark.parametrize("initialled, bare", [("MS COCO", "COCO"), ("PASCAL VOC", "VOC")])
def test_a_dataset_with_its_makers_initials_is_the_dataset(initialled, bare):
    res = resolve_concepts([paper("p", (initialled, "DATASET")), paper("q", (bare, "DATASET"))])
    assert same_concept(res, (0, 0), (1, 0))
    (concept,) = res.concepts.values()
    assert concept.name == initialled  # the name that says more
    assert (
        concept.merge_reasons[bare]
        == f"'{initialled.lower()}' is '{bare.lower()}' with {initialled.split()[0]} before it"
    )


@pytest.mark.parametrize(
    "led, bare, label",
    [("Fashion MNIST", "MNIST", "DATASET"),  # a word makes another dataset
     ("CT scans", "scans", "DATASET"),  # a bare name in lower case is no dataset's name
     ("DP SGD", "SGD", "METHOD")],  # initials lead other names than datasets'
)  # fmt: skip
def test_a_name_led_by_a_word_or_not_a_datasets_stays_apart_from_the_bare_name(led, bare, label):
    res = resolve_concepts([paper("p", (led, label)), paper("q", (bare, label))])
    assert not same_concept(res, (0, 0), (1, 0))


def test_a_dataset_a_paper_names_by_its_acronym_is_no_initialled_dataset():
    """ "CMNIST" is written for Colored MNIST, which is not MNIST."""
    defines = paper("p", ("CMNIST", "DATASET", "Colored MNIST"))
    res = resolve_concepts([defines, paper("q", ("MNIST", "DATASET"))])
    assert not same_concept(res, (0, 0), (1, 0))


def test_capitals_that_also_lead_a_task_are_a_modifier_not_initials():
    res = resolve_concepts(
        [
            paper("p", ("OOD CIFAR-10", "DATASET"), ("OOD detection", "TASK")),
            paper("q", ("CIFAR-10", "DATASET")),
        ]
    )
    assert not same_concept(res, (0, 0), (1, 0))


def test_initials_of_a_dataset_the_ner_once_labels_a_metric_are_still_initials():
    res = resolve_concepts(
        [paper("p", ("MS COCO", "DATASET")), paper("q", ("MS COCO", "METRIC")),
         paper("r", ("MS COCO", "DATASET")), paper("s", ("COCO", "DATASET"))]
    )  # fmt: skip
    assert same_concept(res, (0, 0), (3, 0))  # the Metric is relabelled later, by its votes


def test_a_bare_name_two_initials_lead_is_a_part_of_two_datasets():
    res = resolve_concepts(
        [paper("p", ("WMT En-De", "DATASET")), paper("q", ("IWSLT En-De", "DATASET")),
         paper("r", ("En-De", "DATASET"))]
    )  # fmt: skip
    assert len(res.concepts) == 3


def test_an_acronym_spelled_out_in_another_paper_is_no_evidence():
    """ "STG" is State-to-Go in one paper and a spatio-temporal graph in another."""
    res = resolve_concepts(
        [
            paper("p", ("STG Transformer", "METHOD")),
            paper("q", ("State-to-Go Transformer", "METHOD")),
        ]
    )
    assert not same_concept(res, (0, 0), (1, 0))


def test_a_mechanism_named_in_another_paper_than_its_process_stays_apart():
    """Mechanism design's "allocation mechanism" is not a paper's "allocation"."""
    res = resolve_concepts(
        [paper("p", ("allocation", "METHOD")), paper("q", ("allocation mechanism", "METHOD"))]
    )
    assert not same_concept(res, (0, 0), (1, 0))


def test_a_name_and_the_name_with_its_kind_are_named_by_the_name_alone():
    games = [paper(f"p{i}", ("Atari games", "DATASET")) for i in range(3)]
    res = resolve_concepts([*games, paper("q", ("Atari", "DATASET"))])
    (concept,) = res.concepts.values()
    assert (concept.name, concept.key) == ("Atari", "atari")


def test_a_kind_word_readers_keep_stays_in_the_name():
    models = [paper(f"p{i}", ("score-based diffusion models", "METHOD")) for i in range(3)]
    res = resolve_concepts([*models, paper("q", ("score-based diffusion", "METHOD"))])
    (concept,) = res.concepts.values()
    assert concept.name == "score-based diffusion model"


def test_a_capitalised_kind_word_is_part_of_the_name():
    suites = [paper(f"p{i}", ("DeepMind Control Suite", "DATASET")) for i in range(3)]
    res = resolve_concepts([*suites, paper("q", ("DeepMind Control", "DATASET"))])
    (concept,) = res.concepts.values()
    assert concept.name == "DeepMind Control Suite"


def test_a_capitalised_one_word_name_may_drop_its_generic_word():
    res = resolve_concepts([paper("p", ("Dau measure", "METRIC"), ("Dau", "METRIC"))])
    assert same_concept(res, (0, 0), (0, 1))
    (concept,) = res.concepts.values()
    assert concept.merge_reasons["Dau measure"] == "same name with generic 'measure': 'dau'"


@pytest.mark.parametrize(
    "written, name",
    [
        # titles capitalise every word, sentences their first: the running text decides
        (
            ["Federated Learning"] * 3 + ["Federated learning"] + ["federated learning"],
            "federated learning",
        ),
        (
            ["Markov Chain Monte Carlo"] * 2 + ["Markov chain Monte Carlo"],
            "Markov chain Monte Carlo",
        ),
        # a name written capitalised almost always keeps its capitals
        (["Stable Diffusion"] * 5 + ["stable diffusion"], "Stable Diffusion"),
        (["Transformer"] * 2 + ["transformer"] * 2, "transformer"),
        (["Transformer"] * 3 + ["transformer"] * 2, "Transformer"),  # one word: no title case
    ],
)
def test_a_name_is_written_as_the_running_text_writes_it(written, name):
    res = resolve_concepts([paper(f"p{i}", (w, "TASK")) for i, w in enumerate(written)])
    (concept,) = res.concepts.values()
    assert concept.name == name


@pytest.mark.parametrize(
    "only_form, elsewhere, lowered",
    [
        # seen only at a sentence's start; the corpus writes "pseudo" in lower case
        ("Pseudo labeling", ["noisy pseudo labels"] * 2, True),
        ("Pseudo labeling", ["noisy pseudo-labels"] * 2, True),  # a hyphen's first part
        ("Weakly-supervised segmentation", ["weakly supervised detection"] * 2, True),
        # a title capitalises every word, which says nothing of "pseudo"
        ("Pseudo labeling", ["Noisy Pseudo Labels"] * 3 + ["noisy pseudo labels"] * 2, True),
        # proper names: written with their capital too, or written lower only once
        ("Gaussian process", ["sparse gaussian process"] * 2 + ["sparse Gaussian process"], False),
        ("Hopfield network", ["modern hopfield networks"], False),
        ("Pseudo labeling", ["Noisy Pseudo Labels"], False),  # nothing known of "pseudo"
        ("Q-learning algorithm", ["deep q-learning"] * 3, False),  # a letter as a symbol
    ],
)
def test_a_sentences_capital_is_dropped_where_the_corpus_writes_the_word_lower(
    only_form, elsewhere, lowered
):
    others = [paper(f"e{i}", (form, "TASK")) for i, form in enumerate(elsewhere)]
    res = resolve_concepts([paper("p", (only_form, "METHOD")), *others])
    expected = only_form[0].lower() + only_form[1:] if lowered else only_form
    assert res.concepts[res.concept_of[0][0]].name == expected


def test_different_labels_never_merge():
    res = resolve_concepts([paper("p", ("ImageNet", "DATASET"), ("ImageNet", "METHOD"))])
    assert res.concept_of == [["Dataset:imagenet", "Method:imagenet"]]


def test_counts_for_the_build_summary():
    res = resolve_concepts(
        [
            paper("p1", ("GNNs", "METHOD", "graph neural network"), ("our model", "METHOD")),
            paper("p2", ("graph neural networks", "METHOD"), ("Cora", "DATASET")),
        ]
    )
    assert (res.mention_count, len(res.concepts)) == (3, 2)
