"""Train the model that decides what each paper proposes (``extract/corpus/contributions.py``).

    python3 bench/train_contributions.py [--out extract/corpus/models/contributions.json]

Builds the NeurIPS 2023 corpus up to its concepts (the extraction cache makes that
quick), computes the signs of every (paper, concept) of the annotated papers
(:func:`~paperkg.extract.corpus.contributions.contribution_features`), and labels
each with the annotations (``bench/judged/annotations``, GUIDE.md section 5): a
concept is proposed when it names, as ``bench/annotated.py`` judges a link, an
annotated specific concept marked ``proposed``. A logistic regression is fitted on
the ``train`` papers; its L2 strength and threshold are chosen on
``select`` (PROPOSES F1 as ``bench/annotated.py`` counts it: recall over every
annotated contribution, a node or not); ``test`` is scored once, apart. The
weights are written as compact JSON, and the run is recorded in ``bench/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from annotated import judge_link  # noqa: E402
from annotation import SHARED, load_annotations  # noqa: E402

from paperkg.extract.corpus.contributions import (  # noqa: E402
    FEATURES,
    MODEL_PATH,
    ContributionModel,
    contribution_features,
    decide,
)

#: L2 strengths tried (1/C of the penalty on the standardised weights)
PENALTIES = (0.01, 0.1, 1.0, 3.0, 10.0, 30.0)
THRESHOLDS = tuple(round(t, 2) for t in np.arange(0.2, 0.81, 0.05))


def corpus_until_concepts():
    """The NeurIPS 2023 corpus after concept resolution, before the contribution decision."""
    from paperkg.api import BUILD_STAGES
    from paperkg.extract.nlp.cache import default_cache_dir
    from paperkg.stages import BuildOptions, Corpus, run_stages

    files = sorted(glob.glob(str(SHARED / "*.csv")))
    options = BuildOptions(cache_dir=default_cache_dir(), jobs=1)
    stages = [s for s in BUILD_STAGES if s.name != "building the graph"]
    return run_stages(stages, Corpus(paths=files, options=options))


def labelled(corpus, annotations: dict[str, dict]):
    """Per annotated candidate: its split, paper id, features and whether it is proposed;
    and the annotated contributions of every annotated paper, by split."""
    keys, x = contribution_features(corpus.results, corpus.resolution)
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


def fit(x: np.ndarray, y: np.ndarray, penalty: float) -> tuple[np.ndarray, float]:
    """Logistic regression by Newton's method, L2 ``penalty`` on the weights (not the bias)."""
    n, d = x.shape
    a = np.hstack([x, np.ones((n, 1))])
    w = np.zeros(d + 1)
    ridge = np.diag([penalty] * d + [0.0])
    for _ in range(50):
        p = 1 / (1 + np.exp(-(a @ w)))
        gradient = a.T @ (p - y) + ridge @ w
        hessian = (a * (p * (1 - p))[:, None]).T @ a + ridge + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w[:d], float(w[d])


def score(keys, chosen, gold_of, contributions) -> dict:
    """PROPOSES precision and recall as ``bench/annotated.py`` counts them."""
    edges = right = 0
    found = set()
    for key, (paper_id, gold) in zip(keys, gold_of, strict=True):
        if key in chosen:
            edges += 1
            if gold is not None:
                right += 1
                found.add((paper_id, gold))
    papers = {pid for pid, _ in contributions}
    with_one = {pid for pid, _ in found}
    p = right / edges if edges else 0.0
    r = len(found) / len(contributions) if contributions else 0.0
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
    args = parser.parse_args(argv)
    corpus = corpus_until_concepts()
    keys, x, y, split, gold_of, contributions = labelled(corpus, load_annotations())
    train = split == "train"
    mean = x[train].mean(axis=0)
    scale = x[train].std(axis=0)
    scale[scale == 0] = 1.0

    def part(name):
        mask = split == name
        return (
            [k for k, m in zip(keys, mask, strict=True) if m],
            x[mask],
            [g for g, m in zip(gold_of, mask, strict=True) if m],
        )

    best = None
    for penalty in PENALTIES:
        w, b = fit((x[train] - mean) / scale, y[train].astype(float), penalty)
        for threshold in THRESHOLDS:
            model = ContributionModel(tuple(w), b, tuple(mean), tuple(scale), float(threshold))
            k, xs, g = part("select")
            s = score(k, decide(k, xs, model), g, contributions["select"])
            if best is None or s["f1"] > best[0]["f1"]:
                best = (s, model, penalty)
    selected, model, penalty = best
    strict = None  # the precision target: what recall is left at it on select
    for threshold in np.arange(0.3, 0.96, 0.01):
        k, xs, g = part("select")
        m = ContributionModel(model.weights, model.bias, model.mean, model.scale, threshold)
        s = score(k, decide(k, xs, m), g, contributions["select"])
        if s["precision"] >= 0.9 and (strict is None or s["recall"] > strict[1]["recall"]):
            strict = (round(float(threshold), 2), s)
    print(f"candidates: {int(train.sum())} train ({int(y[train].sum())} proposed), "
          f"{int((split == 'select').sum())} select, {int((split == 'test').sum())} test")  # fmt: skip
    print(f"chosen on select: L2 {penalty}, threshold {model.threshold}")
    for name in ("train", "select", "test"):
        k, xs, g = part(name)
        print(f"{name:6}", json.dumps(score(k, decide(k, xs, model), g, contributions[name])))
    if strict is not None:
        print(f"select at precision >= 0.90 (threshold {strict[0]}): {json.dumps(strict[1])}")
    print("weights (standardised):")
    for f, wf in sorted(zip(FEATURES, model.weights, strict=True), key=lambda t: -abs(t[1])):
        print(f"  {f:22} {wf:+.3f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    from results import run_and_record

    sys.exit(run_and_record("bench/train_contributions.py", main))
