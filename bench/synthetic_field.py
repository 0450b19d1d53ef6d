"""Synthetic paperkg graphs shaped like a real field, for benchmarks and tests at any scale.

A real co-occurrence graph is not random: papers belong to topics (diffusion
models, reinforcement learning, graph learning…), each topic has its own methods,
datasets, tasks and metrics, concept use is heavily skewed (a few concepts in
hundreds of papers, most in one or two), and a few concepts are used across
every topic ("accuracy", "Transformer"). :func:`synthetic_field` draws such a
graph with the shape of :mod:`paperkg.graph.schema`, seeded, so a map, a
benchmark or a browser test can run on 2,000 or 50,000 papers without
downloading or extracting anything. The six-paper graph of the package's own
examples is :func:`paperkg.graph.synthetic.toy_field`.

Examples
--------
>>> g = synthetic_field(200, seed=1)
>>> sum(1 for _, d in g.nodes(data=True) if d["label"] == "Paper")
200
>>> g2 = synthetic_field(200, seed=1)
>>> sorted(g.edges(data="type")) == sorted(g2.edges(data="type"))
True
"""

from __future__ import annotations

import random

import networkx as nx

from paperkg.graph.schema import EDGE_TYPE_FOR_LABEL, PROPOSES, concept_node_id, paper_node_id
from paperkg.graph.synthetic import with_counts

__all__ = ["synthetic_field"]

_HEADS = {
    "Method": ["network", "model", "transformer", "attention", "sampler", "optimizer",
               "autoencoder", "policy", "estimator", "encoder", "flow", "kernel"],
    "Dataset": ["Bench", "Net", "-10", "QA", "Set", "Suite", "-1K", "Corpus"],
    "Task": ["classification", "generation", "detection", "segmentation", "retrieval",
             "prediction", "alignment", "planning", "translation", "estimation"],
    "Metric": ["accuracy", "error", "score", "regret", "distance", "recall", "F1", "loss"],
}  # fmt: skip
_WORDS = (
    "graph neural contrastive diffusion latent sparse robust causal federated spectral "
    "variational adversarial hierarchical equivariant bayesian stochastic implicit "
    "multimodal recurrent convolutional generative temporal relational quantum kernel "
    "offline online meta continual few-shot zero-shot self-supervised semi-supervised "
    "molecular protein visual textual speech tabular spatial symbolic"
).split()
_LABEL_SHARE = (("Method", 0.5), ("Task", 0.28), ("Metric", 0.14), ("Dataset", 0.08))
_SHARED = [("Metric", "accuracy"), ("Method", "Transformer"), ("Method", "language model"),
           ("Method", "gradient descent"), ("Metric", "sample complexity")]  # fmt: skip


def synthetic_field(
    n_papers: int,
    *,
    n_topics: int | None = None,
    concepts_per_topic: int = 60,
    seed: int = 0,
    years: tuple[int, int] = (2019, 2024),
) -> nx.DiGraph:
    """A graph of ``n_papers`` papers in ``n_topics`` topics (default: one per 100 papers, 8 to 200).

    Each paper takes one main topic and, one time in three, a second one; it
    uses 4 to 12 concepts drawn from its topics with Zipf-like weights, now and
    then one of a few field-wide concepts, and proposes one new concept of its
    topic one time in two. Years are spread over ``years``, each topic rising
    or falling, so trends and year overlays have something to show.
    """
    rng = random.Random(seed)
    if n_topics is None:
        n_topics = max(8, min(200, n_papers // 100))
    g = nx.DiGraph()
    topics: list[list[str]] = []
    weights: list[list[float]] = []
    seen_names: set[str] = set()
    for t in range(n_topics):
        ids, ws = [], []
        for rank in range(concepts_per_topic):
            label = _pick_label(rng)
            name = _name(rng, label, t, rank, seen_names)
            node = concept_node_id(label, name.lower())
            g.add_node(node, label=label, name=name, aliases=[name, name + "s"], key=name.lower())
            ids.append(node)
            ws.append(1.0 / (rank + 1) ** 1.1)
        topics.append(ids)
        weights.append(ws)
    shared = []
    for label, name in _SHARED:
        node = concept_node_id(label, name.lower())
        g.add_node(node, label=label, name=name, aliases=[name], key=name.lower())
        shared.append(node)
    slope = [rng.uniform(-1, 1) for _ in range(n_topics)]
    topic_weights = [1.0 / (t + 1) ** 0.6 for t in range(n_topics)]
    span = years[1] - years[0]
    for i in range(n_papers):
        main = rng.choices(range(n_topics), weights=topic_weights)[0]
        chosen_topics = [main]
        if rng.random() < 1 / 3:
            chosen_topics.append(rng.randrange(n_topics))
        # a rising topic has more late papers: skew the year by the topic's slope
        u = rng.random()
        year = years[0] + round(span * (u ** (1.6 if slope[main] > 0 else 0.6)))
        pid = paper_node_id(f"syn{i}")
        g.add_node(
            pid,
            label="Paper",
            name=f"Paper {i}",
            title=f"A study of topic {main}, paper {i}",
            year=year,
            venue="SYN",
            abstract=f"We study topic {main}.",
        )
        used: set[str] = set()
        for _ in range(rng.randint(4, 12)):
            t = rng.choice(chosen_topics)
            used.add(rng.choices(topics[t], weights=weights[t])[0])
        if rng.random() < 0.4:
            used.add(rng.choice(shared))
        proposed = None
        if rng.random() < 0.5:
            proposed = rng.choice(topics[main][concepts_per_topic // 2 :])
            used.add(proposed)
        for node in sorted(used):
            label = g.nodes[node]["label"]
            kind = PROPOSES if node == proposed else EDGE_TYPE_FOR_LABEL[label]
            sentence = f"We {'propose' if kind == PROPOSES else 'use'} {g.nodes[node]['name']}."
            g.add_edge(pid, node, type=kind, evidence=sentence, count=1, weight=1)
    with_counts(g)
    return g


def _pick_label(rng: random.Random) -> str:
    r = rng.random()
    for label, share in _LABEL_SHARE:
        if r < share:
            return label
        r -= share
    return "Method"


def _name(rng: random.Random, label: str, topic: int, rank: int, seen: set[str]) -> str:
    while True:
        if label == "Dataset":
            name = f"{rng.choice(_WORDS).capitalize()}{rng.choice(_HEADS[label])}"
        else:
            words = rng.sample(_WORDS, rng.choice((1, 1, 2)))
            name = " ".join([*words, rng.choice(_HEADS[label])])
        if name not in seen:
            seen.add(name)
            return name
        if rng.random() < 0.2:  # many draws collide: number the name to end the loop
            name = f"{name} {topic}-{rank}"
            seen.add(name)
            return name
