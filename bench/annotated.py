"""Score a NeurIPS 2023 build against the in-domain annotations (``bench/judged/annotations``).

    python3 bench/annotated.py OUT/graph.json [--split select] [--json]

Each split (``select``: where choices are made; ``test``: held out, only scored) is
reported apart. Every link of an annotated paper is judged by rule against the
paper's annotation (GUIDE.md, section 5), with no reader in the loop:

- ``right``: the concept's name or an alias is the name or a surface of a specific
  annotated concept of the same label (case, hyphens and a final plural -s ignored);
- ``wrong_label``: it is one of another label;
- ``cut_wrongly``: it is not, but it is a run of whole words of a specific
  concept's surface (a fragment of a name), or holds one (a name run on into other
  words);
- ``generic``: anything else (a generic phrase, an idiom read as a term, a thing of
  no annotated label). The annotations list every specific concept, so a link
  matching none of them names no specific thing of the paper.

Mention F1 compares each paper's bag of (label, folded surface) of the extractor's
mentions with the annotated specific mentions: offsets differ between the raw
abstract the readers annotated and the cleaned text the pipeline reads.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from annotation import load_annotations  # noqa: E402
from judging import LABELS, fold, paper_links, top_concepts  # noqa: E402

SPLITS = ("select", "test")


def concept_forms(concept: dict) -> set[str]:
    """A concept's name and every surface it has in the paper, folded, as written and
    with LaTeX read as the pipeline reads it (``EB-TC$\\varepsilon$`` is ``EB-TCε``)."""
    from paperkg.extract.readers import clean_text

    written = [concept["name"], *(m[3] for m in concept["mentions"])]
    return {fold(form) for text in written for form in (text, clean_text(text)[0])}


def judge_link(link: dict, concepts: list[dict]) -> tuple[str, int | None]:
    """The verdict on one link, and the index of the annotated concept it names."""
    forms = {fold(link["name"])} | {fold(a) for a in link.get("aliases", [])}
    specific = [(i, c) for i, c in enumerate(concepts) if c["specific"]]
    for i, concept in specific:
        if concept["label"] == link["label"] and forms & concept_forms(concept):
            return "right", i
    for i, concept in specific:
        if forms & concept_forms(concept):
            return "wrong_label", i
    for name in forms:
        for _, concept in specific:
            for form in concept_forms(concept):
                if _inside(name, form) or _inside(form, name):
                    return "cut_wrongly", None
    return "generic", None


def _inside(part: str, whole: str) -> bool:
    """Whether ``part`` is a run of whole words of ``whole`` (and not all of it)."""
    return part != whole and f" {part} " in f" {re.sub(r'[^a-z0-9]+', ' ', whole)} "


def score_split(graph, rows: dict[str, dict]) -> dict:
    """Link verdicts, key concepts found, PROPOSES precision and recall, duplicates."""
    verdicts: Counter = Counter()
    key = Counter()
    proposes = Counter()
    duplicates = papers = 0
    for paper_id, row in sorted(rows.items()):
        if f"paper:{paper_id}" not in graph:
            continue
        papers += 1
        concepts = row["concepts"]
        links = [lk for lk in paper_links(graph, paper_id) if not lk["inferred"]]
        by_concept: dict[str, tuple[str, int | None]] = {}
        for link in links:
            by_concept.setdefault(link["id"], judge_link(link, concepts))
        verdicts.update(v for v, _ in by_concept.values())
        named = Counter(i for _, i in by_concept.values() if i is not None)
        duplicates += sum(n * (n - 1) // 2 for n in named.values())
        found = {i for v, i in by_concept.values() if v == "right"}
        for i, concept in enumerate(concepts):
            if concept["specific"] and concept["key"]:
                key[concept["label"]] += 1
                key[concept["label"] + " found"] += i in found
        gold = {i for i, c in enumerate(concepts) if c["proposed"] and c["specific"]}
        edges = [lk for lk in links if lk["type"] == "PROPOSES"]
        hits = {judge_link(lk, concepts)[1] for lk in edges} - {None}
        proposes["edges"] += len(edges)
        proposes["right edges"] += sum(judge_link(lk, concepts)[1] in gold for lk in edges)
        proposes["gold"] += len(gold)
        proposes["gold found"] += len(gold & hits)
        proposes["papers naming one"] += bool(gold)
        proposes["of them with one"] += bool(gold & hits)
    total = sum(verdicts.values())
    key_total = sum(key[label] for label in LABELS)
    return {
        "papers": papers,
        "links": total,
        "verdicts": {v: round(verdicts[v] / total, 3) if total else 0.0
                     for v in ("right", "generic", "wrong_label", "cut_wrongly")},
        "key_found": round(sum(key[f"{lb} found"] for lb in LABELS) / key_total, 3)
        if key_total else 0.0,
        "key_found_per_label": {lb: f"{key[lb + ' found']}/{key[lb]}" for lb in LABELS},
        "proposes_precision": round(proposes["right edges"] / proposes["edges"], 3)
        if proposes["edges"] else 0.0,
        "proposes_recall": round(proposes["gold found"] / proposes["gold"], 3)
        if proposes["gold"] else 0.0,
        "papers_naming_a_contribution_with_a_proposes_edge":
            f"{proposes['of them with one']}/{proposes['papers naming one']}",
        "duplicate_pairs_per_paper": round(duplicates / papers, 2) if papers else 0.0,
    }  # fmt: skip


def mention_f1(found: dict[str, list[tuple[str, str]]], rows: dict[str, dict]) -> dict:
    """F1 of each paper's bag of (label, folded surface), predicted against annotated."""
    tp = n_pred = n_gold = 0
    for paper_id, row in rows.items():
        gold = Counter(
            (c["label"].upper(), fold(m[3])) for c in row["concepts"] if c["specific"]
            for m in c["mentions"]
        )  # fmt: skip
        pred = Counter((label, fold(text)) for label, text in found.get(paper_id, []))
        tp += sum((gold & pred).values())
        n_pred += sum(pred.values())
        n_gold += sum(gold.values())
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    return {"precision": round(p, 3), "recall": round(r, 3),
            "f1": round(2 * p * r / (p + r), 3) if p + r else 0.0}  # fmt: skip


