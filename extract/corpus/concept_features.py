"""What a concept looks like across the corpus, as hashed features for the concept model.

A concept is decided (kept or generic; Method, Dataset, Task or Metric) from all of
its mentions at once, so its features sum up the corpus (:func:`concept_features`):

``w=``, ``h=``, ``f=``
    the words of its canonical key, its head (last) word and its first word;
``c=``
    character trigrams of the key ("diffusion" and "diffusions" share most);
``s=``
    the shape of how it is written: capitals inside a word, digits, hyphens, an
    acronym, the number of words; and the share of its mentions written as names
    (:func:`~paperkg.extract.names.mention_is_name`);
``l=``, ``r=``
    the word before and the word after each mention in its sentence ("on *X*",
    "*X* dataset"), as shares of the mentions;
``v=``
    the labels its mentions carry (the corpus vote), as shares, and its label;
``n=``
    how many papers and mentions, how many found only as corpus terms, proposed,
    in a title, defined with an acronym.

Every feature is a name and a value. :func:`hashed` folds the names into
``2 ** bits`` columns with CRC-32 (the same in every process and Python), so the
model's weights are one array of fixed length per output, whatever words a corpus
holds.

Examples
--------
>>> features = name_features("Segment Anything Model", "segment anything model")
>>> features["h=model"], features["s=words:3"]
(1.0, 1.0)
>>> name_features("CIFAR-10", "cifar-10")["s=digit"]
1.0
"""

from __future__ import annotations

import math
import re
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

from ...records import ENTITY_LABELS, PaperMentions, Resolution
from ..names import mention_is_name

__all__ = ["FeatureRows", "concept_features", "hashed", "name_features"]

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'-]*|\d+")
_LABEL_OF = dict(ENTITY_LABELS)


def name_features(name: str, key: str) -> dict[str, float]:
    """Features of a concept's words: its key's words, head, first word, trigrams, and
    the shape of its display ``name``."""
    words = key.split()
    out: dict[str, float] = {}
    for word in words:
        out[f"w={word}"] = 1.0
    if words:
        out[f"h={words[-1]}"] = 1.0
        out[f"f={words[0]}"] = 1.0
        if len(words) >= 2:
            out[f"h2={words[-2]} {words[-1]}"] = 1.0
    grams = [f"#{key}#"[i : i + 3] for i in range(len(key))]
    if grams:
        weight = 1.0 / math.sqrt(len(grams))
        for gram in grams:
            out[f"c={gram}"] = out.get(f"c={gram}", 0.0) + weight
    out[f"s=words:{min(len(words), 5)}"] = 1.0
    tokens = name.split()
    if any(any(c.isupper() for c in t[1:]) for t in tokens):
        out["s=inner capital"] = 1.0
    if any(c.isdigit() for c in name):
        out["s=digit"] = 1.0
    if "-" in name:
        out["s=hyphen"] = 1.0
    if len(tokens) == 1 and sum(c.isupper() for c in name) >= 2:
        out["s=acronym"] = 1.0
    if tokens and all(t[:1].isupper() for t in tokens):
        out["s=capitalised"] = 1.0
    if name.islower():
        out["s=lower"] = 1.0
    return out


def _around(sentence: str, text: str) -> tuple[str, str]:
    """The word before and the word after ``text`` in ``sentence`` (lower case)."""
    at = sentence.find(text)
    if at < 0:
        return "", ""
    before = _WORD.findall(sentence[:at])
    after = _WORD.findall(sentence[at + len(text) :])
    return (before[-1].lower() if before else "<s>"), (after[0].lower() if after else "</s>")


def concept_features(
    results: list[PaperMentions], resolution: Resolution
) -> tuple[list[str], FeatureRows]:
    """The concept ids of ``resolution`` and, for each, its features (name -> value).

    One pass over the corpus's mentions gathers each concept's evidence; the
    features are then made once per concept.
    """
    ids = list(resolution.concepts)
    row = {cid: i for i, cid in enumerate(ids)}
    n = len(ids)
    mentions = np.zeros(n)
    named = np.zeros(n)
    corpus_only = np.zeros(n)
    proposed = np.zeros(n)
    in_title = np.zeros(n)
    acronym = np.zeros(n)
    papers = np.zeros(n)
    labels = [Counter() for _ in range(n)]
    context = [Counter() for _ in range(n)]
    for result, concept_ids in zip(results, resolution.concept_of, strict=True):
        title_end = result.paper.title_end
        seen = set()
        for mention, cid in zip(result.mentions, concept_ids, strict=True):
            i = row.get(cid) if cid is not None else None
            if i is None:
                continue
            if i not in seen:
                seen.add(i)
                papers[i] += 1
            mentions[i] += 1
            named[i] += mention_is_name(mention)
            corpus_only[i] += mention.corpus_match
            proposed[i] += mention.proposed
            in_title[i] += mention.start < title_end
            acronym[i] += bool(mention.long_form or mention.text in result.acronyms)
            labels[i][mention.label] += 1
            before, after = _around(mention.sentence, mention.text)
            context[i][f"l={before}"] += 1
            context[i][f"r={after}"] += 1
    rarity = _word_rarity(resolution.concepts[cid].key for cid in ids)
    evidence = dict(
        mentions=mentions, named=named, corpus_only=corpus_only, proposed=proposed,
        in_title=in_title, acronym=acronym, papers=papers, labels=labels, context=context,
    )  # fmt: skip
    return ids, FeatureRows(resolution, ids, rarity, evidence)


