"""Acronyms: defined in a paper, voted on by the corpus, spelled out inside names."""

from __future__ import annotations

import pytest

from paperkg.extract.resolve import resolve_concepts

from ..conftest import titled
from .conftest import paper, paper_with_text, same_concept


def test_acronym_defined_in_paper_joins_long_form():
    res = resolve_concepts(
        [
            paper(
                "p1",
                ("graph neural networks", "METHOD"),
                ("GNN", "METHOD", "graph neural network"),
                ("GNNs", "METHOD"),
                acronyms={"GNN": "graph neural network"},
            )
        ]
    )
    assert res.concept_of == [["Method:graph neural network"] * 3]
    concept = res.concepts["Method:graph neural network"]
    assert concept.name == "graph neural network"  # the long form, not the acronym
    assert concept.merge_reasons["GNN"] == "acronym defined in paper p1"
    assert concept.merge_reasons["GNNs"] == "acronym defined in paper p1"
    assert concept.merge_reasons["graph neural networks"] == "plural of 'graph neural network'"


def test_bare_acronym_joins_the_corpus_long_form():
    defining = [
        paper(
            f"d{i}",
            ("GNN", "METHOD", "graph neural network"),
            acronyms={"GNN": "graph neural network"},
        )
        for i in range(4)
    ]
    res = resolve_concepts([*defining, paper("bare", ("GNNs", "METHOD"))])
    assert res.concept_of[-1] == ["Method:graph neural network"]
    reason = res.concepts["Method:graph neural network"].merge_reasons["GNNs"]
    assert reason == "corpus acronym: 'GNN' -> 'graph neural network' (4 of 4 definitions)"


@pytest.mark.parametrize("written, joins", [("SPACE", True), ("space", False), ("Space", False)])
def test_only_a_word_written_as_an_acronym_joins_the_corpus_long_form(written, joins):
    long = "Single-round Participants Amalgamation for Contribution Evaluation"
    defining = paper("d", ("SPACE", "METHOD", long), acronyms={"SPACE": long})
    res = resolve_concepts([defining, paper("other", (written, "METHOD"))])
    assert same_concept(res, (0, 0), (1, 0)) is joins


def test_an_acronym_with_a_generic_word_joins_the_corpus_long_form_too():
    defining = paper("d", ("GNN", "METHOD", "graph neural network"))
    res = resolve_concepts([defining, paper("other", ("GNN models", "METHOD"))])
    assert same_concept(res, (0, 0), (1, 0))


@pytest.mark.parametrize("definitions, joins", [(1, False), (2, True)])
def test_a_two_letter_acronym_needs_two_papers_defining_it(definitions, joins):
    defining = [
        paper(f"d{i}", ("BO", "METHOD", "bi-level optimization")) for i in range(definitions)
    ]
    res = resolve_concepts([*defining, paper("other", ("BO", "METHOD"))])
    assert same_concept(res, (0, 0), (definitions, 0)) is joins


def test_ambiguous_acronym_stays_apart_and_is_reported():
    res = resolve_concepts(
        [
            paper(
                "a",
                ("KD", "METHOD", "knowledge distillation"),
                acronyms={"KD": "knowledge distillation"},
            ),
            paper("b", ("KD", "METHOD", "kernel density"), acronyms={"KD": "kernel density"}),
            paper("c", ("KD", "METHOD")),
        ]
    )
    assert res.concept_of == [
        ["Method:knowledge distillation"],
        ["Method:kernel density"],
        ["Method:kd"],
    ]
    assert res.ambiguous_acronyms == {"KD": ["kernel density", "knowledge distillation"]}


def test_clear_majority_links_a_bare_acronym():
    defs = [("knowledge distillation", 4), ("kernel density", 1)]
    results = [
        paper(f"{long}{i}", ("KD", "METHOD", long), acronyms={"KD": long})
        for long, n in defs
        for i in range(n)
    ]
    res = resolve_concepts([*results, paper("bare", ("KD", "METHOD"))])
    assert res.concept_of[-1] == ["Method:knowledge distillation"]
    assert (
        "(4 of 5 definitions)" in res.concepts["Method:knowledge distillation"].merge_reasons["KD"]
    )
    assert res.ambiguous_acronyms == {}


