"""The mentions of a corpus as one table: a row per mention, in corpus order."""

import pandas as pd

from paperkg.extract.corpus import mention_table as mention_table_module
from paperkg.extract.corpus.mention_table import MentionRecords, mention_table
from paperkg.records import Mention, Paper, PaperMentions


def paper(pid, mentions, acronyms=None):
    return PaperMentions(Paper(id=pid, abstract="", text="", source=pid), mentions, acronyms or {})


def test_a_row_per_mention_in_corpus_order_with_its_paper_and_place():
    results = [
        paper(
            "a", [Mention("BERT", "METHOD", 7, 11, "s"), Mention("SQuAD", "DATASET", 15, 20, "s")]
        ),
        paper("empty", []),
        paper("b", [Mention("ImageNet", "DATASET", 0, 8, "s", corpus_match=True)]),
    ]

    table = mention_table(results)

    assert table[["paper", "mention", "start", "end"]].values.tolist() == [
        [0, 0, 7, 11],
        [0, 1, 15, 20],
        [2, 0, 0, 8],
    ]
    assert table["text"].tolist() == ["BERT", "SQuAD", "ImageNet"]
    assert table["label"].tolist() == ["METHOD", "DATASET", "DATASET"]
    assert table["corpus_match"].tolist() == [False, False, True]


def test_an_acronym_names_its_long_form_and_a_generic_phrase_has_no_key():
    results = [
        paper(
            "a",
            [
                Mention("RL", "METHOD", 0, 2, "s"),
                Mention("GNN", "METHOD", 3, 6, "s", long_form="graph neural network"),
                Mention("our method", "METHOD", 7, 17, "s"),
            ],
            acronyms={"RL": "reinforcement learning"},
        )
    ]

    table = mention_table(results)

    assert table["name"].tolist() == [
        "reinforcement learning",
        "graph neural network",
        "our method",
    ]
    assert table["key"].tolist() == ["reinforcement learning", "graph neural network", ""]


def test_strings_are_stored_once_per_distinct_value():
    results = [paper(str(i), [Mention("GPT-4", "METHOD", 0, 5, "s")]) for i in range(1000)]

    table = mention_table(results)

    assert list(table["text"].cat.categories) == ["GPT-4"]
    assert set(table["text"].cat.codes) == {0}


def test_no_papers_make_an_empty_table_with_every_column():
    assert list(mention_table([]).columns) == list(mention_table([paper("a", [])]).columns)
    assert len(mention_table([])) == 0


def test_the_records_read_from_the_table_are_those_it_was_made_of():
    results = [
        paper(
            "a",
            [
                Mention("GNN", "METHOD", 0, 3, "GNN rocks.", long_form="graph neural network"),
                Mention("Cora", "DATASET", 9, 13, "On Cora.", proposed=True),
            ],
            acronyms={"GNN": "graph neural network"},
        ),
        paper("empty", []),
        paper("b", [Mention("ImageNet", "DATASET", 0, 8, "ImageNet.", corpus_match=True)]),
    ]

    records = MentionRecords(
        [r.paper for r in results], [r.acronyms for r in results], mention_table(results)
    )

    assert list(records) == results
    assert len(records) == 3 and records[-1] == results[2] and records[1:] == results[1:]


def test_the_records_read_a_column_the_table_was_given_after_them():
    results = [paper("a", [Mention("GPT-4", "DATASET", 0, 5, "s")])]
    table = mention_table(results).assign(label="METHOD")

    (record,) = MentionRecords([results[0].paper], [{}], table)

    assert record.mentions[0].label == "METHOD"


def test_records_are_made_a_block_of_papers_at_a_time_in_corpus_order(monkeypatch):
    monkeypatch.setattr(mention_table_module, "RECORD_BLOCK", 2)
    results = [
        paper(str(i), [Mention(f"M{i}", "METHOD", 0, 2, f"s{i % 3}")] * (i % 3)) for i in range(7)
    ]

    records = MentionRecords(
        [r.paper for r in results], [r.acronyms for r in results], mention_table(results)
    )

    assert list(records) == results
    assert [records[i] for i in range(7)] == results  # by index, a block made once
    assert records[2:5] == results[2:5] and records[::3] == results[::3]


def test_a_table_made_a_few_papers_at_a_time_is_the_table_made_at_once(monkeypatch):
    from pandas.testing import assert_frame_equal

    from paperkg.extract.corpus.mention_table import mention_table_and_acronyms

    results = [
        paper(
            "a", [Mention("BERT", "METHOD", 0, 4, "s1"), Mention("GLUE", "DATASET", 9, 13, "s1")]
        ),
        paper("b", [], {"RL": "reinforcement learning"}),
        paper("c", [Mention("RL", "METHOD", 0, 2, "s2", long_form="reinforcement learning")]),
        paper("d", [Mention("BERT", "METHOD", 5, 9, "s3")]),
    ]
    whole, acronyms = mention_table_and_acronyms(results)

    monkeypatch.setattr(mention_table_module, "TABLE_BLOCK", 1)
    in_blocks, acronyms_in_blocks = mention_table_and_acronyms(results)

    assert_frame_equal(in_blocks, whole)
    assert acronyms_in_blocks == acronyms == [{}, {"RL": "reinforcement learning"}, {}, {}]
    # each string column is what pandas makes of its values in one go, its categories
    # the Python strings themselves (no Arrow copy beside them)
    for column, values in [
        ("text", ["BERT", "GLUE", "RL", "BERT"]),
        ("sentence", ["s1", "s1", "s2", "s3"]),
        ("long_form", [None, None, "reinforcement learning", None]),
        ("key", ["bert", "glue", "reinforcement learning", "bert"]),
    ]:
        distinct = pd.Index(sorted({v for v in values if v is not None}), dtype=object)
        expected = pd.Categorical(values, categories=distinct)
        assert whole[column].equals(pd.Series(expected, name=column))
        assert whole[column].cat.categories.dtype == object
