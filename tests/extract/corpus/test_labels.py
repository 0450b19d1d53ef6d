"""One concept, one label: a name's words, then its corpus, decide its label."""

from collections import Counter

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperkg.extract.corpus.labels import (
    choose_labels,
    label_from_name,
    relabel_table,
    unify_concept_labels,
)
from paperkg.extract.corpus.mention_table import (
    MentionRecords,
    mention_table,
    mention_table_and_acronyms,
)
from paperkg.extract.resolve import canonical_key
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


def vote_labels(results):
    """The build's vote: the labels chosen over the corpus's table written into it,
    and each paper's records read back from the table, with how many changed label."""
    table, acronyms = mention_table_and_acronyms(results)
    voted, changed = relabel_table(table, choose_labels(table))
    return MentionRecords([r.paper for r in results], acronyms, voted), changed


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


def test_unification_joins_two_spellings_of_a_key_the_vote_gave_two_labels():
    from paperkg.records import Concept, Resolution

    method = Concept(
        "Method:imagenet-1k", "Method", "imagenet-1k", "ImageNet-1K", {"ImageNet-1K": 2}
    )
    dataset = Concept(
        "Dataset:imagenet1k", "Dataset", "imagenet1k", "ImageNet1k", {"ImageNet1k": 5}
    )
    short = Concept("Method:d-pm", "Method", "d-pm", "d-PM", {"d-PM": 1})
    other = Concept("Dataset:dpm", "Dataset", "dpm", "DPM", {"DPM": 1})  # short: not a spelling
    concepts = {c.id: c for c in (method, dataset, short, other)}
    papers = [["Method:imagenet-1k"], ["Dataset:imagenet1k", "Method:d-pm", "Dataset:dpm"]]

    after = unify_concept_labels(Resolution(concepts=concepts, concept_of=papers))

    assert list(after.concepts) == ["Dataset:imagenet1k", "Method:d-pm", "Dataset:dpm"]
    assert after.concept_of[0] == ["Dataset:imagenet1k"]
    assert after.concepts["Dataset:imagenet1k"].aliases == {"ImageNet1k": 5, "ImageNet-1K": 2}


def voted_one_by_one(results):
    """The vote as a loop over mentions with a dict of votes per name: what the table's
    group-bys must give."""
    votes, first_name = {}, {}
    for result in results:
        for mention in result.mentions:
            name = mention.long_form or result.acronyms.get(mention.text) or mention.text
            key = canonical_key(name, "")
            if key:
                first_name.setdefault(key, name)
                counts = votes.setdefault(key, {})
                weight = 0.5 if mention.corpus_match else 1.0
                counts[mention.label] = counts.get(mention.label, 0) + weight
    chosen = {}
    for key, counts in votes.items():
        ranked = sorted(counts.values(), reverse=True)
        if label_from_name(first_name[key]) is not None:
            chosen[key] = label_from_name(first_name[key])
        elif len(ranked) == 1 or ranked[0] > ranked[1]:
            chosen[key] = max(counts, key=counts.get)
    out = []
    for result in results:
        labels = []
        for mention in result.mentions:
            name = mention.long_form or result.acronyms.get(mention.text) or mention.text
            labels.append(chosen.get(canonical_key(name, ""), mention.label))
        out.append(labels)
    return out


NAMES = ["GPT-4", "gpt-4", "Atari", "RL", "continual learning", "ToolBench", "our method", "BLEU"]
mentions = st.builds(
    Mention,
    text=st.sampled_from(NAMES),
    label=st.sampled_from(["METHOD", "DATASET", "TASK", "METRIC"]),
    start=st.just(0),
    end=st.just(1),
    sentence=st.just(""),
    long_form=st.sampled_from([None, None, "reinforcement learning", "Atari"]),
    corpus_match=st.booleans(),
)
corpora = st.lists(
    st.builds(
        PaperMentions,
        paper=st.builds(
            Paper, id=st.just("p"), abstract=st.just(""), text=st.just(""), source=st.just("")
        ),
        mentions=st.lists(mentions, max_size=6),
        acronyms=st.sampled_from([{}, {"RL": "reinforcement learning"}, {"RL": "robot learning"}]),
    ),
    max_size=8,
)