def test_mention_holding_its_own_definition():
    res = resolve_concepts(
        [paper("p", ("convolutional neural networks (CNNs)", "METHOD"), ("CNNs", "METHOD"))]
    )
    assert res.concept_of == [["Method:convolutional neural network"] * 2]


def test_short_form_followed_by_long_form_in_parentheses():
    text = "We compare ULMFit (Universal Language Model Fine-tuning) with ELMo. ULMFit wins."
    found = paper_with_text(
        "p",
        text,
        [
            ("ULMFit", "METHOD"),
            ("Universal Language Model Fine-tuning", "METHOD"),
            ("ELMo", "METHOD"),
            ("ULMFit", "METHOD"),
        ],
    )
    res = resolve_concepts([found])
    assert res.concept_of[0][0] == res.concept_of[0][1] == res.concept_of[0][3]
    assert res.concept_of[0][2] == "Method:elmo"


def test_long_form_boundaries_come_from_the_mention_that_precedes_the_acronym():
    # the acronym matcher found "feed-forward network"; the NER span is longer
    text = "Each layer has a fully connected feed-forward network (FFN). The FFN is wide."
    found = paper_with_text(
        "p",
        text,
        [("fully connected feed-forward network", "METHOD"), ("FFN", "METHOD"), ("FFN", "METHOD")],
        acronyms={"FFN": "feed-forward network"},
    )
    res = resolve_concepts([found])
    assert res.concept_of == [["Method:fully connected feed-forward network"] * 3]


def test_a_preceding_mention_must_start_like_the_acronym():
    # "offline reinforcement learning (RL)": RL stands for reinforcement learning
    text = "We study offline reinforcement learning (RL). RL agents learn from logs."
    found = paper_with_text(
        "p",
        text,
        [("offline reinforcement learning", "METHOD"), ("RL", "METHOD"), ("RL", "METHOD")],
        acronyms={"RL": "reinforcement learning"},
    )
    res = resolve_concepts([found])
    assert res.concept_of == [
        ["Method:offline reinforcement learning"] + ["Method:reinforcement learning"] * 2
    ]


def test_a_bare_acronym_follows_the_definitions_of_its_own_label():
    method = [
        paper(
            f"m{i}", ("MAE", "METHOD", "masked autoencoder"), acronyms={"MAE": "masked autoencoder"}
        )
        for i in range(3)
    ]
    metric = paper(
        "e", ("MAE", "METRIC", "mean absolute error"), acronyms={"MAE": "mean absolute error"}
    )
    res = resolve_concepts([*method, metric, paper("bare", ("MAE", "METRIC"), ("MAE", "METHOD"))])
    assert res.concept_of[-1] == ["Metric:mean absolute error", "Method:masked autoencoder"]


@pytest.mark.parametrize(
    "long, short, name",
    [
        ("selective KD", "SelKD", "SelKD"),  # a coined name beats a plain description
        ("lightweight predictor", "Light-DDG", "Light-DDG"),
        ("Rotary Positional Encodings", "RoPE", "Rotary Positional Encodings"),  # title case stays
        ("graph neural network", "GNN", "graph neural network"),  # all-caps acronym: long form
    ],
)
def test_which_form_names_an_acronym_concept(long, short, name):
    res = resolve_concepts(
        [paper("p1", (long, "METHOD"), (short, "METHOD", long), acronyms={short: long})]
    )
    (concept,) = res.concepts.values()
    assert concept.name == name
    assert {long, short} <= set(concept.aliases)


