"""Variants of one name within a paper: agent nouns, X modeling, generic heads, word order."""

from __future__ import annotations

import pytest

from paperkg.extract.resolve import resolve_concepts

from .conftest import paper, same_concept

AGENT_NOUNS = [
    # (the process with a generic head, the agent noun, merged) in one paper
    ("parsing algorithms", "parser", True),
    ("classification stage", "classifier", True),
    ("estimation stage", "estimator", True),
    ("robust estimation procedure", "robust estimators", True),
    ("error correction mechanisms", "error corrector", True),
    ("stemming model", "stemmer", True),
    ("recognition system", "recognizer", True),
    ("dependency parsing algorithm", "parser", False),  # other modifiers
    ("other classification methods", "classifier", False),  # a kind of method
    ("transformation module", "transformer", False),  # a name of its own
    ("adaptation module", "adapter", False),
    ("reasoning module", "Reasoner", False),  # a coined, capitalised name
    ("parsing", "parser", False),  # no generic head
]


@pytest.mark.parametrize("process, agent, merged", AGENT_NOUNS)
def test_an_agent_noun_joins_its_process_in_one_paper(process, agent, merged):
    res = resolve_concepts([paper("p1", (process, "METHOD"), (agent, "METHOD"))])
    assert same_concept(res, (0, 0), (0, 1)) is merged
    if merged:
        (concept,) = res.concepts.values()
        other = process if concept.name != process else agent
        assert concept.merge_reasons[other].endswith("in paper p1")
        assert "does what" in concept.merge_reasons[other]


def test_an_agent_noun_needs_its_process_in_the_same_paper_and_label():
    res = resolve_concepts(
        [
            paper("p1", ("parsing algorithm", "METHOD")),
            paper("p2", ("parser", "METHOD"), ("parsing algorithm", "TASK")),
        ]
    )
    assert len(res.concepts) == 3


MODELING = [
    # (a name "X modeling [head]", "X model", merged) in one paper
    ("user modeling systems", "user model", True),
    ("user modeling", "user models", True),
    ("user modelling component", "user model", True),
    ("sequence modeling", "language model", False),  # another X
    ("modeling", "model", False),
]


@pytest.mark.parametrize("modeling, model, merged", MODELING)
def test_x_modeling_joins_x_model_in_one_paper(modeling, model, merged):
    res = resolve_concepts([paper("p1", (modeling, "METHOD"), (model, "METHOD"))])
    assert same_concept(res, (0, 0), (0, 1)) is merged
    if merged:
        (concept,) = res.concepts.values()
        other = modeling if concept.name != modeling else model
        assert concept.merge_reasons[other].endswith(
            "is the modeling of a 'user model', in paper p1"
        )


def test_x_modeling_and_x_model_in_two_papers_stay_apart():
    res = resolve_concepts(
        [paper("p1", ("user modeling", "METHOD")), paper("p2", ("user model", "METHOD"))]
    )
    assert len(res.concepts) == 2


ONE_WORD_STEMS = [
    # (two METHOD names of one word and a generic head, merged) in one paper
    ("boosting approach", "boosting methods", True),
    ("bootstrapping approach", "bootstrapping procedure", True),
    ("training method", "training algorithm", True),
    ("segmentation model", "segmentation networks", True),
    ("statistical model", "statistical method", False),  # an artifact and a process
    ("parsing algorithm", "parsing strategies", False),  # a strategy is no algorithm
    ("boosting approach", "bagging approach", False),
    ("ranking problems", "ranking tasks", True),  # TASK: "task" is dropped from the key
    ("regression problem", "regression", True),
    ("ranking problem", "reranking task", False),
]


@pytest.mark.parametrize("a, b, merged", ONE_WORD_STEMS)
def test_one_word_with_two_generic_heads_of_one_kind_in_one_paper(a, b, merged):
    label = "TASK" if "task" in a + b or "problem" in a + b else "METHOD"
    res = resolve_concepts([paper("p1", (a, label), (b, label))])
    assert same_concept(res, (0, 0), (0, 1)) is merged
    if merged:
        (concept,) = res.concepts.values()
        other = a if concept.name != a else b
        assert "with two generic" in concept.merge_reasons[other]
        assert concept.merge_reasons[other].endswith("in paper p1")


def test_one_word_with_two_generic_heads_in_two_papers_stays_apart():
    res = resolve_concepts(
        [paper("p1", ("training method", "METHOD")), paper("p2", ("training algorithm", "METHOD"))]
    )
    assert len(res.concepts) == 2


def test_a_generic_last_word_finds_its_stem_whatever_its_rarest_spelling():
    res = resolve_concepts(
        [
            paper("p1", ("knowledge distillation", "METHOD"), ("knowledge distillation", "METHOD")),
            paper("p2", ("knowledgedistillation", "METHOD")),  # glued once
            paper("p3", ("knowledge distillation methods", "METHOD")),
        ]
    )
    assert len(res.concepts) == 1


MODIFIER_ORDER = [
    # (two names of one paper, merged)
    ("object intrinsic representation", "intrinsic object representation", True),
    ("agnostic active learning", "active agnostic learning", True),
    ("intrinsic representation", "object intrinsic representation", False),  # other words
]


@pytest.mark.parametrize("a, b, merged", MODIFIER_ORDER)
def test_modifiers_in_two_orders_name_one_thing_in_one_paper(a, b, merged):
    res = resolve_concepts([paper("p1", (a, "METHOD"), (b, "METHOD"))])
    assert same_concept(res, (0, 0), (0, 1)) is merged
    if merged:
        (concept,) = res.concepts.values()
        other = a if concept.name != a else b
        assert concept.merge_reasons[other].endswith("in two orders, in paper p1")
    two_papers = resolve_concepts([paper("p1", (a, "METHOD")), paper("p2", (b, "METHOD"))])
    assert len(two_papers.concepts) == 2


@pytest.mark.parametrize(
    "stems, named, merged",
    [
        # a hyphenated stem is two words when the corpus also writes it with a space
        (["meta-learning", "meta-learning", "meta learning"], "meta-learning approach", True),
        (["post-processing", "post processing"], "post-processing technique", True),
        # ... an adjective never written so is no name
        (["gradient-based", "gradient-based"], "gradient-based methods", False),
    ],
)
def test_a_hyphenated_stem_is_a_name_when_also_written_as_two_words(stems, named, merged):
    res = resolve_concepts(
        [paper(f"p{i}", (s, "METHOD")) for i, s in enumerate(stems)]
        + [paper("named", (named, "METHOD"))]
    )
    assert same_concept(res, (0, 0), (len(stems), 0)) is merged
