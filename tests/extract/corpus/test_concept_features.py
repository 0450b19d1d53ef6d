"""A concept's features: its words, its shape, and what its mentions across the corpus say."""

import numpy as np

from paperkg.extract.corpus.concept_features import concept_features, hashed, name_features
from paperkg.records import Concept, Mention, Paper, PaperMentions, Resolution


def test_a_name_gives_its_words_head_and_shape():
    features = name_features("CIFAR-10", "cifar-10")
    assert features["w=cifar-10"] == features["h=cifar-10"] == 1.0
    assert features["s=digit"] == features["s=hyphen"] == 1.0
    assert "s=lower" not in features
    assert name_features("GNN", "graph neural network")["s=acronym"] == 1.0
    assert name_features("training data", "training data")["h=data"] == 1.0


def _paper(number, sentence, phrase, label):
    start = sentence.index(phrase)
    mention = Mention(phrase, label, start, start + len(phrase), sentence)
    paper = Paper(id=f"p{number}", abstract=sentence, text=sentence, source=f"x#{number}")
    return PaperMentions(paper, [mention])


def test_the_mentions_of_a_concept_are_summed_over_the_corpus():
    results = [
        _paper(0, "We evaluate on ImageNet and more.", "ImageNet", "DATASET"),
        _paper(1, "Results on ImageNet show gains.", "ImageNet", "DATASET"),
        _paper(2, "A model trained with ImageNet data.", "ImageNet", "METHOD"),
    ]
    concept = Concept("Dataset:imagenet", "Dataset", "imagenet", "ImageNet", {"ImageNet": 3})
    resolution = Resolution({concept.id: concept}, [[concept.id]] * 3)
    ids, rows = concept_features(results, resolution)
    features = rows[0]
    assert ids == ["Dataset:imagenet"]
    assert features["l=on"] == 2 / 3  # the word before, in two mentions of three
    assert features["r=data"] == 1 / 3
    assert features["v=Dataset"] == 2 / 3 and features["v=Method"] == 1 / 3
    assert features["n=log papers"] == np.log1p(3)


def test_rows_are_made_when_asked_and_a_block_is_the_rows_one_by_one():
    names = ["ImageNet", "CIFAR-10", "BERT"]
    results = [_paper(i, f"We use {n} here.", n, "DATASET") for i, n in enumerate(names)]
    concepts = [Concept(f"Dataset:{n.lower()}", "Dataset", n.lower(), n, {n: 1}) for n in names]
    resolution = Resolution({c.id: c for c in concepts}, [[c.id] for c in concepts])

    ids, rows = concept_features(results, resolution)

    assert len(rows) == 3
    assert rows[0:2] == [rows[0], rows[1]]
    assert rows[-1] == rows[2] and rows[2]["h=bert"] == 1.0
    assert [row["s=named share"] for row in rows] == [rows.named_share(i) for i in range(3)]


def test_hashing_is_the_same_every_time_and_adds_a_bias():
    rows = [{"w=bert": 1.0, "s=acronym": 1.0}, {}]
    indptr, columns, values = hashed(rows, bits=8)
    assert indptr.tolist() == [0, 3, 4]  # the bias, then the two features; the bias alone
    assert columns.max() < 256
    assert columns[0] == columns[3]  # "bias" lands in one column
    assert hashed(rows, bits=8)[1].tolist() == columns.tolist()
