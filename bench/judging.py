"""Judge a build's links the way a reader does, and score any build against the judgements.

    python3 bench/judging.py sheet OUT/graph.json --sample dev -o sheet.md
    python3 bench/judging.py score OUT/graph.json [--sample test]
    python3 bench/judging.py top OUT/graph.json -o top_sheet.md

``sheet`` writes what a careful reader needs to judge a build under the rules
of ``bench/judged/GUIDE.md``: each sampled paper's title and abstract, the key
concepts already listed for it, and the links of this build that have no
verdict yet. ``score`` counts the verdicts of a build's links, key concepts
found, and PROPOSES precision and recall. The samples are drawn with a fixed
seed from the NeurIPS 2023 papers (:func:`sample_ids`), so every session
judges the same papers.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
JUDGED = REPO / "bench" / "judged"
SAMPLE_FILE = JUDGED / "neurips2023_links.jsonl"
TOP_FILE = JUDGED / "neurips2023_top_concepts.jsonl"
VERDICTS = ("right", "generic", "wrong_label", "not_in_text", "cut_wrongly")
LABELS = ("Method", "Dataset", "Task", "Metric")
PAPER_EDGES = ("PROPOSES", "USES", "EVALUATES_ON", "ADDRESSES")
SAMPLE_SIZE = 25
SEED = 13


SAMPLES = ("dev", "dev2", "test")


def sample_ids(paper_ids: list[str], seed: int = SEED, size: int = SAMPLE_SIZE) -> dict:
    """Disjoint samples of paper ids: ``dev`` and ``dev2`` (may be read), ``test`` (only scored).

    ``dev2`` was added later, drawn from the papers not in the first two.
    """
    chosen = random.Random(seed).sample(sorted(paper_ids), 2 * size)
    rest = sorted(set(paper_ids) - set(chosen))
    dev2 = random.Random(seed + 1).sample(rest, size)
    return {"dev": sorted(chosen[:size]), "test": sorted(chosen[size:]), "dev2": sorted(dev2)}


def fold(text: str) -> str:
    """Lower case, hyphens/spaces folded, a final plural -s dropped: how names are matched."""
    folded = re.sub(r"[\s\-‐–_]+", " ", text.lower()).strip()
    folded = re.sub(r"[’'`\"]", "", folded)
    return re.sub(r"(?<=[a-z]{3})s$", "", folded)


def load_judged(path: Path = SAMPLE_FILE) -> dict[str, dict]:
    if not path.exists():
        return {}
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    for row in rows:
        for link in row.get("links", []):
            if link["verdict"] not in VERDICTS:
                raise SystemExit(
                    f"{path}: paper {row['paper_id']}, link {link['name']!r}: verdict "
                    f"{link['verdict']!r} is none of {', '.join(VERDICTS)}; fix the file"
                )
    return {row["paper_id"]: row for row in rows}


def paper_links(graph, paper_id: str) -> list[dict]:
    """The paper's links in a build: one per concept, IS_A-inferred ones apart."""
    node = f"paper:{paper_id}"
    links = []
    for _, concept, data in graph.out_edges(node, data=True):
        if data["type"] not in PAPER_EDGES:
            continue
        attrs = graph.nodes[concept]
        links.append(
            {
                "id": concept,
                "name": attrs.get("name", ""),
                "label": attrs.get("label", ""),
                "aliases": list(attrs.get("aliases", [])),
                "type": data["type"],
                "evidence": data.get("evidence", ""),
                "inferred": bool(data.get("via")),
            }
        )
    return sorted(links, key=lambda r: (r["label"], r["name"].lower(), r["type"]))


def _forms(link: dict) -> set[str]:
    return {fold(link["name"])} | {fold(a) for a in link.get("aliases", [])}


def verdict_of(link: dict, judged_links: list[dict]) -> dict | None:
    """The recorded verdict of a build's link: same label, its name or an alias judged."""
    forms = _forms(link)
    for row in judged_links:
        if row["label"] == link["label"] and fold(row["name"]) in forms:
            return row
    # the same name judged under another label decides name-level classes too
    for row in judged_links:
        if fold(row["name"]) in forms and row["verdict"] in (
            "not_in_text",
            "cut_wrongly",
            "generic",
        ):
            return row
    return None


def _entries(key: dict, *groups: str) -> list[dict]:
    return [e for g in groups for e in key.get(g, [])]


