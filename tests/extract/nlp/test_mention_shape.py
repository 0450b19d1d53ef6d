"""paperkg_mention_shape: every mention takes the shape of a name."""

import pytest
import spacy
from spacy.tokens import Span

from paperkg.extract.nlp.components.mention_shape import MentionShape
from paperkg.extract.nlp.pipeline import BASE_MODEL

ALL_RULES = dict.fromkeys(
    "whole_words balanced filler needs_noun idioms citations coordination kind_tails name_in_word_group".split(),
    True,
)


@pytest.fixture(scope="module")
def tagger():
    nlp = spacy.load(BASE_MODEL, exclude=["ner", "parser"])
    if "senter" in nlp.disabled:
        nlp.enable_pipe("senter")
    return nlp


def shaped(tagger, text, tagged, label="METHOD", **rules):
    """The mentions left of ``tagged`` (a substring tagged as one entity) after shaping."""
    doc = tagger(text)
    start = text.index(tagged)
    doc.ents = [doc.char_span(start, start + len(tagged), label=label, alignment_mode="expand")]
    doc = MentionShape(**{**ALL_RULES, **rules})(doc)
    return [e._.surface or e.text for e in doc.ents]


@pytest.mark.parametrize(
    "text, tagged, expected",
    [
        # a piece of a word becomes the whole word
        ("We study pre-training of vision models.", "pre", ["pre-training"]),
        ("We then apply fine-tuning to it.", "tuning", ["fine-tuning"]),
        # an unclosed bracket is cut
        ("samples are in-distribution (ID data too", "in-distribution (ID", ["in-distribution"]),
        # the title and the abstract are apart
        (
            "Dense Retrieval.\n\nKnowledge-based VQA needs it.",
            "\n\nKnowledge-based VQA",
            ["Knowledge-based VQA"],
        ),
        # a title's rhetoric is not part of the name
        (
            "Recasting Continual Learning as Sequence Modeling.\n\nWe study it.",
            "Recasting Continual Learning",
            ["Continual Learning"],
        ),
        # ... but in running text the same verb may be the task itself
        (
            "Our aim is improving translation quality.",
            "improving translation quality",
            ["improving translation quality"],
        ),
        # a bracketed remark in front of a name goes
        ("unlike state-of-the-art (SOTA) DC methods", "(SOTA) DC", ["DC"]),
        # filler adjectives in front of a name go
        (
            "The big Transformer-based model is slow.",
            "big Transformer-based model",
            ["Transformer-based model"],
        ),
        (
            "We follow prevalent instruction tuning here.",
            "prevalent instruction tuning",
            ["instruction tuning"],
        ),
        # a coordination gives one mention per thing, sharing the head
        (
            "We compare unimodal and multimodal models today.",
            "unimodal and multimodal models",
            ["unimodal models", "multimodal models"],
        ),
        (
            "We use rematerialization and offloading here.",
            "rematerialization and offloading",
            ["rematerialization", "offloading"],
        ),
        (
            "A truncation and saliency method works.",
            "truncation and saliency method",
            ["truncation method", "saliency method"],
        ),
        (
            "Weights use He/LeCun initialization here.",
            "He/LeCun initialization",
            ["He initialization", "LeCun initialization"],
        ),
        ("An encoder/decoder model.", "encoder/decoder model", ["encoder/decoder model"]),
        # a capitalised name with "and" is one name
        ("We solve Pick and Place tasks.", "Pick and Place", ["Pick and Place"]),
    ],
)
def test_mentions_are_reshaped_into_names(tagger, text, tagged, expected):
    assert shaped(tagger, text, tagged) == expected


@pytest.mark.parametrize(
    "text, tagged",
    [
        ("Transformers have gained attention recently.", "attention"),
        ("LLMs have drawn significant attention in NLP.", "attention"),
        ("We train models at scale on web data.", "scale"),
        ("The heavy tails matter here.", "heavy"),
        ("with S and T as sets", "S"),
        # a capital in a Title-Case title makes no name of an adjective
        ("Towards Encoder-only Shallow Transformers for Vision.\n\nWe study it.", "Encoder-only"),
        ("as shown by Smith et al. (2020), the bound holds", "Smith"),
        ("a known result (Vaswani et al., 2017) on attention", "Vaswani"),
    ],
)
def test_idioms_adjectives_and_citations_are_not_mentions(tagger, text, tagged):
    assert shaped(tagger, text, tagged) == []


@pytest.mark.parametrize(
    "text, tagged",
    [
        ("We add attention to the encoder.", "attention"),
        ("We train on ImageNet at 224 pixels.", "ImageNet"),
        ("Dropout helps.", "Dropout"),
    ],
)
def test_real_mentions_are_kept(tagger, text, tagged):
    assert shaped(tagger, text, tagged) == [tagged]