class FeatureRows(Sequence):
    """Each concept's features (name -> value), made when asked for: a corpus of
    100,000 papers has some 400,000 concepts, whose rows held at once take gigabytes;
    the model scores them a block at a time (``rows[start:stop]`` is a list)."""

    def __init__(self, resolution: Resolution, ids: list[str], rarity, evidence: dict) -> None:
        self._concepts = resolution.concepts
        self._ids = ids
        self._rarity = rarity
        self._ev = evidence

    def __len__(self) -> int:
        return len(self._ids)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._row(i) for i in range(*index.indices(len(self)))]
        return self._row(range(len(self))[index])

    def named_share(self, i: int) -> float:
        """The share of concept ``i``'s mentions written as a name."""
        return self._ev["named"][i] / max(self._ev["mentions"][i], 1.0)

    def _row(self, i: int) -> dict[str, float]:
        ev = self._ev
        concept = self._concepts[self._ids[i]]
        features = name_features(concept.name, concept.key)
        features.update(_rarity_features(concept.key, self._rarity))
        total = max(ev["mentions"][i], 1.0)
        for name, count in ev["context"][i].items():
            features[name] = count / total
        for label, count in ev["labels"][i].items():
            features[f"v={_LABEL_OF.get(label, label)}"] = count / total
        features[f"v=is {concept.label}"] = 1.0
        features["s=named share"] = ev["named"][i] / total
        features["n=log papers"] = math.log1p(ev["papers"][i])
        features["n=log mentions"] = math.log1p(ev["mentions"][i])
        features[f"n=papers:{min(int(ev['papers'][i]), 5)}"] = 1.0
        features["n=corpus term share"] = ev["corpus_only"][i] / total
        features["n=proposed share"] = ev["proposed"][i] / total
        features["n=title share"] = ev["in_title"][i] / total
        features["n=acronym share"] = ev["acronym"][i] / total
        features["n=aliases"] = math.log1p(len(concept.aliases))
        return features


def _word_rarity(keys: Iterable[str]) -> tuple[Counter, Counter, int]:
    """How many concepts hold each word, and how many end in each word."""
    holding: Counter = Counter()
    heads: Counter = Counter()
    n = 0
    for key in keys:
        words = key.split()
        holding.update(set(words))
        if words:
            heads[words[-1]] += 1
        n += 1
    return holding, heads, n


def _rarity_features(key: str, rarity: tuple[Counter, Counter, int]) -> dict[str, float]:
    """How common a concept's words are among the corpus's concepts: a phrase of
    common words ("training data") names less than one of rare ones ("CIFAR-10")."""
    holding, heads, n = rarity
    words = key.split()
    if not words:
        return {}
    idf = [math.log((n + 1) / (holding[w] + 1)) for w in words]
    return {
        "n=least rare word": min(idf),
        "n=rarest word": max(idf),
        "n=mean rarity": sum(idf) / len(idf),
        "n=log head family": math.log1p(heads[words[-1]]),
    }


def hashed(
    rows: Iterable[dict[str, float]], bits: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Feature dicts as a sparse matrix in CSR arrays ``(indptr, columns, values)``, each
    name hashed by CRC-32 into one of ``2 ** bits`` columns (a bias column is added)."""
    mask = (1 << bits) - 1
    indptr = [0]
    columns: list[int] = []
    values: list[float] = []
    memo: dict[str, int] = {}
    for features in rows:
        for name, value in (("bias", 1.0), *features.items()):
            column = memo.get(name)
            if column is None:
                column = memo[name] = zlib.crc32(name.encode()) & mask
            columns.append(column)
            values.append(value)
        indptr.append(len(columns))
    return (
        np.asarray(indptr, dtype=np.int64),
        np.asarray(columns, dtype=np.int32),
        np.asarray(values, dtype=np.float64),
    )
