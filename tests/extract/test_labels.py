"""One concept, one label: a name's words, then its corpus, decide its label."""

import pytest

from paperkg.extract.labels import label_from_name, vote_labels
from paperkg.records import Mention, Paper, PaperMentions


@pytest.mark.parametrize(
    "name, label",
    [
        ("continual learning", "TASK"),
        ("few-shot learning", "TASK"),
        ("offline RL", "TASK"),
        ("meta-RL", "TASK"),
        ("deep reinforcement learning", "TASK"),
        ("the ToolBench benchmark", "DATASET"),
        ("Penn Treebank", "DATASET"),
        ("inference speed", "METRIC"),
        ("BLEU score", "METRIC"),
        ("FID", "METRIC"),
        ("graph neural networks", "METHOD"),
        ("set cover problem", "TASK"),
        # a name written as a model's or a benchmark's
        ("LLaMA-13B", "METHOD"),
        ("GPT-3.5-turbo-175B", "METHOD"),
        ("Act-Bench-CNN", "DATASET"),
        ("ToolBench", "DATASET"),
        # settings inside compounds, activities
        ("meta-continual learning", "TASK"),
        ("collaborative machine learning", "TASK"),
        ("sequence modeling", "TASK"),
        ("restless multi-armed bandits", "TASK"),
        ("local attention", "METHOD"),
        # the words do not say: the corpus decides
        ("GPT-4", None),
        ("contrastive learning", None),
        ("image classification", None),
    ],
)
def test_a_name_says_its_label(name, label):
    assert label_from_name(name) == label


def paper(pid, *mentions, acronyms=None):
    text = " ".join(m[0] for m in mentions)
    return PaperMentions(
        Paper(id=pid, abstract=text, text=text, source=pid),
        [Mention(name, label, 0, len(name), text) for name, label in mentions],
        acronyms=acronyms or {},
    )


def labels(results):
    return [[(m.text, m.label) for m in r.mentions] for r in results]


def test_the_corpus_majority_wins_where_the_name_does_not_say():
    results = [
        paper("a", ("GPT-4", "METHOD")),
        paper("b", ("GPT-4", "METHOD")),
        paper("c", ("GPT-4", "DATASET")),
    ]
    voted, changed = vote_labels(results)
    assert changed == 1
    assert labels(voted) == [[("GPT-4", "METHOD")]] * 3


def test_the_name_beats_the_majority():
    results = [paper(p, ("continual learning", "METHOD")) for p in "abc"]
    voted, changed = vote_labels(results)
    assert changed == 3 and {m.label for r in voted for m in r.mentions} == {"TASK"}


def test_an_acronym_votes_with_its_long_form():
    results = [
        paper(
            "a",
            ("reinforcement learning", "TASK"),
            ("RL", "METHOD"),
            acronyms={"RL": "reinforcement learning"},
        ),
    ]
    voted, _ = vote_labels(results)
    assert labels(voted) == [[("reinforcement learning", "TASK"), ("RL", "TASK")]]


def test_a_tie_leaves_each_mention_as_the_ner_labelled_it():
    results = [paper("a", ("Atari", "DATASET")), paper("b", ("Atari", "TASK"))]
    voted, changed = vote_labels(results)
    assert changed == 0 and labels(voted) == labels(results)


def test_a_mention_found_only_as_a_corpus_term_votes_half():
    found_again = Mention("Atari", "DATASET", 0, 5, "", corpus_match=True)
    results = [
        paper("a", ("Atari", "TASK")),
        PaperMentions(Paper(id="b", abstract="", text="", source="t#b"), [found_again]),
        paper("c", ("Atari", "DATASET")),
    ]
    voted, changed = vote_labels(results)  # TASK 1, DATASET 1.5
    assert changed == 1 and labels(voted)[0] == [("Atari", "DATASET")]
    voted, changed = vote_labels(results[:2])  # TASK 1, DATASET 0.5
    assert changed == 1 and labels(voted)[1] == [("Atari", "TASK")]


def test_unification_joins_a_key_under_one_label_and_keeps_the_rest_as_they_are():
    from paperkg.extract.labels import unify_concept_labels
    from paperkg.records import Concept, Resolution

    alone = Concept("Method:bert", "Method", "bert", "BERT", {"BERT": 3})
    as_task = Concept("Task:zyx", "Task", "zyx", "ZYX", {"ZYX": 1})
    as_method = Concept("Method:zyx", "Method", "zyx", "ZYX", {"ZYX nets": 2})  # the majority
    papers = [["Method:bert"], ["Task:zyx", "Method:bert"], ["Method:zyx"]]
    before = Resolution(concepts={c.id: c for c in (alone, as_task, as_method)}, concept_of=papers)

    after = unify_concept_labels(before)

    assert list(after.concepts) == ["Method:bert", "Method:zyx"]
    assert after.concept_of == [["Method:bert"], ["Method:zyx", "Method:bert"], ["Method:zyx"]]
    joined = after.concepts["Method:zyx"]
    assert joined.aliases == {"ZYX nets": 2, "ZYX": 1}
    assert joined.merge_reasons["ZYX"].startswith("label Task -> Method")
    # what did not change is not copied: 690,000 concepts at 100,000 papers
    assert after.concepts["Method:bert"] is alone
    assert after.concept_of[0] is papers[0] and after.concept_of[2] is papers[2]