def _matches(entry: dict, link: dict, *, label: bool = True) -> bool:
    names = {fold(entry["name"])} | {fold(a) for a in entry.get("aliases", [])}
    return bool(names & _forms(link)) and (not label or entry["label"] == link["label"])


def score(graph, judged: dict[str, dict], sample: str | None = None) -> dict:
    """Verdict shares of the build's direct links, key concepts found, PROPOSES P/R."""
    verdicts: Counter = Counter()
    unjudged: list[tuple[str, str, str]] = []
    key_total = key_found = key_found_any_label = 0
    metric_total = metric_found = 0
    proposes_edges = proposes_right = gold_proposals = gold_proposals_found = 0
    papers = no_proposes = 0
    for paper_id, row in sorted(judged.items()):
        if sample and row.get("sample") != sample:
            continue
        if f"paper:{paper_id}" not in graph:
            continue
        papers += 1
        links = [lk for lk in paper_links(graph, paper_id) if not lk["inferred"]]
        seen = set()
        for link in links:
            if link["id"] in seen:
                continue
            seen.add(link["id"])
            found = verdict_of(link, row.get("links", []))
            if found is None:
                unjudged.append((paper_id, link["label"], link["name"]))
            else:
                verdicts[found["verdict"]] += 1
        key = row.get("key", {})
        all_links = paper_links(graph, paper_id)
        for entry in _entries(key, "proposes", "tasks", "datasets", "metrics"):
            key_total += 1
            hit = any(_matches(entry, lk) for lk in all_links)
            key_found += hit
            key_found_any_label += any(_matches(entry, lk, label=False) for lk in all_links)
            if entry["label"] == "Metric":
                metric_total += 1
                metric_found += hit
        proposes = [lk for lk in links if lk["type"] == "PROPOSES"]
        no_proposes += not proposes
        gold = key.get("proposes", [])
        proposes_edges += len(proposes)
        proposes_right += sum(any(_matches(g, lk, label=False) for g in gold) for lk in proposes)
        gold_proposals += len(gold)
        gold_proposals_found += sum(
            any(_matches(g, lk, label=False) for lk in proposes) for g in gold
        )
    judged_links = sum(verdicts.values())
    return {
        "papers": papers,
        "links": judged_links + len(unjudged),
        "unjudged": len(unjudged),
        "unjudged_links": unjudged,
        "verdicts": {v: verdicts[v] / judged_links if judged_links else 0.0 for v in VERDICTS},
        "verdict_counts": dict(verdicts),
        "key_found": key_found / key_total if key_total else 0.0,
        "key_found_any_label": key_found_any_label / key_total if key_total else 0.0,
        "key_total": key_total,
        "metrics_found": metric_found / metric_total if metric_total else 0.0,
        "metric_total": metric_total,
        "proposes_precision": proposes_right / proposes_edges if proposes_edges else 0.0,
        "proposes_recall": gold_proposals_found / gold_proposals if gold_proposals else 0.0,
        "proposes_edges": proposes_edges,
        "gold_proposals": gold_proposals,
        "papers_without_proposes": no_proposes,
    }


def top_concepts(graph, label: str, n: int = 30) -> list[tuple[str, int]]:
    rows = [
        (d["name"], d.get("paper_count", 0))
        for _, d in graph.nodes(data=True)
        if d.get("label") == label
    ]
    return sorted(rows, key=lambda r: (-r[1], r[0].lower()))[:n]


def load_top(path: Path = TOP_FILE) -> dict[tuple[str, str], dict]:
    if not path.exists():
        return {}
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return {(r["label"], fold(r["name"])): r for r in rows}


def score_top(graph, judged: dict[tuple[str, str], dict], n: int = 30) -> dict:
    """Per label: the share of the ``n`` most used concepts judged right, and what is unjudged."""
    out = {}
    for label in LABELS:
        rows = top_concepts(graph, label, n)
        right = unjudged = 0
        missing = []
        for name, _ in rows:
            verdict = judged.get((label, fold(name)))
            if verdict is None:
                unjudged += 1
                missing.append(name)
            else:
                right += verdict["verdict"] == "right"
        judged_n = len(rows) - unjudged
        out[label] = {
            "top": rows,
            "right": right / judged_n if judged_n else 0.0,
            "unjudged": missing,
        }
    return out


# --------------------------------------------------------------------------- CLI


def _load_graph(path: str):
    from paperkg.graph.io import load_graph

    return load_graph(path)


