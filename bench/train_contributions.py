"""Train the model that decides what each paper proposes (``extract/corpus/contributions.py``).

    python3 bench/train_contributions.py [--out extract/corpus/models/contributions.json] [--model NER_PIPELINE]

Builds the NeurIPS 2023 corpus up to its concepts (the extraction cache makes that
quick), computes the signs of every (paper, concept) of the annotated papers
(:func:`~paperkg.extract.corpus.contributions.contribution_features`), and labels
each with the annotations (``bench/judged/annotations``, GUIDE.md section 5): a
concept is proposed when it names, as ``bench/annotated.py`` judges a link, an
annotated specific concept marked ``proposed``. Boosted regression trees
(scikit-learn's ``GradientBoostingClassifier``, read at build time with numpy alone:
``ContributionModel``) are fitted on the ``train`` papers, read both as the whole
corpus and as corpora of 20 papers (a user's reading list: there nearly every name is
named by one paper). Their depth, their number and the threshold are chosen on
``select``, by the mean of the PROPOSES F1 in the whole corpus and in corpora of 20 (as
``bench/annotated.py`` counts it: recall over every annotated contribution, a node or
not); ``test`` is scored once, apart, both ways. A logistic regression over the same
signs is scored beside them, chosen the same way, to show what the trees buy.

The sign "papers naming it elsewhere" reads a background corpus: the NeurIPS 2023
papers outside ``select`` and ``test``, so that no scored paper counts itself (a
``train`` paper is in it, and counts the others, not itself). Its table is
written beside the model (``name_counts.json``), as compact JSON, and the run is
recorded in ``bench/RESULTS.md``.

The concepts are those of the concept model in place
(``extract/corpus/models/concept_model.json``): when both models are retrained (on
more annotations, or with ``--model`` on another NER's mentions), run
``bench/concept_training.py`` first.
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from annotated import judge_link  # noqa: E402
from annotation import SHARED, load_annotations  # noqa: E402
from corpora import add_model_option, built_from, extracted_corpus  # noqa: E402

from paperkg.extract.corpus.contribution_model import ContributionModel, Tree  # noqa: E402
from paperkg.extract.corpus.contributions import (  # noqa: E402
    FEATURES,
    MODEL_PATH,
    Background,
    contribution_features,
    decide,
    text_key,
)

#: the papers of a small corpus: the train papers are also read in corpora of this size
SMALL = 20
SPLITS = ("train", "select", "test")

#: (depth, number) of the trees tried, each at LEARNING_RATE
TREES = ((2, 100), (2, 200), (2, 400), (2, 800), (3, 100), (3, 200))
LEARNING_RATE = 0.1
#: L2 strengths of the logistic regression scored beside the trees
PENALTIES = (0.01, 0.1, 1.0, 3.0, 10.0, 30.0)
THRESHOLDS = tuple(round(t, 2) for t in np.arange(0.2, 0.81, 0.05))


def corpus_until_concepts(model: str | None = None):
    """The NeurIPS 2023 corpus after concept resolution, before the contribution
    decision, and its extraction alone (from which :func:`corpus_of` makes smaller
    corpora)."""
    extracted = extracted_corpus(sorted(glob.glob(str(SHARED / "*.csv"))), model)
    return corpus_of(extracted, extracted.results), extracted


def corpus_of(extracted, papers: list):
    """``papers`` (extracted records) built as a corpus of their own, up to their concepts."""
    from paperkg.api import BUILD_STAGES

    stages = [s for s in BUILD_STAGES[2:] if s.name != "building the graph"]
    return built_from(extracted, papers, stages)


def background_of(corpus, annotations: dict[str, dict]) -> Background:
    """The corpus's papers outside the scored splits, and how many of them name each
    concept."""
    scored = {pid for pid, row in annotations.items() if row["split"] in ("select", "test")}
    counts: Counter = Counter()
    papers = set()
    for result, concept_ids in zip(corpus.results, corpus.resolution.concept_of, strict=True):
        if result.paper.id not in scored:
            counts.update({c for c in concept_ids if c is not None})
            papers.add(text_key(result.paper.document))
    return Background(dict(counts), frozenset(papers))


def small_views(extracted, annotations, background, split: str, seed: int = 0) -> list:
    """:func:`labelled` of ``split``'s papers read as corpora of :data:`SMALL` papers
    (the train papers drawn in a shuffled order; a last, smaller corpus only for the
    scored splits)."""
    import random

    chosen = [r for r in extracted.results if annotations.get(r.paper.id, {}).get("split") == split]
    if split == "train":
        chosen = random.Random(seed).sample(chosen, len(chosen))
        chosen = chosen[: len(chosen) - len(chosen) % SMALL]
    views = []
    for start in range(0, len(chosen), SMALL):
        part = chosen[start : start + SMALL]
        own = {r.paper.id: annotations[r.paper.id] for r in part}
        views.append(labelled(corpus_of(extracted, part), own, background))
    return views


def labelled(corpus, annotations: dict[str, dict], background: Background):
    """Per annotated candidate: its split, paper id, features and whether it is proposed;
    and the annotated contributions of every annotated paper, by split."""
    keys, x = contribution_features(corpus.results, corpus.resolution, background=background)
    rows, y, split, gold_of = [], [], [], []
    for row_index, (paper_index, concept_id) in enumerate(keys):
        paper_id = corpus.results[paper_index].paper.id
        annotation = annotations.get(paper_id)
        if annotation is None:
            continue
        concept = corpus.resolution.concepts[concept_id]
        link = {"name": concept.name, "label": concept.label, "aliases": list(concept.aliases)}
        _, index = judge_link(link, annotation["concepts"])
        gold = None
        if index is not None:
            c = annotation["concepts"][index]
            gold = index if c["proposed"] and c["specific"] else None
        rows.append(row_index)
        y.append(gold is not None)
        split.append(annotation["split"])
        gold_of.append((paper_id, gold))
    papers_built = {r.paper.id for r in corpus.results}
    contributions = {
        s: {
            (pid, i)
            for pid, a in annotations.items()
            if a["split"] == s and pid in papers_built
            for i, c in enumerate(a["concepts"])
            if c["proposed"] and c["specific"]
        }
        for s in ("train", "select", "test")
    }
    keys = [keys[i] for i in rows]
    return keys, x[rows], np.array(y), np.array(split), gold_of, contributions


def fit_trees(x: np.ndarray, y: np.ndarray, depth: int, number: int) -> ContributionModel:
    """Boosted trees fitted with scikit-learn, as the numpy model the build reads (its
    threshold is set by the caller)."""
    from sklearn.ensemble import GradientBoostingClassifier

    booster = GradientBoostingClassifier(
        learning_rate=LEARNING_RATE, n_estimators=number, max_depth=depth, random_state=0
    ).fit(x, y)
    trees = tuple(_tree(estimator.tree_) for estimator in booster.estimators_[:, 0])
    first = x[:1].astype(np.float32)
    bias = float(booster.decision_function(x[:1])[0] - sum(t.leaf_values(first)[0] for t in trees))
    # scored and shipped as read back from its JSON (leaf values rounded), as the build reads it
    model = ContributionModel.from_json(ContributionModel(trees, bias, 0.5, FEATURES).to_json())
    gap = np.abs(model.probabilities(x) - booster.predict_proba(x)[:, 1]).max()
    if gap > 1e-4:  # the stored model must be the fitted one
        raise AssertionError(f"the stored trees differ from scikit-learn's by {gap}")
    return model


def _tree(fitted) -> Tree:
    """One of scikit-learn's trees, its leaves scaled by the learning rate."""
    leaf = fitted.children_left < 0
    return Tree(
        feature=np.where(leaf, 0, fitted.feature).astype(np.int64),
        split=np.where(leaf, 0.0, fitted.threshold),
        left=fitted.children_left.astype(np.int64),
        right=fitted.children_right.astype(np.int64),
        value=np.where(leaf, LEARNING_RATE * fitted.value[:, 0, 0], 0.0),
    )