@pytest.mark.parametrize(
    "long, written, name",
    [
        ("low-rank adaptation", ["LoRAs", "LoRAs", "LoRA"], "LoRA"),  # its plural, not a name
        ("iterative elastic bins", ["IEBins", "IEBins"], "IEBins"),  # a name ending in "s"
    ],
)
def test_a_coined_name_is_shown_in_the_singular_its_paper_writes(long, written, name):
    short = written[0]
    acronyms = [(surface, "METHOD", long) for surface in written]
    res = resolve_concepts([paper("p", (long, "METHOD"), *acronyms, acronyms={short: long})])
    (concept,) = res.concepts.values()
    assert concept.name == name


@pytest.mark.parametrize(
    "bare_papers, spelling_papers, name",
    [
        (6, 1, "CLIP"),  # one paper spells it out, six write CLIP alone
        (3, 1, "CLIP"),  # three papers write CLIP alone, one spells it out: just 3 x 1
        (2, 1, "contrastive language-image pre-training"),  # 3 papers write CLIP, 2 spell it
        (8, 4, "contrastive language-image pre-training"),  # a third of its papers spell it out
    ],
)
def test_an_acronym_far_more_papers_write_names_its_concept(bare_papers, spelling_papers, name):
    long = "contrastive language-image pre-training"
    defining = [  # each writes "CLIP" five times: mentions count for nothing, papers do
        paper(f"d{i}", (long, "METHOD"), *[("CLIP", "METHOD", long)] * 5, acronyms={"CLIP": long})
        for i in range(spelling_papers)
    ]
    # a bare paper writes CLIP and its plural, which is still writing it alone
    bare = [paper(f"b{i}", ("CLIP", "METHOD"), ("CLIPs", "METHOD")) for i in range(bare_papers)]
    res = resolve_concepts([*defining, *bare])
    (concept,) = res.concepts.values()
    assert concept.name == name


def test_an_acronym_ending_in_s_keeps_it_when_it_names_its_concept():
    long = "iterative elastic bins"
    defining = paper("d", (long, "METHOD"), ("IEBins", "METHOD", long), acronyms={"IEBins": long})
    bare = [paper(f"b{i}", *[("IEBins", "METHOD")] * 3) for i in range(3)]
    (concept,) = resolve_concepts([defining, *bare]).concepts.values()
    assert concept.name == "IEBins"


def test_a_paper_defining_an_acronym_spells_it_out_even_where_only_the_acronym_is_tagged():
    long = "contrastive language-image pre-training"
    defining = [paper(f"d{i}", ("CLIP", "METHOD", long), acronyms={"CLIP": long}) for i in range(4)]
    bare = [paper(f"b{i}", ("CLIP", "METHOD")) for i in range(8)]
    (concept,) = resolve_concepts([*defining, *bare]).concepts.values()
    assert concept.name == long  # 8 papers write CLIP alone, 4 spell it out


def test_long_form_before_a_spaced_acronym_the_matcher_missed():
    # SciER tokenization: "P3D" became "P 3 D"; the acronym matcher did not see it
    text = "a special case of Pseudo-3 D networks ( P 3 D ) models. P 3 D is slow."
    found = paper_with_text(
        "p", text, [("Pseudo-3 D networks", "METHOD"), ("P 3 D", "METHOD"), ("P 3 D", "METHOD")]
    )
    res = resolve_concepts([found])
    assert res.concept_of == [["Method:pseudo-3d"] * 3]
    assert res.concepts["Method:pseudo-3d"].merge_reasons["P 3 D"] == "acronym defined in paper p"


@pytest.mark.parametrize(
    "text, long, short, merged",
    [
        ("pruning fully connected (fc) layers", "fully connected", "fc", True),
        ("two fully-connected (fc) layers", "fully-connected", "fc", True),
        ("we use adversarial training (at) here", "adversarial training", "at", False),
        ("feature computation layer (fc) again", "feature computation layer", "fc", False),
    ],
)
def test_lowercase_abbreviation_must_be_the_initials_of_its_long_form(text, long, short, merged):
    found = paper_with_text("p", text, [(long, "METHOD"), (short, "METHOD")])
    res = resolve_concepts([found])
    assert same_concept(res, (0, 0), (0, 1)) is merged


