"""What a title names is what the paper proposes."""

import random
import re

import pytest

from paperkg.extract.corpus import titles
from paperkg.extract.corpus.titles import title_name, with_title_proposals
from paperkg.records import Mention, Paper, PaperMentions


@pytest.mark.parametrize(
    "title, name",
    [
        ("Cal-QL: Calibrated Offline RL Pre-Training for Efficient Online Fine-Tuning", "Cal-QL"),
        ("DIFFER:Decomposing Individual Reward for Fair Experience Replay", "DIFFER"),
        ("ToolBench: An Open Platform for Tool-Augmented LLMs", "ToolBench"),
        ("The Graph Pencil Method: Mapping Subgraph Densities", "Graph Pencil Method"),
        ("Neural Harmonics: Bridging Spectral Embedding and Matrix Completion", "Neural Harmonics"),
        ("Tester-Learners for Halfspaces: Universal Algorithms", None),
        # topics and descriptions are not names
        ("Learning to Reason: A Survey of Methods", None),
        ("Towards Robust Agents: A Benchmark", None),
        ("Bandits with Knapsacks: Adversarial Rewards", None),
        ("A Study of Transformers", None),
    ],
)
def test_the_name_before_a_titles_colon(title, name):
    assert title_name(title) == name


@pytest.mark.parametrize(
    "title",
    [
        "Scale Is All You Need: Training Bigger Models",
        "Keep It Simple: Linear Probes for Vision",
        "Less Data, More Gains: Pruning Datasets",
        "Ask Me Anything: Prompting Language Models",
        "Every Token Counts: Sparse Attention at Scale",
    ],
)
def test_a_slogan_before_a_titles_colon_is_no_name(title):
    assert title_name(title) is None
    assert title_name(title, "We train models and measure what they learn.") is None


def test_a_slogan_the_abstract_uses_as_a_name_is_one():
    title = "You Only Look Twice: Rapid Multi-Scale Object Detection"
    abstract = "We present You Only Look Twice (YOLT), a detector for satellite images."

    assert title_name(title, abstract) == "You Only Look Twice"
    assert title_name(title) is None  # no abstract to say so


def paper(pid, title, text, *mentions, acronyms=None):
    """A paper with ``mentions`` found in its abstract (offsets into its document)."""
    record = Paper(id=pid, abstract=text, text=text, source=pid, title=title)
    document = record.document
    offset = document.index(text)
    found = [
        Mention(m, "METHOD", offset + text.index(m), offset + text.index(m) + len(m), text)
        for m in mentions
    ]
    return PaperMentions(record, found, acronyms=acronyms or {})


def proposed(result):
    return {m.text for m in result.mentions if m.proposed}


def test_a_slogan_title_adds_no_proposed_mention():
    result = paper(
        "s",
        "Keep It Simple: Linear Probes for Vision",
        "We study linear probes on frozen features of vision transformers.",
        "linear probes",
    )
    (marked,) = with_title_proposals([result])
    assert proposed(marked) == set()
    assert [m.text for m in marked.mentions] == ["linear probes"]


def test_a_name_in_the_title_is_proposed_where_the_abstract_uses_it():
    result = paper(
        "a",
        "Cal-QL: Calibrated Offline RL Pre-Training",
        "We develop an approach. Cal-QL learns a conservative value function.",
        "Cal-QL",
    )
    (marked,) = with_title_proposals([result])
    assert proposed(marked) == {"Cal-QL"}


def test_a_title_name_the_ner_missed_is_added():
    text = "We present PTQD, a framework. PTQD corrects noise."
    (marked,) = with_title_proposals([paper("a", "PTQD: Accurate Quantization", text)])
    # the title is the document's first sentence: the name is found there
    assert [(m.text, m.start, m.sentence, m.proposed) for m in marked.mentions] == [
        ("PTQD", 0, "PTQD: Accurate Quantization.", True)
    ]


def test_an_acronym_defined_in_the_abstract_and_named_in_the_title():
    text = "We propose free data selection (FreeSel), which is fast. FreeSel works."
    result = paper(
        "a",
        "Towards Free Data Selection with General-Purpose Models",
        text,
        "free data selection",
        "FreeSel",
        acronyms={"FreeSel": "free data selection"},
    )
    (marked,) = with_title_proposals([result])
    assert proposed(marked) == {"free data selection", "FreeSel"}


def test_a_common_acronym_in_the_title_is_not_a_contribution():
    def llm_paper(pid):
        # put forward as the paper's own: only the corpus's count says it is not
        text = "We introduce large language models (LLMs) at length."
        return paper(
            pid,
            "On Large Language Models",
            text,
            "large language models",
            acronyms={"LLMs": "large language models"},
        )

    marked = with_title_proposals([llm_paper(p) for p in "abc"])
    assert not any(proposed(r) for r in marked)
    (alone,) = with_title_proposals([llm_paper("a")])  # defined by one paper: its own
    assert proposed(alone) == {"large language models"}


def test_an_acronym_the_title_studies_is_not_proposed():
    text = (
        "Kronecker-factored approximate curvature (K-FAC) is a popular optimizer. "
        "We extend K-FAC to transformers and show it trains them well."
    )
    result = paper(
        "a",
        "Kronecker-Factored Approximate Curvature for Modern Neural Network Architectures",
        text,
        "Kronecker-factored approximate curvature",
        "K-FAC",
        acronyms={"K-FAC": "Kronecker-factored approximate curvature"},
    )
    (marked,) = with_title_proposals([result])
    assert not proposed(marked)


def test_a_title_case_name_before_the_colon_is_proposed():
    result = paper(
        "a",
        "Amortized Reparametrization: Efficient Variational Inference for Latent SDEs",
        "We present an amortization strategy for latent SDEs. It scales.",
        "amortization strategy",
    )
    (marked,) = with_title_proposals([result])
    # the NER missed it in the title: it is added there, proposed
    assert proposed(marked) == {"Amortized Reparametrization"}


def test_the_problem_a_proposal_is_for_is_not_proposed():
    text = "We propose an ensemble method for the vehicle routing problem (VRP). It works."
    result = paper(
        "a",
        "Ensembles for Vehicle Routing Problems",
        text,
        "ensemble method",
        "vehicle routing problem",
        "VRP",
        acronyms={"VRP": "vehicle routing problem"},
    )
    (marked,) = with_title_proposals([result])
    assert not proposed(marked)


def test_a_name_is_found_only_as_words_of_its_own_as_the_regular_expression_finds_it():
    def by_regex(name, text):
        match = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)
        return (match.start(), match.end()) if match else None

    assert titles._in_text("GAN", "StyleGAN and GAN-based GAN.") == (23, 26)
    rng = random.Random(3)
    pieces = ["a", "b", "A", "-", "_", " ", "é", "9", "(", ".", "ab", "a-b"]
    for _ in range(50_000):
        name = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 3)))
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert titles._in_text(name, text) == by_regex(name, text), (name, text)
