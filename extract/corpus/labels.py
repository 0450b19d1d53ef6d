"""One concept, one label: every name gets the label its corpus and its words give it.

A NER labels each mention from its sentence, so one name ends up with several
labels across a corpus ("GPT-4" a Method in one abstract, a Dataset in "evaluated
on GPT-4"; "continual learning" a Method here, a Task there), and the graph would
hold it twice. The vote decides once per name, over the corpus's table of
mentions, before concepts are resolved (:func:`choose_labels`, written into the
table by :func:`relabel_table`):

1. a name whose words say what it is takes that label, whatever the sentences
   say (:func:`label_from_name`): a benchmark, corpus or suite is a Dataset; a
   learning setting ("few-shot learning", "offline RL") is a Task; a model,
   network or algorithm is a Method; a score, accuracy or speed is a Metric;
2. any other name takes the label most of its mentions have across the corpus
   (an acronym votes with its long form).

Examples
--------
>>> label_from_name("continual learning"), label_from_name("ToolBench benchmark")
('TASK', 'DATASET')
>>> label_from_name("inference speed"), label_from_name("GPT-4") is None
('METRIC', True)
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

import pandas as pd

from ...records import ENTITY_LABELS, Concept, Resolution, concept_node_id
from ..nlp.components.lexicon import DATASET_HEADS, METRIC_HEADS, TASK_WORDS
from ..resolve.keys import canonical_key, compact_key, singular
from ..resolve.memo import name_memo
from ..resolve.variants import american_spelling

if TYPE_CHECKING:
    import dask.dataframe as dd

__all__ = [
    "LEARNING_SETTINGS",
    "choose_labels",
    "choose_labels_on_dask",
    "label_from_name",
    "relabel_table",
    "unify_concept_labels",
]

logger = logging.getLogger(__name__)

#: what "<word> learning" (or "<word> RL") names when it is a setting a paper
#: addresses, not a technique it applies: the GUIDE's "problem settings are Tasks"
LEARNING_SETTINGS = frozenset(
    """
    continual lifelong incremental class-incremental task-incremental domain-incremental
    few-shot zero-shot one-shot many-shot low-shot online offline federated active
    semi-supervised self-supervised unsupervised supervised weakly-supervised
    weakly semi self un multi-task multitask multi-agent multiagent reinforcement
    transfer imitation meta open-world open-set open-vocabulary long-tailed in-context
    representation multimodal multi-modal multi-view multi-label multi-instance
    multiple-instance positive-unlabeled noisy-label partial-label decentralized
    distributed collaborative cooperative competitive adversarial inverse
    test-time source-free cross-domain out-of-distribution safe robust
    goal-conditioned model-based model-free off-policy on-policy batch
    """.split()
)
#: abbreviations of a learning setting that stand for "<setting> learning" ("offline RL")
_SETTING_ABBREVIATIONS = frozenset({"rl", "marl", "fl", "ssl", "il", "irl", "cl", "mtl"})
#: head words of a Method whatever its sentence says
METHOD_PRIOR_HEADS = frozenset(
    """
    model network net architecture algorithm optimizer optimiser transformer encoder
    decoder autoencoder classifier regressor estimator predictor generator discriminator
    sampler solver framework module layer mechanism technique approach method scheme
    procedure pipeline agent attention
    """.split()
)
#: head words of a Metric: the well-known metrics, and measured quantities
METRIC_PRIOR_HEADS = METRIC_HEADS | frozenset(
    "score speed latency throughput error-rate accuracy".split()
)
_DATASET_PRIOR_HEADS = frozenset(singular(h) for h in DATASET_HEADS)
_TASK_PRIOR_HEADS = frozenset(singular(h) for h in TASK_WORDS)


#: a model's size in parameters ends its name: "LLaMA-13B", "GPT-3.5-turbo-175B", "T5-770M"
_MODEL_SIZE = re.compile(r"(?:^|[-_ ])\d+(?:\.\d+)?[bmk]$", re.IGNORECASE)
#: benchmarks and environments are named so: "ToolBench", "Act-Bench-CNN", "Safety-Gym"
_BENCHMARK_PART = re.compile(r"bench|gym", re.IGNORECASE)
#: heads of a task whatever modifies them: "sequence modeling", "bias evaluation",
#: "restless multi-armed bandits"
_TASK_ACTIVITY_HEADS = frozenset("modeling modelling evaluation bandit".split())


def _setting(word: str) -> bool:
    """A learning setting, also as the last part of a compound ("meta-continual")."""
    return word in LEARNING_SETTINGS or word.rsplit("-", 1)[-1] in LEARNING_SETTINGS


@name_memo
def label_from_name(name: str) -> str | None:
    """The label a name's own words give it, or ``None`` when they do not say.

    Only the last words decide ("ImageNet pre-training" is not a Dataset), and
    a name written as one: a model size ("LLaMA-13B") makes a Method, a
    benchmark's or environment's name ("ToolBench", "Act-Bench-CNN") a Dataset.
    """
    words = canonical_key(name, "").split()
    if not words:
        return None
    tokens = name.split()
    if _MODEL_SIZE.search(tokens[-1]) and any(c.isalpha() for c in tokens[-1]):
        return "METHOD"
    if any(_BENCHMARK_PART.search(t) and t[:1].isupper() for t in tokens):
        return "DATASET"
    last = words[-1]
    before = words[-2] if len(words) >= 2 else ""
    coined = len(words) >= 2 and all(w[:1].isupper() for w in tokens)
    if coined and last in ("learning", *_SETTING_ABBREVIATIONS):
        return None  # "Progressive Active Learning" is somebody's method, not a setting
    if last in _SETTING_ABBREVIATIONS and before:
        return "TASK" if _setting(before) or before.endswith("-agent") else None
    if last == "learning" and any(_setting(w) for w in words[:-1]):
        return "TASK"  # "few-shot learning", "collaborative machine learning"
    if "-" in last and last.rsplit("-", 1)[1] in _SETTING_ABBREVIATIONS:  # "meta-RL"
        return "TASK"
    if len(words) == 1:
        return "METRIC" if last in METRIC_HEADS else None
    if last in _DATASET_PRIOR_HEADS:
        return "DATASET"
    if last in _TASK_PRIOR_HEADS or singular(last) in _TASK_ACTIVITY_HEADS:
        return "TASK"
    if last in METRIC_PRIOR_HEADS:
        return "METRIC"
    if last in METHOD_PRIOR_HEADS:
        return "METHOD"
    return None


def choose_labels(mentions: pd.DataFrame) -> dict[str, str]:
    """The label the corpus gives each name, from its table of mentions.

    Mentions vote by the canonical key of what they name (an acronym with its
    long form); a mention found only as a corpus term (``corpus_match``) votes
    half. A key takes the label the words of its first mention's name give
    it (:func:`label_from_name`), else the label with strictly the most votes; a
    key whose leading labels tie gets none, and its mentions keep theirs.

    Returns ``{key: label}`` for the keys that get one.
    """
    named = mentions[mentions["key"] != ""]
    return _decide(_tally(named), _first_names(named))


def choose_labels_on_dask(mentions: dd.DataFrame) -> dict[str, str]:
    """:func:`choose_labels` for a table of mentions spread over a Dask DataFrame's
    partitions (``dask.dataframe.from_pandas(table)``), computed where dask computes
    (on a cluster's workers while a ``distributed.Client`` is open).

    The partitions must hold the rows in corpus order, as ``from_pandas`` keeps
    them: a key's first name is that of its first mention. Only the sums of the
    votes (a row per key and label) and each partition's first names come back.
    """
    named = mentions[mentions["key"] != ""]
    votes = _tally(named).compute()
    names = named.map_partitions(_first_names).compute()  # partitions come back in order
    return _decide(votes, _first_names(names))


def _tally(mentions):
    """Each key's votes per label (a pandas or Dask DataFrame of mentions)."""
    # a mention votes 1, one found only as a corpus term 0.5
    weight = 1.0 - 0.5 * mentions["corpus_match"].astype("float64")
    votes = mentions.assign(weight=weight).groupby(["key", "label"], observed=True)["weight"]
    return votes.sum().reset_index()


def _first_names(mentions):
    """Each key and the name of its first row (a pandas DataFrame of mentions)."""
    return mentions.drop_duplicates("key")[["key", "name"]]


def _decide(votes: pd.DataFrame, names: pd.DataFrame) -> dict[str, str]:
    """What :func:`choose_labels` returns, from each key's ``votes`` per label and its
    first name (tables of a row per key, or key and label: few next to the mentions)."""
    most = votes.groupby("key", observed=True)["weight"].transform("max")
    leaders = votes[votes["weight"] == most]
    sole = leaders.drop_duplicates("key", keep=False)  # a tie leaves a key without a label
    chosen = dict(zip(sole["key"].tolist(), sole["label"].tolist(), strict=True))
    for key, name in zip(names["key"].tolist(), names["name"].tolist(), strict=True):
        label = label_from_name(name)
        if label is not None:
            chosen[key] = label
    return chosen


def relabel_table(mentions: pd.DataFrame, chosen: dict[str, str]) -> tuple[pd.DataFrame, int]:
    """The table of mentions with the labels ``chosen`` for their keys
    (:func:`choose_labels`) in its ``label`` column, and how many mentions changed
    label; a mention whose key got no label keeps its own."""
    before = mentions["label"].astype("str")
    voted = mentions["key"].map(chosen).astype("str")  # missing where the key got no label
    after = voted.where(voted.isin(list(ENTITY_LABELS)), before)
    changed = int((after != before).sum())
    logger.info("labels: %d mentions relabelled by their name or corpus vote", changed)
    return mentions.assign(label=after.astype("category")), changed


def unify_concept_labels(resolution: Resolution) -> Resolution:
    """One concept per canonical key, however spelled: concepts of one key (or of two
    keys equal but for hyphens and spaces) under several labels join.

    Resolution keeps labels apart, and a merge of name variants can carry a
    name to the label of its variant ("active learning methods", a Method,
    gives the concept *active learning*). Here every key gets one label: the
    one its display name says (:func:`label_from_name`), else the label most of
    its mentions have. ``concept_of`` is rewritten to the joined concepts.

    A concept alone under its key and label is kept as it is, and so is each
    paper's list of concept ids that names no joined concept: ``resolution``'s
    own objects, not copies (at 100,000 papers, 690,000 concepts, nearly all
    alone, were copied at the build's peak memory).
    """
    decided = _key_labels(_concept_table(resolution.concepts))
    renamed: dict[str, str] = {}  # the ids that change
    concepts: dict[str, Concept] = {}
    for _, key, label, why, members in decided.itertuples():
        group = [resolution.concepts[cid] for cid in members]
        main = group[0]
        cid = concept_node_id(label, key)
        if len(group) == 1 and main.label == label and main.id == cid:
            concepts[cid] = main
            continue
        joined = Concept(id=cid, label=label, key=key, name=main.name)
        for concept in group:
            for alias, n in concept.aliases.items():
                joined.aliases[alias] = joined.aliases.get(alias, 0) + n
            for alias, reason in concept.merge_reasons.items():
                joined.merge_reasons.setdefault(alias, reason)
            if concept.label != label:
                for alias in concept.aliases:
                    joined.merge_reasons.setdefault(
                        alias, f"label {concept.label} -> {label} ({why})"
                    )
            if concept.id != cid:
                renamed[concept.id] = cid
        concepts[cid] = joined
    concept_of = [
        [renamed.get(c, c) if c else None for c in ids] if any(c in renamed for c in ids) else ids
        for ids in resolution.concept_of
    ]
    logger.info("labels: %d concepts relabelled or joined under one label", len(renamed))
    return replace(resolution, concepts=concepts, concept_of=concept_of)


def _concept_table(concepts: dict[str, Concept]) -> pd.DataFrame:
    """A row per concept, in ``concepts``' order: its id, key, label, name and
    mentions (the counts of its aliases)."""
    rows = concepts.values()
    return pd.DataFrame(
        {
            "id": [c.id for c in rows],
            "key": [c.key for c in rows],
            "spelling": [_spelling(c.key) for c in rows],
            "label": [c.label for c in rows],
            "name": [c.name for c in rows],
            "mentions": [sum(c.aliases.values()) for c in rows],
        }
    )


def _spelling(key: str) -> str:
    """What keys spelled alike share: the key without hyphens and spaces, American
    spelling ("ImageNet-1K" and "ImageNet1k"), as the spelling merge of
    :mod:`~paperkg.extract.resolve.spelling_merges` compares them; a short key is
    its own ("d-PM" is not "DPM")."""
    compact = compact_key(american_spelling(key))
    return compact if len(compact) >= 5 else key


def _key_labels(concepts: pd.DataFrame) -> pd.DataFrame:
    """For each spelling of a key in ``concepts`` (:func:`_concept_table`), in order of
    its first concept: the key of its most mentioned concept, the label its concepts
    take, why, and their ids, the most mentioned (then the first by id) first: the
    one that names the key.

    Spellings, not keys: the spelling merge joins variants of one label only, and a
    variant whose label its mentions' vote changed ("ImageNet-1K" voted a Method,
    "ImageNet1k" a Dataset) would stay a concept of its own."""
    ranked = concepts.sort_values(["mentions", "id"], ascending=[False, True])
    main = ranked.drop_duplicates("spelling").set_index("spelling")
    # the label most of the spelling's mentions have; of labels with as many, the
    # one of the most mentioned concept
    totals = ranked.groupby(["spelling", "label"], sort=False)["mentions"].sum().reset_index()
    leader = totals.groupby("spelling", sort=False)["mentions"].idxmax()
    majority = totals.loc[leader].set_index("spelling")["label"]
    by_name = main["name"].map(label_from_name).map(_LABEL_NAMES)
    decided = pd.DataFrame(
        {
            "key": main["key"],
            "label": by_name.fillna(majority),
            "why": by_name.notna().map({True: "its name", False: "most of its mentions"}),
            "members": pd.Series(_members(ranked["spelling"], ranked["id"]), dtype=object),
        }
    )
    return decided.reindex(concepts["spelling"].drop_duplicates())


def _members(spellings: Iterable[str], ids: Iterable[str]) -> dict[str, list[str]]:
    """The ids of each spelling's concepts, in the order given (a groupby's ``agg(list)``
    calls Python once per group, here the slowest step of the label decision)."""
    members: dict[str, list[str]] = {}
    for spelling, cid in zip(spellings, ids, strict=True):
        members.setdefault(spelling, []).append(cid)
    return members


_LABEL_NAMES = dict(ENTITY_LABELS)