def test_a_definition_needs_one_label_on_both_sides():
    text = "We evaluate on the Pseudo-3 D networks ( P 3 D ) benchmark."
    found = paper_with_text("p", text, [("Pseudo-3 D networks", "METHOD"), ("P 3 D", "DATASET")])
    res = resolve_concepts([found])
    assert res.concept_of == [["Method:pseudo-3d", "Dataset:p3d"]]


def test_two_long_forms_of_one_acronym_in_a_paper_join():
    text = (
        "Such a separated convolutional network (S3D) was introduced by Xi. "
        "Gating is applied to the outputs of Separated 3D (S3D)."
    )
    found = paper_with_text(
        "p",
        text,
        [
            ("separated convolutional network", "METHOD"),
            ("S3D", "METHOD"),
            ("Separated 3D", "METHOD"),
            ("S3D", "METHOD"),
        ],
        acronyms={"S3D": "separated convolutional network"},
    )
    res = resolve_concepts([found])
    assert len(set(res.concept_of[0])) == 1
    (concept,) = res.concepts.values()
    assert concept.merge_reasons["Separated 3D"] == "another long form of 'S3D' in paper p"


def test_a_second_long_form_must_spell_the_acronym():
    text = "A graph neural network (GNN) helps. Our message passing scheme (GNN) too."
    found = paper_with_text(
        "p",
        text,
        [
            ("graph neural network", "METHOD"),
            ("GNN", "METHOD"),
            ("message passing scheme", "METHOD"),
            ("GNN", "METHOD"),
        ],
        acronyms={"GNN": "graph neural network"},
    )
    res = resolve_concepts([found])
    assert res.concept_of[0][0] == res.concept_of[0][1] != res.concept_of[0][2]


def test_an_acronym_spelling_out_a_mention_of_its_paper_joins_it():
    res = resolve_concepts(
        [
            paper("p1", ("Guided Network", "METHOD"), ("GN", "METHOD")),
            paper("p2", ("convolutional 3D network", "METHOD"), ("C 3 D", "METHOD")),
            paper("p3", ("GN", "METHOD")),  # no long form in this paper: left alone
        ]
    )
    assert same_concept(res, (0, 0), (0, 1))
    assert same_concept(res, (1, 0), (1, 1))  # "network" may be left out of the initials
    assert not same_concept(res, (0, 1), (2, 0))
    concept = res.concepts[res.concept_of[0][0]]
    assert concept.merge_reasons["GN"] == "initials of 'Guided Network' in paper p1"


@pytest.mark.parametrize(
    "mentions",
    [
        # two long forms with the same initials: which one is meant is unknown
        [("LR", "METHOD"), ("logistic regression", "METHOD"), ("linear regression", "METHOD")],
        # another label
        [("GN", "METHOD"), ("Guided Network", "DATASET")],
        # not the initials, only letters in order
        [("GNN", "METHOD"), ("graph network", "METHOD")],
    ],
)
def test_initials_must_match_one_same_label_mention(mentions):
    res = resolve_concepts([paper("p", *mentions)])
    assert len(set(res.concept_of[0])) == len(mentions)


def test_a_rarely_used_coined_acronym_does_not_rename_a_common_concept():
    res = resolve_concepts(
        [
            paper("p1", ("self-supervised learning", "METHOD"), ("SSL", "METHOD")),
            paper(
                "p2",
                ("self-supervised learning", "METHOD"),
                ("Self-SL", "METHOD", "self-supervised learning"),
            ),
            paper("p3", ("self-supervised learning", "METHOD")),
        ]
    )
    (concept,) = {c for row in res.concept_of for c in row}
    assert res.concepts[concept].name == "self-supervised learning"


