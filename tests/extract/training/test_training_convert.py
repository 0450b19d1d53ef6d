"""Gold corpora -> spaCy DocBin: tokenised by spaCy, entities on whole tokens, gaps unknown."""

from collections import Counter
from pathlib import Path

import spacy
from spacy.tokens import DocBin

from paperkg.extract.evaluate import GoldDoc, GoldSpan, read_gold
from paperkg.extract.training.convert import gold_to_docs, metric_terms, write_docbin

GOLD = Path(__file__).resolve().parents[2] / "fixtures" / "gold"


def ents(doc):
    return [(e.text, e.label_) for e in doc.ents]


def test_scierc_fixture_becomes_entities_on_spacy_tokens():
    docs = gold_to_docs(read_gold(GOLD / "tiny_scierc.json", "scierc"))
    assert ents(docs[0]) == [
        ("convolutional neural network", "METHOD"),
        ("CNN", "METHOD"),
        ("image classification", "TASK"),
        ("accuracy", "METRIC"),
        ("CIFAR-10", "DATASET"),
    ]
    # spaCy's tokenizer, not the corpus's: "(CNN)" is three tokens, CIFAR-10 one
    assert [t.text for t in docs[0][6:9]] == ["(", "CNN", ")"]


def test_spans_inside_a_token_are_widened_and_nested_spans_keep_the_longest():
    gold = GoldDoc(
        "x",
        "A ResNet50 tagger for named entity recognition.",
        [
            GoldSpan(2, 8, "METHOD"),  # "ResNet" inside the token "ResNet50"
            GoldSpan(22, 46, "TASK"),  # named entity recognition
            GoldSpan(22, 34, "TASK"),  # nested: named entity
        ],
    )
    stats = Counter()
    (doc,) = gold_to_docs([gold], stats=stats)
    assert ents(doc) == [("ResNet50", "METHOD"), ("named entity recognition", "TASK")]
    assert stats == Counter(spans=2, widened=1, dropped_overlap=1)


def test_unannotated_labels_are_marked_unknown_not_outside():
    # SciER has no METRIC: its "accuracy" must not teach "not a metric"
    gold = GoldDoc("y", "BERT improves accuracy on SQuAD.", [GoldSpan(0, 4, "METHOD")])
    (doc,) = gold_to_docs([gold], missing=metric_terms)
    assert [t.ent_iob_ for t in doc] == ["B", "O", "", "O", "O", "O"]


def test_docbin_round_trip(tmp_path):
    docs = gold_to_docs(read_gold(GOLD / "tiny_tdmsci.conll", "tdmsci"))
    path = write_docbin(docs, tmp_path / "tdmsci.spacy")
    back = list(DocBin().from_disk(path).get_docs(spacy.blank("en").vocab))
    assert [ents(d) for d in back] == [ents(d) for d in docs]
    assert ents(back[0]) == [
        ("F1", "METRIC"),
        ("named entity recognition", "TASK"),
        ("CoNLL-2003", "DATASET"),
    ]