def extracted_mentions(paper_ids: list[str], model=None) -> dict[str, list[tuple[str, str]]]:
    """What the pipeline ``model`` (the default one if None) extracts from these
    NeurIPS 2023 papers: (label, text)."""
    from annotation import load_papers

    from paperkg.extract.nlp.extractor import extract_mentions
    from paperkg.extract.nlp.pipeline import load_pipeline

    papers = load_papers()
    chosen = [papers[pid] for pid in paper_ids]
    results = extract_mentions(load_pipeline(model), chosen)
    return {r.paper.id: [(m.label, m.text) for m in r.mentions] for r in results}


def top_right(graph, rows: dict[str, dict], n: int = 30) -> dict[str, str]:
    """Per label, how many of the ``n`` most used concepts are an annotated specific
    concept of that label somewhere in the annotations (all splits)."""
    known = {(c["label"], f) for r in rows.values() for c in r["concepts"] if c["specific"]
             for f in concept_forms(c)}  # fmt: skip
    out = {}
    for label in LABELS:
        top = top_concepts(graph, label, n)
        out[label] = f"{sum((label, fold(name)) in known for name, _ in top)}/{len(top)}"
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("graph", help="graph.json of a NeurIPS 2023 build")
    parser.add_argument("--split", choices=SPLITS, action="append")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--mentions", action="store_true", help="also extract the papers and score mentions"
    )
    args = parser.parse_args(argv)
    from paperkg.graph.io import load_graph

    graph = load_graph(args.graph)
    every = {k: v for k, v in load_annotations().items()}
    result = {}
    for split in args.split or SPLITS:
        rows = {k: v for k, v in every.items() if v["split"] == split}
        result[split] = score_split(graph, rows)
    result["top30_annotated_right"] = top_right(graph, every)
    if args.mentions:
        found = extracted_mentions([k for k, v in every.items() if v["split"] in result])
        for split in args.split or SPLITS:
            rows = {k: v for k, v in every.items() if v["split"] == split}
            result[split]["mentions"] = mention_f1(found, rows)
    print(json.dumps(result, indent=None if args.json else 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
