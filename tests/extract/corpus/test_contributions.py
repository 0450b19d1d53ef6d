"""What each paper proposes: the learned decision per (paper, concept) and its signs."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import numpy as np
import pytest

from paperkg.extract.corpus.contributions import (
    BACKGROUND_PATH,
    FEATURES,
    MODEL_PATH,
    Background,
    contribution_features,
    contribution_flags,
    load_background,
    load_model,
    text_key,
)
from paperkg.extract.resolve import resolve_concepts
from paperkg.records import PaperMentions

from ..conftest import titled

#: papers that name ResNet-50 and ImageNet as tools: ResNet-50 is nobody's contribution
USERS = [
    titled(f"u{i}", f"Study {i}", "We train ResNet-50 on ImageNet.",
           [("ResNet-50", "METHOD"), ("ImageNet", "DATASET")])
    for i in range(6)
]  # fmt: skip


def proposed_flags(found: PaperMentions, corpus: list[PaperMentions]) -> list[bool]:
    """The model's ``proposed`` for each mention of ``found``, read in a corpus of
    ``found`` then ``corpus``: the first of the flags, one per mention in corpus order."""
    results = [found, *corpus]
    flags = contribution_flags(results, resolve_concepts(results))
    assert len(flags) == sum(len(r.mentions) for r in results)
    return flags[: len(found.mentions)].tolist()


def proposed_names(found: PaperMentions, corpus: list[PaperMentions]) -> set[str]:
    flags = proposed_flags(found, corpus)
    return {m.text for m, flag in zip(found.mentions, flags, strict=True) if flag}


def test_a_coined_name_put_forward_is_proposed_and_a_used_model_is_not():
    found = titled(
        "p",
        "LADS: Learning Skills by Decomposition",
        "We propose LADS, a hierarchical approach. LADS builds on ResNet-50 and beats it "
        "on ImageNet.",
        [("LADS", "METHOD"), ("LADS", "METHOD"), ("LADS", "METHOD"),
         ("ResNet-50", "METHOD"), ("ImageNet", "DATASET")],
    )  # fmt: skip
    assert proposed_names(found, USERS) == {"LADS"}


def test_what_the_rules_marked_is_a_sign_not_the_decision():
    """Extraction marked the widely used ResNet-50 proposed; the model weighs that
    against the many papers that use it."""
    found = titled(
        "p",
        "Better Training",
        "We present ResNet-50 results on ImageNet.",
        [("ResNet-50", "METHOD"), ("ImageNet", "DATASET")],
    )
    found.mentions[0] = replace(found.mentions[0], proposed=True)
    assert "ResNet-50" not in proposed_names(found, USERS)


def test_every_mention_of_a_proposed_concept_is_marked():
    found = titled(
        "p",
        "SelKD: Selective Knowledge Distillation",
        "We term it selective KD (SelKD). SelKD distils a subset.",
        [("SelKD", "METHOD"), ("SelKD", "METHOD"), ("SelKD", "METHOD")],
    )
    assert proposed_flags(found, USERS) == [True, True, True]


def test_signs_of_a_title_name():
    found = titled(
        "p",
        "LADS: Learning Skills",
        "We propose LADS for skills. We use ResNet-50.",
        [("LADS", "METHOD"), ("LADS", "METHOD"), ("ResNet-50", "METHOD")],
    )
    results = [found, *USERS]
    keys, x = contribution_features(results, resolve_concepts(results))
    assert x.shape == (len(keys), len(FEATURES))
    row = {concept: dict(zip(FEATURES, x[i], strict=True)) for i, (p, concept) in
           enumerate(keys) if p == 0}  # fmt: skip
    lads, resnet = row["Method:lads"], row["Method:resnet-50"]
    assert lads["title_head"] == lads["put_forward"] == lads["one_paper"] == 1
    assert resnet["title_head"] == resnet["put_forward"] == resnet["one_paper"] == 0
    assert resnet["after_use"] == 1
    assert resnet["log_papers"] == pytest.approx(np.log1p(7))


@pytest.mark.parametrize(
    "abstract",
    [
        # the subject far before its verb
        "We study the shift between the data a policy was trained on and the data it "
        "meets, and propose a novel objective, GALOP, that bounds the worst case.",
        "We implement a practical algorithm, GALOP, and evaluate it on three tasks.",
    ],
)
def test_a_name_put_forward_is_read_as_put_forward(abstract):
    found = titled("p", "Robust policies", abstract, [("GALOP", "METHOD")])
    results = [found]
    _, x = contribution_features(results, resolve_concepts(results))
    assert x[0, FEATURES.index("put_forward")] == 1


def test_a_name_after_namely_is_named():
    found = titled(
        "p",
        "Features for free",
        "We extract features from diffusion networks, namely DIFT, to match images.",
        [("DIFT", "METHOD")],
    )
    results = [found]
    _, x = contribution_features(results, resolve_concepts(results))
    assert x[0, FEATURES.index("named_as")] == 1


def test_a_name_many_papers_name_elsewhere_is_not_a_small_corpus_contribution():
    """Alone in its corpus, "encoder-decoder" is named by one paper, as a coined name
    is; the background corpus says that other papers name it."""
    found = titled(
        "p",
        "Routing queries to language models",
        "We introduce an encoder-decoder approach to learn embeddings of models.",
        [("encoder-decoder", "METHOD")],
    )
    results = [found]
    resolution = resolve_concepts(results)
    model = load_model()
    column = FEATURES.index("log_papers_elsewhere")
    _, alone = contribution_features(results, resolution, background=Background({}))
    common = Background({"Method:encoder-decoder": 40})
    _, known = contribution_features(results, resolution, background=common)
    assert alone[0, column] == 0 and known[0, column] == pytest.approx(np.log1p(40))
    assert model.probabilities(known)[0] < model.probabilities(alone)[0] / 2


def test_a_paper_of_the_background_built_again_does_not_count_itself():
    found = titled("p", "LADS: Skills", "We propose LADS.", [("LADS", "METHOD")])
    results = [found]
    resolution = resolve_concepts(results)
    column = FEATURES.index("log_papers_elsewhere")
    counted_once = {"Method:lads": 1}
    for papers, expected in ((frozenset(), 1), (frozenset({text_key(found.paper.document)}), 0)):
        background = Background(counted_once, papers)
        _, x = contribution_features(results, resolution, background=background)
        assert x[0, column] == pytest.approx(np.log1p(expected))


def test_the_shipped_background_is_read_by_default_and_counts_common_names():
    background = load_background()
    assert BACKGROUND_PATH.stat().st_size < 600_000
    assert len(background.papers) == 2938  # every NeurIPS 2023 paper outside select and test
    assert background.papers_naming["Method:transformer"] >= 60  # 148 when written
    assert background.papers_naming["Dataset:imagenet"] >= 25  # 66
    found = titled("p", "A study", "We train a Transformer.", [("Transformer", "METHOD")])
    results = [found]
    _, x = contribution_features(results, resolve_concepts(results))
    assert x[0, FEATURES.index("log_papers_elsewhere")] > np.log1p(19)


def test_a_corpus_without_concepts_proposes_nothing():
    assert contribution_flags([], resolve_concepts([])).tolist() == []


def test_the_shipped_model_is_small_and_matches_the_features():
    assert MODEL_PATH.stat().st_size < 200_000
    stored = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    assert tuple(stored["features"]) == FEATURES
    model = load_model()
    used = {f for tree in model.trees for f in tree.split_features()}
    assert len(used) > len(FEATURES) // 2  # the model weighs most of the signs
    assert 0 < model.threshold < 1


def test_the_bundled_example_keeps_its_contributions_and_datasets(example_graph):
    proposed = {
        example_graph.nodes[c]["name"]
        for _, c, kind in example_graph.edges(data="type")
        if kind == "PROPOSES"
    }
    assert {"LADS", "Light-DDG", "SelKD", "SIIHPC", "EmbedLLM"} <= proposed
    datasets = {d["name"] for _, d in example_graph.nodes(data=True) if d["label"] == "Dataset"}
    assert {"CIFAR-10", "CIFAR-100", "ImageNet-100"} <= datasets


@pytest.mark.parametrize(
    "short, name",
    [("KD", "knowledge distillation"), ("KNN", "k-nearest neighbor"),
     ("IMVC", "incomplete multi-view clustering")],
)  # fmt: skip
def test_the_bundled_example_finds_a_concept_by_its_acronym(example_graph, short, name):
    found = [
        d["name"].casefold()
        for _, d in example_graph.nodes(data=True)
        if short in d.get("aliases", [])
    ]
    assert name in found


@pytest.mark.parametrize("text", ["not json", '{"features": ["title"]}'])
def test_a_damaged_model_file_is_one_clear_error(tmp_path, text):
    from paperkg.errors import ExtractionError
    from paperkg.extract.corpus import concept_model, contributions

    bad = tmp_path / "model.json"
    bad.write_text(text)
    with pytest.raises(ExtractionError, match="bench/train_contributions.py"):
        contributions.load_model(bad)
    with pytest.raises(ExtractionError, match="bench/concept_training.py"):
        concept_model.load_model(bad)


LEAF = {"feature": [0], "split": [0.0], "left": [-1], "right": [-1], "value": [1.0]}


@pytest.mark.parametrize(
    "change, says",
    [
        ({"trees": None, "weights": [0.0] * len(FEATURES)}, "older model"),
        ({"features": ["title"]}, "trained on features"),
        ({"trees": [{**LEAF, "left": [0], "right": [0]}]}, "do not form a tree"),  # a loop
        ({"trees": [{**LEAF, "left": [5], "right": [6]}]}, "do not form a tree"),
        ({"trees": [{**LEAF, "feature": [0, 0]}]}, "do not form a tree"),
        ({"trees": [{**LEAF, "feature": [1.5]}]}, "whole numbers"),
        ({"trees": [{**LEAF, "value": []}]}, "do not form a tree"),
        ({"trees": [{**LEAF, "left": [[-1]]}]}, "flat lists"),
        ({"trees": [{**LEAF, "split": [float("nan")]}]}, "finite"),
        ({"trees": []}, "needs trees"),
        # a leaf one level up is read at the next level too: its sign must exist
        (
            {
                "trees": [
                    {
                        "feature": [0, 99, 0, 0, 0],
                        "split": [0.5] * 5,
                        "left": [1, -1, 3, -1, -1],
                        "right": [2, -1, 4, -1, -1],
                        "value": [0.0] * 5,
                    }
                ]
            },
            "do not form a tree",
        ),
    ],
)
def test_a_model_file_of_another_kind_names_the_file_and_what_is_wrong(tmp_path, change, says):
    from paperkg.errors import ExtractionError
    from paperkg.extract.corpus import contributions

    data = {"features": list(FEATURES), "bias": 0.0, "threshold": 0.5, "trees": [LEAF]}
    data.update(change)
    data = {k: v for k, v in data.items() if v is not None}
    bad = tmp_path / "contributions.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ExtractionError, match=re.escape(str(bad)) + ".*" + says):
        contributions.load_model(bad)
