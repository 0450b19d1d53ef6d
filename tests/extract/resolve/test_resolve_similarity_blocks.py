"""Near-duplicate search compares only keys that could match, and misses none that do."""

from __future__ import annotations

import random

from paperkg.extract.resolve.similarity import _match, near_duplicate_pairs

WORDS = "graph neural network convolution convolutional learning federated recieved resnet-50 resnet-56 v2".split()


def every_pair(nodes, counts):
    """The reference: every two keys of one label compared, as before blocking."""
    pairs = []
    nodes = sorted(nodes, key=lambda n: (len(n[1]), n[1]))
    for i, a in enumerate(nodes):
        for b in nodes[i + 1 :]:
            if a[0] != b[0] or " " not in a[1] or " " not in b[1]:
                continue
            why = _match(a[1], b[1])
            if why is not None:
                target, joining = sorted((a, b), key=lambda n: (-counts.get(n, 0), n[1]))
                pairs.append((joining, target, why))
    return sorted(pairs, key=lambda p: (p[0][1], p[1][1]))


def variants(rng):
    """Keys with typos, word forms and shared words, the cases blocking must not split."""
    word = rng.choice(WORDS)
    edits = [
        word,
        word + rng.choice(["al", "ly", "ary"]),
        word[:2] + word[3:] if len(word) > 4 else word,  # a deleted letter
        word[:3] + word[4] + word[3] + word[5:] if len(word) > 6 else word,  # swapped letters
    ]
    return rng.choice(edits)


def test_blocking_finds_exactly_the_pairs_of_comparing_every_two_keys():
    rng = random.Random(7)
    keys = {" ".join(variants(rng) for _ in range(rng.randint(1, 3))) for _ in range(600)}
    nodes = [(rng.choice(["Method", "Task"]), key) for key in sorted(keys)]
    counts = {node: rng.randint(1, 9) for node in nodes}

    found = near_duplicate_pairs(nodes, counts)

    assert len(found) > 12  # the sample has typos and word forms to find
    assert found == every_pair(nodes, counts)