def fit_logistic(x: np.ndarray, y: np.ndarray, penalty: float):
    """The probabilities of a logistic regression (L2 ``penalty`` on standardised
    signs), the learner the trees replaced."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    fitted = make_pipeline(StandardScaler(), LogisticRegression(C=1 / penalty, max_iter=5000))
    fitted.fit(x, y)
    return lambda rows: fitted.predict_proba(rows)[:, 1]


@dataclass(frozen=True)
class Probabilities:
    """Any fitted probabilities with a threshold, read as :func:`decide` reads a model."""

    of: Callable[[np.ndarray], np.ndarray]
    threshold: float

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        return self.of(x)


def score(views: list, model, split: str) -> dict:
    """PROPOSES precision and recall of ``split``'s papers as ``bench/annotated.py``
    counts them, pooled over ``views`` (each a :func:`labelled` corpus)."""
    edges = right = gold_total = 0
    found, papers = set(), set()
    for keys, x, _, split_of, gold_of, contributions in views:
        mask = split_of == split
        chosen_keys = [k for k, m in zip(keys, mask, strict=True) if m]
        chosen = decide(chosen_keys, x[mask], model)
        for key, (paper_id, gold), m in zip(keys, gold_of, mask, strict=True):
            if m and key in chosen:
                edges += 1
                if gold is not None:
                    right += 1
                    found.add((paper_id, gold))
        gold_total += len(contributions[split])
        papers |= {pid for pid, _ in contributions[split]}
    with_one = {pid for pid, _ in found}
    p = right / edges if edges else 0.0
    r = len(found) / gold_total if gold_total else 0.0
    return {
        "precision": round(p, 3),
        "recall": round(r, 3),
        "f1": round(2 * p * r / (p + r), 3) if p + r else 0.0,
        "edges": edges,
        "papers_naming_a_contribution_with_one": f"{len(with_one & papers)}/{len(papers)}",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    add_model_option(parser)
    args = parser.parse_args(argv)
    annotations = load_annotations()
    corpus, extracted = corpus_until_concepts(args.model)
    background = background_of(corpus, annotations)
    whole = labelled(corpus, annotations, background)
    small = {s: small_views(extracted, annotations, background, s) for s in SPLITS}
    train = [(v[1][v[3] == "train"], v[2][v[3] == "train"]) for v in [whole, *small["train"]]]
    x_train = np.vstack([x for x, _ in train])
    y_train = np.concatenate([y for _, y in train])

    def both(model, split):
        return score([whole], model, split), score(small[split], model, split)

    def chosen_on_select(models):
        """The (model, setting) with the best mean select F1, whole and 20 at a time."""
        best = None
        for model, setting in models:
            for threshold in THRESHOLDS:
                candidate = replace(model, threshold=float(threshold))
                whole_score, small_score = both(candidate, "select")
                chosen_by = (whole_score["f1"] + small_score["f1"]) / 2
                if best is None or chosen_by > best[0]:
                    best = (chosen_by, candidate, setting)
        return best[1], best[2]

    model, setting = chosen_on_select(
        (fit_trees(x_train, y_train, depth, number), f"depth {depth}, {number} trees")
        for depth, number in TREES
    )
    logistic, logistic_setting = chosen_on_select(
        (Probabilities(fit_logistic(x_train, y_train, penalty), 0.5), f"L2 {penalty}")
        for penalty in PENALTIES
    )
    strict = None  # the precision target: what recall is left at it on select
    for threshold in np.arange(0.3, 0.96, 0.01):
        at = score([whole], replace(model, threshold=float(threshold)), "select")
        if at["precision"] >= 0.9 and (strict is None or at["recall"] > strict[1]["recall"]):
            strict = (round(float(threshold), 2), at)
    print(f"candidates: {len(y_train)} train, whole and in corpora of {SMALL} "
          f"({int(y_train.sum())} proposed); background: {len(background.papers_naming)} "
          f"concepts of {len(background.papers)} papers outside select and test")  # fmt: skip
    print(f"chosen on select (mean F1 of the whole corpus and of corpora of {SMALL}): "
          f"{setting}, threshold {model.threshold:.2f}; beside it a logistic regression, "
          f"{logistic_setting}, threshold {logistic.threshold:.2f}")  # fmt: skip
    for name in SPLITS:
        for learner, fitted in (("trees", model), ("logistic", logistic)):
            whole_score, small_score = both(fitted, name)
            print(f"{name:6} {learner:8} whole        {json.dumps(whole_score)}")
            print(f"{name:6} {learner:8} {SMALL} at a time {json.dumps(small_score)}")
    if strict is not None:
        print(f"select whole at precision >= 0.90 (threshold {strict[0]}): "
              f"{json.dumps(strict[1])}")  # fmt: skip
    splits = Counter(FEATURES[f] for tree in model.trees for f in tree.split_features())
    print("the signs the trees split on, and how often:")
    for f, count in splits.most_common():
        print(f"  {f:22} {count}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(model.to_json(), separators=(",", ":")) + "\n", encoding="utf-8")
    table = args.out.with_name("name_counts.json")
    table.write_text(
        json.dumps(
            {
                "background": "NeurIPS 2023 abstracts outside the select and test annotations",
                "papers_naming": dict(sorted(background.papers_naming.items())),
                "papers": sorted(background.papers),
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"wrote {args.out} and {table}")
    return 0


if __name__ == "__main__":
    from results import run_and_record

    sys.exit(run_and_record("bench/train_contributions.py", main))