SPELLED_OUT = [
    # (acronym, long form, a name using the acronym, the name spelled out, merged)
    (
        "WSD",
        "word sense disambiguation",
        "dedicated WSD models",
        "dedicated word sense disambiguation models",
        True,
    ),
    (
        "HDAG",
        "Hierarchical Directed Acyclic Graph",
        "HDAG Kernel",
        "Hierarchical Directed Acyclic Graph Kernel",
        True,
    ),
    ("FKT", "Fukunaga-Koontz Transform", "linear FKT", "linear Fukunaga-Koontz Transform", True),
    (
        "ASR",
        "automatic speech recognition",
        "ASR systems",
        "automatic speech recognition system",
        True,
    ),
    ("LLMs", "large language models", "LLM agents", "large language model agents", True),
    # another acronym, or the same acronym standing for something else
    ("WSD", "word sense disambiguation", "WSI models", "word sense induction models", False),
    ("KD", "kernel density", "KD loss", "knowledge distillation loss", False),
]


@pytest.mark.parametrize("short, long, name, spelled, merged", SPELLED_OUT)
def test_a_name_using_an_acronym_of_its_paper_joins_its_spelled_out_form(
    short, long, name, spelled, merged
):
    defining = paper("p1", (long, "METHOD"), (short, "METHOD", long), (name, "METHOD"))
    other = paper("p2", (spelled, "METHOD"))
    res = resolve_concepts([defining, other])
    assert same_concept(res, (0, 2), (1, 0)) is merged
    if merged:
        concept = res.concepts[res.concept_of[0][2]]
        assert "spelled out as defined in paper p1" in concept.merge_reasons[name]


def test_an_acronym_the_corpus_reads_two_ways_is_not_spelled_out():
    res = resolve_concepts(
        [
            paper("p1", ("LCS", "METHOD", "longest common subsequence"), ("LCS kernel", "METHOD")),
            paper("p2", ("LCS", "METHOD", "lexical conceptual structure")),
            paper("p3", ("longest common subsequence kernel", "METHOD")),
        ]
    )
    assert not same_concept(res, (0, 1), (2, 0))


def test_a_name_using_a_field_acronym_its_paper_leaves_undefined_joins_its_spelled_out_form():
    res = resolve_concepts(
        [
            paper("p1", ("RL", "TASK", "reinforcement learning")),
            paper(
                "p2", ("reinforcement learning", "TASK"), ("RL", "TASK", "reinforcement learning")
            ),
            paper("p3", ("model-based RL", "TASK")),  # RL is not defined here
            paper("p4", ("model-based reinforcement learning", "TASK")),
        ]
    )
    assert same_concept(res, (2, 0), (3, 0))
    concept = res.concepts[res.concept_of[2][0]]
    assert concept.name == "model-based reinforcement learning"
    assert concept.merge_reasons["model-based RL"] == (
        "corpus acronym spelled out in 'model-based RL': "
        "'RL' -> 'reinforcement learning' (2 of 2 definitions)"
    )


def test_a_field_acronym_is_not_spelled_out_into_a_name_no_paper_writes():
    res = resolve_concepts(
        [
            paper("p1", ("RL", "TASK", "reinforcement learning")),
            paper("p2", ("RL", "TASK", "reinforcement learning")),
            paper("p3", ("robust RL", "TASK")),
        ]
    )
    assert {c.key for c in res.concepts.values()} == {"reinforcement learning", "robust rl"}


DP_PAPERS = [paper(f"d{i}", ("DP", "METHOD", "differential privacy")) for i in range(3)]


