"""The mentions of a corpus as one table: a row per mention, in corpus order."""

from paperkg.extract.mention_table import mention_table
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