def write_sheet(graph, sample: str, out: Path, *, all_links: bool = False) -> int:
    """A worksheet for the reader: per paper, title, abstract and the links to judge."""
    judged = load_judged()
    ids = sample_ids(
        [n[len("paper:") :] for n, d in graph.nodes(data=True) if d.get("label") == "Paper"]
    )[sample]
    lines = [
        f"# Links to judge ({sample} sample) under bench/judged/GUIDE.md",
        "",
        "For each paper: if it has no `key` yet, list its key concepts (GUIDE 2);",
        "then give a verdict (GUIDE 1) to each link listed.",
        "",
    ]
    todo = 0
    for paper_id in ids:
        node = graph.nodes[f"paper:{paper_id}"]
        row = judged.get(paper_id, {})
        links = [lk for lk in paper_links(graph, paper_id) if not lk["inferred"]]
        pending = [lk for lk in links if all_links or verdict_of(lk, row.get("links", [])) is None]
        if not pending and row.get("key"):
            continue
        todo += len(pending)
        lines += [f"## {paper_id}", "", f"**Title:** {node.get('title', '')}", ""]
        lines += [f"**Abstract:** {node.get('abstract', '')}", ""]
        lines += ["Key concepts: " + ("already listed" if row.get("key") else "TO LIST"), ""]
        lines += ["| concept | label | edge | aliases | evidence |", "|---|---|---|---|---|"]
        seen = set()
        for lk in pending:
            if lk["id"] in seen:
                continue
            seen.add(lk["id"])
            aliases = "; ".join(a for a in lk["aliases"] if a != lk["name"])[:120]
            evidence = lk["evidence"].replace("|", "/")[:300]
            lines.append(
                f"| {lk['name']} | {lk['label']} | {lk['type']} | {aliases} | {evidence} |"
            )
        lines.append("")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return todo


def print_score(result: dict, title: str) -> None:
    v = result["verdicts"]
    print(
        f"{title}: {result['papers']} papers, {result['links']} links "
        f"({result['unjudged']} unjudged)"
    )
    print(
        "  links right {:.1%}  generic {:.1%}  wrong label {:.1%}  not in text {:.1%}  "
        "cut wrongly {:.1%}".format(
            v["right"], v["generic"], v["wrong_label"], v["not_in_text"], v["cut_wrongly"]
        )
    )
    print(
        "  key concepts found {:.1%} (any label {:.1%}; metrics {:.1%} of {})  "
        "PROPOSES precision {:.2f} recall {:.2f}  papers without PROPOSES {}".format(
            result["key_found"],
            result["key_found_any_label"],
            result["metrics_found"],
            result["metric_total"],
            result["proposes_precision"],
            result["proposes_recall"],
            result["papers_without_proposes"],
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sheet = sub.add_parser("sheet", help="write a worksheet of the links still to judge")
    sheet.add_argument("graph")
    sheet.add_argument("--sample", choices=SAMPLES, required=True)
    sheet.add_argument("--all", action="store_true", help="list judged links too")
    sheet.add_argument("-o", "--output", type=Path, required=True)
    sc = sub.add_parser("score", help="score a build against the judged samples")
    sc.add_argument("graph")
    sc.add_argument("--sample", choices=SAMPLES, default=None)
    sc.add_argument("--json", action="store_true")
    top = sub.add_parser("top", help="write the top concepts still to judge")
    top.add_argument("graph")
    top.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args(argv)
    graph = _load_graph(args.graph)
    if args.command == "sheet":
        todo = write_sheet(graph, args.sample, args.output, all_links=args.all)
        print(f"{args.output}: {todo} links to judge")
    elif args.command == "score":
        judged = load_judged()
        samples = [args.sample] if args.sample else list(SAMPLES)
        results = {s: score(graph, judged, s) for s in samples}
        results["top"] = score_top(graph, load_top())
        if args.json:
            print(json.dumps(results, indent=1))
        else:
            for s in samples:
                print_score(results[s], f"judged {s} sample")
            for label, r in results["top"].items():
                print(f"  top 30 {label}: {r['right']:.0%} right, {len(r['unjudged'])} unjudged")
    else:
        judged = load_top()
        lines = ["| label | concept | papers |", "|---|---|---|"]
        todo = 0
        for label in LABELS:
            for name, papers in top_concepts(graph, label):
                if (label, fold(name)) not in judged:
                    todo += 1
                    lines.append(f"| {label} | {name} | {papers} |")
        args.output.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{args.output}: {todo} top concepts to judge")
    return 0


if __name__ == "__main__":
    sys.exit(main())