@pytest.mark.parametrize(
    "papers",
    [
        # the corpus reads the acronym two ways
        [
            paper("p1", ("LCS", "METHOD", "longest common subsequence")),
            paper("p2", ("LCS", "METHOD", "lexical conceptual structure")),
            paper("p3", ("LCS kernel", "METHOD")),
            paper("p4", ("longest common subsequence kernel", "METHOD")),
        ],
        # one paper's definition of a two-letter acronym says little of another's meaning
        [
            paper("p1", ("BO", "METHOD", "bi-level optimization")),
            paper("p2", ("batch BO", "METHOD")),
            paper("p3", ("batch bi-level optimization", "METHOD")),
        ],
        # the spelled-out form is another label's
        [
            paper("p1", ("PCA", "METHOD", "principal component analysis")),
            paper("p2", ("fair PCA", "TASK")),
            paper("p3", ("fair principal component analysis", "METHOD")),
        ],
        # the paper defines the acronym otherwise: its own reading wins over the corpus's
        [
            *DP_PAPERS,
            paper("p", ("DP", "METHOD", "dynamic programming"), ("approximate DP", "METHOD")),
            paper("q", ("approximate differential privacy", "METHOD")),
        ],
    ],
)
def test_a_field_acronym_is_spelled_out_only_as_the_corpus_agrees(papers):
    """The name using the acronym is the last mention of the next-to-last paper; the
    spelled-out name, the last paper's."""
    res = resolve_concepts(papers)
    name_with_acronym = (len(papers) - 2, len(papers[-2].mentions) - 1)
    assert not same_concept(res, name_with_acronym, (len(papers) - 1, 0))


def test_a_field_acronym_is_spelled_out_as_the_papers_of_the_names_label_read_it():
    res = resolve_concepts(
        [
            *[paper(f"m{i}", ("MAE", "METHOD", "masked autoencoder")) for i in range(3)],
            paper("e", ("MAE", "METRIC", "mean absolute error")),
            paper("p", ("normalized MAE", "METRIC")),
            paper("q", ("normalized mean absolute error", "METRIC")),
            paper("r", ("normalized masked autoencoder", "METRIC")),
        ]
    )
    assert same_concept(res, (4, 0), (5, 0))
    assert not same_concept(res, (4, 0), (6, 0))


def test_an_acronym_with_a_generic_word_is_named_by_its_spelled_out_form():
    res = resolve_concepts(
        [
            paper("p1", ("DP", "METHOD", "differential privacy"), ("DP algorithms", "METHOD")),
            paper("p2", ("DP", "METHOD", "dataset pruning"), ("DP methods", "METHOD")),
            paper("p3", ("dynamic programming", "METHOD"), ("DP algorithms", "METHOD")),
        ]
    )
    concept = res.concepts[res.concept_of[0][1]]
    assert concept.name == "differential privacy"  # "DP algorithms" joins the long form
    assert concept.merge_reasons["DP algorithms"] == (
        "'DP' spelled out as defined in paper p1; same name with generic 'algorithm': "
        "'differential privacy'"
    )
    assert res.concepts[res.concept_of[1][1]].name == "dataset pruning"
    # no definition in p3, two readings in the corpus: its "DP algorithms" stays apart
    assert res.concepts[res.concept_of[2][1]].name == "DP"
    assert res.concept_of[2][1] not in (res.concept_of[0][1], res.concept_of[1][1])


def test_an_acronym_spelled_out_by_initials_is_spelled_out_inside_names_too():
    res = resolve_concepts(
        [
            paper(
                "p1",
                ("Common Answer Specification", "METHOD"),
                ("CAS", "METHOD"),
                ("CAS approach", "METHOD"),
            )
        ]
    )
    assert len(set(res.concept_of[0])) == 1
    (concept,) = res.concepts.values()
    assert concept.name == "Common Answer Specification"
    assert concept.merge_reasons["CAS approach"].startswith(
        "'CAS' spelled out as defined in paper p1"
    )


def test_a_name_using_an_acronym_meets_a_long_form_seen_only_in_its_definition():
    res = resolve_concepts(
        [
            paper(
                "p1",
                ("NeRF", "METHOD", "neural radiance fields"),  # the long form is no mention
                ("NeRF framework", "METHOD"),
                ("GAT", "METHOD", "Graph Attention Network"),
                ("GAT network", "METHOD"),  # not "graph attention network network"
            )
        ]
    )
    assert res.concept_of[0][0] == res.concept_of[0][1] == "Method:neural radiance field"
    assert res.concept_of[0][2] == res.concept_of[0][3] == "Method:graph attention network"


