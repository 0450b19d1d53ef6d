"""Canonical keys and concept resolution: what must merge, what must stay apart, and why."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from paperkg.errors import InputError
from paperkg.extract.normalize import canonical_key, resolve_concepts
from paperkg.records import Mention, Paper, PaperMentions

ALIASES = Path(__file__).parent.parent / "fixtures" / "aliases"


def paper(paper_id: str, *mentions: tuple, acronyms: dict[str, str] | None = None):
    """A PaperMentions of ``(text, label)`` or ``(text, label, long_form)`` tuples."""
    return PaperMentions(
        Paper(id=paper_id, abstract="", text="", source=f"test#{paper_id}"),
        [
            Mention(m[0], m[1], 0, len(m[0]), "", long_form=m[2] if len(m) > 2 else None)
            for m in mentions
        ],
        acronyms or {},
    )


def same_concept(res, a: tuple[int, int], b: tuple[int, int]) -> bool:
    return res.concept_of[a[0]][a[1]] == res.concept_of[b[0]][b[1]]


@pytest.mark.parametrize(
    "surface, label, key",
    [
        ("graph neural networks", "METHOD", "graph neural network"),
        ("Graph Neural Network", "METHOD", "graph neural network"),
        ("GNNs", "METHOD", "gnn"),
        ("ResNets", "METHOD", "resnet"),
        ("CIFAR-100", "DATASET", "cifar-100"),
        ("the ImageNet dataset", "DATASET", "imagenet"),
        ("BERT model", "METHOD", "bert"),
        ("language model", "METHOD", "language model"),
        ("Gaussian processes", "METHOD", "gaussian process"),
        ("principal component analysis", "METHOD", "principal component analysis"),
        ("inductive biases", "METHOD", "inductive bias"),
        ("training data", "DATASET", "training data"),
        ("pre‐training", "METHOD", "pre-training"),  # U+2010 hyphen
        ("pre–training", "METHOD", "pre-training"),  # en dash
        ("long short - term memory", "METHOD", "long short-term memory"),
        ("a novel graph neural network", "METHOD", "graph neural network"),
        ("novel view synthesis", "TASK", "novel view synthesis"),
        ("the proposed contrastive loss", "METHOD", "contrastive loss"),
        ("$\\ell_p$ regression", "METHOD", "ell_p regression"),
        ("policies", "METHOD", "policy"),
        ("F1 score", "METRIC", "f1"),
        ("naïve Bayes", "METHOD", "naive bayes"),  # accents dropped, "Bayes" is no plural
        ("Navier-Stokes equations", "METHOD", "navier-stokes equation"),
        ("Matérn kernels", "METHOD", "matern kernel"),
        ("Transformer (", "METHOD", "transformer"),  # tokenizer debris
        ("C 3 D", "METHOD", "c3d"),  # a name the tokenizer split around its digit
        ("Pseudo-3 D networks", "METHOD", "pseudo-3d"),
        ("Deeplab-V 2", "METHOD", "deeplab-v2"),
        ("UCF 101", "DATASET", "ucf 101"),  # a word and a number stay apart
        ("2 D convolution", "METHOD", "2d convolution"),
        ("MORphological PArser MORPA", "METHOD", "morphological parser"),  # name + acronym
        ("CNN LSTM GRU", "METHOD", "cnn lstm gru"),  # not spelled by the capitals before
    ],
)
def test_canonical_key(surface, label, key):
    assert canonical_key(surface, label) == key


@pytest.mark.parametrize(
    "generic",
    [
        "our method",
        "this approach",
        "the model",
        "a novel framework",
        "existing methods",
        "state-of-the-art methods",
        "the proposed method",
        "baselines",
        "previous approaches",
    ],
)
def test_generic_phrases_are_dropped(generic):
    assert canonical_key(generic, "METHOD") == ""
    res = resolve_concepts([paper("p", (generic, "METHOD"), ("dropout", "METHOD"))])
    assert res.concept_of == [[None, "Method:dropout"]]
    assert res.mention_count == 1


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
    assert concept.aliases == ({a: 2, b: 1} if a != b else {a: 3})
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
]


@pytest.mark.parametrize("a, b, label", MUST_NOT_MERGE)
def test_must_not_merge(a, b, label):
    res = resolve_concepts([paper("p1", (a, label), (b, label))])
    assert not same_concept(res, (0, 0), (0, 1))
    assert len(res.concepts) == 2


def test_a_capitalised_one_word_name_may_drop_its_generic_word():
    res = resolve_concepts([paper("p", ("Dau measure", "METRIC"), ("Dau", "METRIC"))])
    assert same_concept(res, (0, 0), (0, 1))
    (concept,) = res.concepts.values()
    assert concept.merge_reasons["Dau measure"] == "same name with generic 'measure': 'dau'"


def test_different_labels_never_merge():
    res = resolve_concepts([paper("p", ("ImageNet", "DATASET"), ("ImageNet", "METHOD"))])
    assert res.concept_of == [["Dataset:imagenet", "Method:imagenet"]]


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


def test_names_keep_their_casing():
    res = resolve_concepts(
        [paper("p", ("CIFAR-10", "DATASET"), ("ImageNet-100", "DATASET"), ("LADS", "METHOD"))]
    )
    assert sorted(c.name for c in res.concepts.values()) == ["CIFAR-10", "ImageNet-100", "LADS"]


def test_yaml_alias_file_overrides_and_never_merge():
    results = [
        paper(
            "p1",
            ("Vision Transformer", "METHOD"),
            ("ViT", "METHOD"),
            ("visual transformer", "METHOD"),
        ),
        paper(
            "p2",
            ("KD", "METHOD", "knowledge distillation"),
            ("knowledge distillation", "METHOD"),
            acronyms={"KD": "knowledge distillation"},
        ),
        paper(
            "p3",
            ("sparse coding", "METHOD"),
            ("sparse coding", "METHOD"),
            ("spare coding", "METHOD"),
        ),
    ]
    automatic = resolve_concepts(results)
    assert automatic.concept_of[1][0] == automatic.concept_of[1][1]
    assert automatic.concept_of[2][0] == automatic.concept_of[2][2]

    res = resolve_concepts(results, alias_file=ALIASES / "aliases.yaml")
    assert res.concept_of[0] == ["Method:vision transformer"] * 3
    vit = res.concepts["Method:vision transformer"]
    assert vit.name == "Vision Transformer"
    assert vit.merge_reasons["ViT"] == "alias file"
    assert res.concept_of[1] == ["Method:kd", "Method:knowledge distillation"]  # never_merge
    assert res.concept_of[2][0] != res.concept_of[2][2]


def test_csv_alias_file_with_labels():
    results = [paper("p", ("LM", "METHOD"), ("language models", "METHOD"), ("LM", "TASK"))]
    res = resolve_concepts(results, alias_file=ALIASES / "aliases.csv")
    assert res.concept_of == [["Method:language model", "Method:language model", "Task:lm"]]


def test_bad_alias_file_says_what_to_fix(tmp_path):
    with pytest.raises(InputError, match="label 'MODEL' is not one of"):
        resolve_concepts([], alias_file=ALIASES / "bad_label.csv")
    with pytest.raises(InputError, match="does not exist"):
        resolve_concepts([], alias_file=tmp_path / "missing.yaml")


def test_counts_for_the_build_summary():
    res = resolve_concepts(
        [
            paper("p1", ("GNNs", "METHOD", "graph neural network"), ("our model", "METHOD")),
            paper("p2", ("graph neural networks", "METHOD"), ("Cora", "DATASET")),
        ]
    )
    assert (res.mention_count, len(res.concepts)) == (3, 2)


def paper_with_text(paper_id: str, text: str, spans: list[tuple[str, str]], acronyms=None):
    """A PaperMentions whose mentions are found in ``text`` (first occurrence after the last)."""
    mentions, position = [], 0
    for surface, label in spans:
        start = text.index(surface, position)
        position = start + len(surface)
        mentions.append(Mention(surface, label, start, position, text))
    return PaperMentions(
        Paper(id=paper_id, abstract=text, text=text, source="t"), mentions, acronyms or {}
    )


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


def test_alias_file_can_choose_the_display_name(tmp_path):
    aliases = tmp_path / "names.csv"
    aliases.write_text("alias,canonical\nvit,ViT\n", encoding="utf-8")
    res = resolve_concepts(
        [paper("p", ("vit", "METHOD"), ("vit", "METHOD"), ("ViT", "METHOD"))], alias_file=aliases
    )
    assert res.concepts["Method:vit"].name == "ViT"


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
    "name, content, message",
    [
        (
            "a.csv",
            "alias,target\nKD,knowledge distillation\n",
            "expected a header 'alias,canonical'",
        ),
        ("a.csv", "alias,canonical\nKD,\n", "line 2: alias and canonical must both be non-empty"),
        ("a.yaml", "aliases: [KD]\n", "'aliases' must map alias -> canonical"),
        ("a.yaml", "never_merge: [[a, b, c]]\n", "every never_merge item must be a pair"),
        ("a.yaml", "synonyms: {}\n", "must be a mapping with keys 'aliases' and/or 'never_merge'"),
        ("a.txt", "KD knowledge distillation\n", "expected .csv, .yaml or .yml"),
    ],
)
def test_malformed_alias_files_say_what_to_fix(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=re.escape(message)):
        resolve_concepts([], alias_file=path)


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


def test_title_case_names_keep_their_plural_but_share_the_singular_key():
    res = resolve_concepts(
        [
            paper("p1", ("Supervised Diffusion Maps", "METHOD")),
            paper("p2", ("supervised diffusion map", "METHOD")),
        ]
    )
    assert len(res.concepts) == 1
    assert next(iter(res.concepts.values())).name in {
        "Supervised Diffusion Maps",
        "supervised diffusion map",
    }
    assert canonical_key("Supervised Diffusion Maps", "METHOD") == "supervised diffusion map"


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