@pytest.mark.parametrize(
    "text, tagged, expected",
    [
        # a kind word after a name is no part of it
        (
            "We use a scaled symmetric sampling method here.",
            "scaled symmetric sampling method",
            ["scaled symmetric sampling"],
        ),
        (
            "We solve large integer programming problems fast.",
            "integer programming problems",
            ["integer programming"],
        ),
        (
            "It is a divide-and-conquer approach to routing.",
            "divide-and-conquer approach",
            ["divide-and-conquer"],
        ),
        # model, training, layer ... only after a proper name
        ("Each GCN layer mixes features.", "GCN layer", ["GCN"]),
        ("We halve the cost of UNet training here.", "UNet training", ["UNet"]),
        (
            "We train latent diffusion models.",
            "latent diffusion models",
            ["latent diffusion models"],
        ),
        ("We use adversarial training here.", "adversarial training", ["adversarial training"]),
        # the rest must name a thing: a kind of method, a Title-Case name, one capitalised word
        (
            "We study a gradient-based method here.",
            "gradient-based method",
            ["gradient-based method"],
        ),
        (
            "We present the Guided Imagination Framework today.",
            "Guided Imagination Framework",
            ["Guided Imagination Framework"],
        ),
        (
            "The network learns the Pizza algorithm for addition.",
            "Pizza algorithm",
            ["Pizza algorithm"],
        ),
    ],
)
def test_kind_words_after_a_name_are_dropped(tagger, text, tagged, expected):
    assert shaped(tagger, text, tagged) == expected


def test_a_kind_word_stays_in_the_span_and_leaves_the_name(tagger):
    """SciERC marks "parsing algorithm": the span is the phrase, the mention's name is not."""
    doc = tagger("We solve large integer programming problems fast.")
    doc.ents = [doc.char_span(15, 43, label="TASK")]
    doc = MentionShape(**ALL_RULES)(doc)
    assert [(e.text, e._.surface) for e in doc.ents] == [
        ("integer programming problems", "integer programming")
    ]


@pytest.mark.parametrize(
    "text, tagged, expected",
    [
        # a proper name inside a word group is the mention; a kind word after it goes
        ("We compare GNN-based methods on graphs.", "GNN-based methods", ["GNN"]),
        (
            "We use a Transformer-based architecture here.",
            "Transformer-based architecture",
            ["Transformer"],
        ),
        ("It is an RLHF-like objective.", "RLHF-like", ["RLHF"]),
        # ... and a name after it is a second mention
        ("We attack ZOO-based VFL systems.", "ZOO-based VFL", ["ZOO", "VFL"]),
        # common words before the suffix are part of the name
        (
            "We study model-based reinforcement learning.",
            "model-based reinforcement learning",
            ["model-based reinforcement learning"],
        ),
        (
            "We train score-based diffusion models.",
            "score-based diffusion models",
            ["score-based diffusion models"],
        ),
        # so is a Title-Case coined name or a defined acronym's long form
        (
            "We add a Semantic-assisted Object Cluster (SOC) to it.",
            "Semantic-assisted Object Cluster (SOC)",
            ["Semantic-assisted Object Cluster (SOC)"],
        ),
    ],
)
def test_a_name_inside_a_word_group_is_cut_out(tagger, text, tagged, expected):
    assert shaped(tagger, text, tagged) == expected


def test_a_word_group_passes_proposed_to_its_head_only(tagger):
    doc = tagger("We propose ZOO-based VFL systems.")
    span = doc.char_span(11, len("We propose ZOO-based VFL"), label="METHOD")
    span._.proposed = True
    doc.ents = [span]
    doc = MentionShape(**ALL_RULES)(doc)
    assert [(e.text, e._.proposed) for e in doc.ents] == [("ZOO", False), ("VFL", True)]


def test_each_rule_can_be_switched_off(tagger):
    text, tagged = (
        "We compare unimodal and multimodal models today.",
        "unimodal and multimodal models",
    )
    assert shaped(tagger, text, tagged, coordination=False) == [tagged]
    assert shaped(
        tagger, "We study pre-training now.", "pre", whole_words=False, needs_noun=False
    ) == ["pre"]
    assert shaped(tagger, "Each GCN layer mixes features.", "GCN layer", kind_tails=False) == [
        "GCN layer"
    ]
    assert shaped(
        tagger, "It is an RLHF-like objective.", "RLHF-like", name_in_word_group=False
    ) == ["RLHF-like"]


def test_proposed_is_carried_to_the_reshaped_mention(tagger):
    doc = tagger("We propose big FooNet models.")
    span = doc.char_span(11, len("We propose big FooNet models"), label="METHOD")
    span._.proposed = True
    doc.ents = [span]
    doc = MentionShape(**ALL_RULES)(doc)
    assert [(e._.surface or e.text, e._.proposed) for e in doc.ents] == [("FooNet", True)]


def test_shipped_pipelines_end_with_the_shape_component(nlp):
    assert nlp.pipe_names[-1] == "paperkg_mention_shape"
    assert isinstance(nlp.get_pipe("paperkg_mention_shape"), MentionShape)
    assert Span.has_extension("surface")