@pytest.mark.parametrize(
    "written, long_key, short",
    [
        ("Knowledge Distillation (KD)", "knowledge distillation", "KD"),
        ("K-nearest neighbors (KNN)", "k-nearest neighbor", "KNN"),
        ("Deep Q Network DQN", "deep q network", "DQN"),
        # the concept's key leaves out a word its label makes redundant
        ("random fragment masking strategy (RFMS)", "random fragment masking", "RFMS"),
        ("deep reinforcement learning method (DRLM)", "deep reinforcement learning", "DRLM"),
    ],
)
def test_the_bare_acronym_of_a_definition_is_always_an_alias(written, long_key, short):
    """A user who searches "KD" finds knowledge distillation, even where the paper
    writes "KD" only inside its definition."""
    res = resolve_concepts([paper("p1", (written, "METHOD"))])
    concept = res.concepts[f"Method:{long_key}"]
    assert short in concept.aliases
    assert concept.merge_reasons[short] == "acronym defined in paper p1"


@pytest.mark.parametrize(
    "title, abstract, short, long",
    [
        # the title's name before its colon abbreviates a name after it
        ("GLOBER: Coherent Video Generation via GLOBal Guided Video DecodER",
         "We show that GLOBER generates coherent videos.", "GLOBER",
         "GLOBal Guided Video DecodER"),
        # a coined name the abstract puts forward abbreviates the title's name
        ("Normal Estimation by Learning Neural Gradient Function", "We introduce NeuralGF, "
         "which learns normals. NeuralGF is fast.", "NeuralGF", "Neural Gradient Function"),
        ("Attention-Guided Incremental Learning", "We propose AGILE, a rehearsal-based "
         "method.", "AGILE", "Attention-Guided Incremental Learning"),
    ],
)  # fmt: skip
def test_a_title_name_and_its_short_name_are_one_concept(title, abstract, short, long):
    spans = [(short, "METHOD"), (long, "METHOD")]
    if not title.startswith(short):
        spans.reverse()
    res = resolve_concepts([titled("p1", title, abstract, spans)])
    assert len(set(res.concept_of[0])) == 1, res.concepts
    (concept,) = res.concepts.values()
    assert {short, long} <= set(concept.aliases) | {concept.name}


@pytest.mark.parametrize(
    "title, long",
    [
        ("GEQ: Gaussian Kernel Inspired Equilibrium Models", "Gaussian Kernel Inspired Equilibrium Models"),
        ("BayesTune: Bayesian Sparse Deep Model Fine-tuning", "Bayesian Sparse Deep Model Fine-tuning"),
        ("ContinuAR: Continuous Autoregression For Fusion", "Continuous Autoregression"),
    ],
)  # fmt: skip
def test_a_title_that_names_its_short_name_after_the_colon_makes_one_concept(title, long):
    short = title.split(":")[0]
    spans = [(short, "METHOD"), (long, "METHOD"), (short, "METHOD")]
    res = resolve_concepts([titled("p1", title, f"We propose {short}. It works.", spans)])
    assert len(set(res.concept_of[0])) == 1, res.concepts


@pytest.mark.parametrize(
    "title, long, label",
    [
        # the words after the colon say what it does, not what its letters stand for
        ("RegBN: Batch Normalization of Multimodal Data", "Batch Normalization", "METHOD"),
        # a task the method is for
        ("ViSt3D: Video Stylization with 3D CNN", "Video Stylization", "TASK"),
    ],
)
def test_a_title_that_says_what_its_short_name_does_keeps_two_concepts(title, long, label):
    short = title.split(":")[0]
    spans = [(short, "METHOD"), (long, label), (short, "METHOD")]
    res = resolve_concepts([titled("p1", title, f"We propose {short}. It works.", spans)])
    assert res.concept_of[0][0] != res.concept_of[0][1], res.concepts


def test_a_used_name_is_not_read_as_the_title_name_it_happens_to_spell():
    """ "LLaMA" spells "Large Language Model Alignment" letter by letter, but the paper
    only uses it: it is not put forward and not in the title."""
    found = titled(
        "p1",
        "Large Language Model Alignment for Dialogue",
        "We fine-tune LLaMA on dialogues.",
        [("Large Language Model Alignment", "METHOD"), ("LLaMA", "METHOD")],
    )
    res = resolve_concepts([found])
    assert res.concept_of[0][0] != res.concept_of[0][1]