@settings(deadline=None)  # a loaded machine, not paperkg, decides how long an example takes
@given(corpora)
def test_the_vote_over_the_table_is_the_vote_counted_mention_by_mention(results):
    voted, changed = vote_labels(results)

    expected = voted_one_by_one(results)
    assert [[m.label for m in r.mentions] for r in voted] == expected
    before = [m.label for r in results for m in r.mentions]
    assert changed == sum(a != b for a, b in zip(before, sum(expected, []), strict=True))


def test_the_table_comes_back_with_the_voted_labels_and_the_rest_as_it_was():
    results = [
        paper("a", ("GPT-4", "METHOD")),
        paper("b", ("GPT-4", "DATASET")),
        paper("c", ("GPT-4", "METHOD"), ("SQuAD", "DATASET")),
    ]
    table = mention_table(results)
    before = table.copy()

    voted, changed = relabel_table(table, choose_labels(table))

    assert changed == 1 and voted["label"].tolist() == ["METHOD", "METHOD", "METHOD", "DATASET"]
    others = [c for c in table.columns if c != "label"]
    pd.testing.assert_frame_equal(voted[others], before[others])
    pd.testing.assert_frame_equal(table, before)  # the table given is not changed


def test_no_mentions_no_vote():
    voted, changed = vote_labels([])
    assert list(voted) == [] and changed == 0
    assert choose_labels(mention_table([paper("a")])) == {}


def unified_one_by_one(concepts):
    """Each key's label and its concepts in order, decided concept by concept with a
    Counter: what the group-bys of ``unify_concept_labels`` must give."""
    from collections import Counter

    by_key = {}
    for concept in concepts.values():
        by_key.setdefault(concept.key, []).append(concept)
    decided = {}
    for key, group in by_key.items():
        group.sort(key=lambda c: (-sum(c.aliases.values()), c.id))
        counts = Counter()
        for concept in group:
            counts[concept.label] += sum(concept.aliases.values())
        by_name = {"METHOD": "Method", "DATASET": "Dataset", "TASK": "Task", "METRIC": "Metric"}
        label = by_name.get(label_from_name(group[0].name)) or counts.most_common()[0][0]
        decided[f"{label}:{key}"] = [c.id for c in group]
    return decided


concept_sets = st.dictionaries(
    st.tuples(
        st.sampled_from(["Method", "Task", "Dataset"]), st.sampled_from(["zyx", "atari", "cl"])
    ),
    st.tuples(
        st.sampled_from(["ZYX", "Atari", "continual learning"]),
        st.dictionaries(st.sampled_from(["a", "b", "c"]), st.integers(1, 3), min_size=1),
    ),
)


@settings(deadline=None)
@given(concept_sets)
def test_concepts_join_under_the_label_decided_key_by_key(found):
    from paperkg.records import Concept, Resolution

    concepts = {
        f"{label}:{key}": Concept(f"{label}:{key}", label, key, name, aliases)
        for (label, key), (name, aliases) in found.items()
    }

    after = unify_concept_labels(Resolution(concepts=concepts))

    expected = unified_one_by_one(concepts)
    assert list(after.concepts) == list(expected)
    for cid, members in expected.items():
        merged = sum((Counter(concepts[m].aliases) for m in members), Counter())
        assert after.concepts[cid].aliases == dict(merged)
        assert after.concepts[cid].name == concepts[members[0]].name


def test_the_vote_on_a_dask_cluster_is_the_vote_in_memory(local_cluster):
    import random

    import dask.dataframe as dd

    from paperkg.extract.corpus.labels import choose_labels_on_dask
    from paperkg.extract.nlp.dask_cluster import dask_client

    rng = random.Random(0)
    # the first paper names "toolbench", whose words do not say; the last papers write
    # it "ToolBench", a Dataset by its name: the corpus's first name decides
    results = [paper("first", ("toolbench", "METHOD"))]
    for i in range(300):
        found = [(rng.choice(NAMES), rng.choice(["METHOD", "DATASET", "TASK"])) for _ in range(3)]
        results.append(paper(str(i), *found))
    results += [paper("late", ("ToolBench", "DATASET"))]
    results += [paper("last", ("toolbench", "METHOD"), ("toolbench", "METHOD"))]
    table = mention_table(results)

    with dask_client(local_cluster.scheduler_address):
        on_dask = choose_labels_on_dask(dd.from_pandas(table, npartitions=7))

    assert on_dask == choose_labels(table)
    assert on_dask["toolbench"] == "METHOD"