@pytest.mark.parametrize(
    "text, long, short",
    [
        ("We propose eXtensible Prompt (X-Prompt) for prompting.", "eXtensible Prompt",
         "X-Prompt"),
        ("We propose T2T (Training to Testing) for search.", "Training to Testing", "T2T"),
    ],
)  # fmt: skip
def test_a_short_name_beside_its_long_form_is_read_as_it(text, long, short):
    spans = sorted([(long, "METHOD"), (short, "METHOD")], key=lambda s: text.index(s[0]))
    res = resolve_concepts([paper_with_text("p1", text, spans)])
    assert same_concept(res, (0, 0), (0, 1)), res.concepts


def test_an_acronym_tagged_with_another_label_than_its_long_form_is_still_its_concept():
    """The NER may call the acronym a Method and its long form a Task: one thing,
    one concept, whose label the corpus vote decides."""
    text = "We study Distribution-Agnostic Generalized Category Discovery (DA-GCD). DA-GCD is hard."
    found = paper_with_text(
        "p1",
        text,
        [("Distribution-Agnostic Generalized Category Discovery", "TASK"),
         ("DA-GCD", "METHOD"), ("DA-GCD", "METHOD")],
    )  # fmt: skip
    res = resolve_concepts([found])
    keys = {cid.split(":", 1)[1] for cid in res.concept_of[0]}
    assert keys == {"distribution-agnostic generalized category discovery"}


def test_a_short_name_of_several_words_beside_its_long_form_is_read_as_it():
    text = "We add a Repulsive Unsigned Distance Function (Repulsive UDF). Our Repulsive UDF helps."
    found = paper_with_text(
        "p1",
        text,
        [("Repulsive Unsigned Distance Function", "METHOD"), ("Repulsive UDF", "METHOD"),
         ("Repulsive UDF", "METHOD")],
    )  # fmt: skip
    res = resolve_concepts([found])
    assert set(res.concept_of[0]) == {"Method:repulsive unsigned distance function"}


def test_a_name_using_an_acronym_of_a_hyphenated_long_form_is_spelled_out():
    found = paper(
        "p1",
        ("Follow-the-Regularized-Leader", "METHOD"),
        ("FTRL algorithm", "METHOD"),
        acronyms={"FTRL": "Follow-the-Regularized-Leader"},
    )
    res = resolve_concepts([found])
    assert same_concept(res, (0, 0), (0, 1)), res.concepts


@pytest.mark.parametrize(
    "short, long_forms, one_concept",
    [
        ("LoRA", ["low-rank adaptation", "Low Rank Adapters"], True),
        ("MLE", ["maximum likelihood estimation", "maximum-likelihood estimator"], True),
        ("FTRL", ["Follow-the-Regularized-Leader", "following the regularized leader"], True),
        ("LoRA", ["low-rank adaptation method", "Low Rank Adapters"], True),  # "method" drops
        ("MIS", ["maximal independent set", "maximum independent set"], False),  # other words
        ("CL", ["contrastive learning", "continual learning"], False),
        ("GLM", ["general linear model", "generalized linear model"], False),
        ("AC", ["actor critic", "action critic"], False),  # a stem of three letters
        ("PN", ["point network", "pointer network"], False),
    ],
)
def test_two_spellings_of_an_acronyms_long_form_are_one_concept(short, long_forms, one_concept):
    defining = [
        paper(f"d{i}", (long, "METHOD"), (short, "METHOD", long), acronyms={short: long})
        for i, long in enumerate(long_forms)
    ]
    res = resolve_concepts([*defining, paper("bare", (short, "METHOD"))])
    assert same_concept(res, (0, 0), (1, 0)) is one_concept
    # joined, the corpus agrees on what a bare acronym is; apart, it stays its own
    assert same_concept(res, (0, 0), (2, 0)) is one_concept
