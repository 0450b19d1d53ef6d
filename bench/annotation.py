"""In-domain annotations of NeurIPS 2023 abstracts: batches, drafts to spans, agreement.

    python3 bench/annotation.py batches                 # the batches and their papers
    python3 bench/annotation.py show test-1 --start 0 --count 10
    python3 bench/annotation.py spans DRAFT.jsonl       # a reader's draft -> annotations/BATCH.jsonl
    python3 bench/annotation.py agree check-1           # second reader against the first
    python3 bench/annotation.py stats                   # what is annotated so far

A reader (see ``bench/judged/GUIDE.md``, section 5) writes a *draft*: for each paper,
the concepts it names, each with a label, whether it is specific, proposed and key,
and its *surfaces* (every way the title or abstract writes it). ``spans`` finds every
occurrence of each surface in the paper's title and abstract (whole words, the
longest match first) and writes the annotation as ids, offsets and span texts, never
a copy of the abstract. The papers are drawn with a fixed seed from the NeurIPS 2023
papers not judged before (``bench/judged/neurips2023_links.jsonl``):

- ``test-*``: the in-domain held-out set, annotated from scratch and only scored;
- ``select-*``: the selection set, where models, thresholds and rules are chosen;
- ``train-*``: training data;
- ``check-*``: a sample of every other batch, annotated again from scratch by a
  second reader, for agreement (``check-3``: the second round's ``train-10`` ..,
  ``check-4`` .. ``check-11``: those of the later rounds).
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
JUDGED = REPO / "bench" / "judged"
ANNOTATIONS = JUDGED / "annotations"
SHARED = REPO.parent / "shared" / "data" / "neurips2023"
LABELS = ("Method", "Dataset", "Task", "Metric")
FIELDS = ("title", "abstract")
SEED = 35
BATCH_SIZE = 40
#: split -> number of batches of BATCH_SIZE papers
SPLITS = {"test": 4, "select": 3, "train": 9}
#: training batches of each later round (the second: train-10 .., the third: train-16 ..,
#: the fourth: train-23 .., the fifth: train-30 .., the sixth: train-37 .., the seventh:
#: train-44 .., the eighth: train-51 .., the ninth: train-58 .., the tenth: train-65 ..),
#: drawn from the papers the rounds before left, each round with a seed of its own, so
#: earlier batches stay as they are
MORE_TRAIN = (6, 7, 7, 7, 7, 7, 7, 7, 7)
_LINK = re.compile(r"\\url\{[^}]*\}?|(?:https?://|www\.|github\.com/)[^\s)]+")
#: papers of each batch that a second reader annotates again
CHECK_PER_BATCH = 5


def load_papers() -> dict:
    """NeurIPS 2023 papers by id, read by paperkg's own reader (broken quoting repaired)."""
    from paperkg.extract.readers import read_inputs

    files = sorted(glob.glob(str(SHARED / "*.csv")))
    if not files:
        raise SystemExit(f"no NeurIPS 2023 CSVs under {SHARED}: ../shared is needed")
    return {p.id: p for p in read_inputs(files).papers}


def fields_of(paper) -> dict[str, str]:
    """The texts that offsets point into: the title and the abstract exactly as read."""
    return {"title": paper.title or "", "abstract": paper.abstract}


def text_hash(paper) -> str:
    """A short hash of the title and abstract, so a changed reader is noticed."""
    f = fields_of(paper)
    return hashlib.sha1(f"{f['title']}\0{f['abstract']}".encode()).hexdigest()[:12]


def batches(paper_ids: list[str]) -> dict[str, list[str]]:
    """Every batch's paper ids, drawn with SEED from the papers not judged before."""
    judged = set()
    links = JUDGED / "neurips2023_links.jsonl"
    if links.exists():
        judged = {json.loads(line)["paper_id"] for line in links.read_text().splitlines() if line}
    pool = sorted(set(paper_ids) - judged)
    total = sum(SPLITS.values()) * BATCH_SIZE
    drawn = random.Random(SEED).sample(pool, total)
    out: dict[str, list[str]] = {}
    i = 0
    for split, n in SPLITS.items():
        for b in range(1, n + 1):
            out[f"{split}-{b}"] = drawn[i : i + BATCH_SIZE]
            i += BATCH_SIZE
    sampled = [pid for name, ids in out.items() for pid in ids[:CHECK_PER_BATCH]]
    half = (len(sampled) + 1) // 2
    out["check-1"], out["check-2"] = sampled[:half], sampled[half:]
    left = sorted(set(pool) - set(drawn))
    first = SPLITS["train"] + 1
    for round_, n in enumerate(MORE_TRAIN, start=1):
        more = random.Random(SEED + round_).sample(left, n * BATCH_SIZE)
        left = sorted(set(left) - set(more))
        names = [f"train-{first + b}" for b in range(n)]
        for b, name in enumerate(names):
            out[name] = more[b * BATCH_SIZE : (b + 1) * BATCH_SIZE]
        out[f"check-{2 + round_}"] = [pid for name in names for pid in out[name][:CHECK_PER_BATCH]]
        first += n
    return out


def split_of(batch: str) -> str:
    return batch.rsplit("-", 1)[0]


def find_spans(paper, concepts: list[dict]) -> tuple[list[list], list[str]]:
    """Each concept's mentions as ``[field, start, end, text]``, and the surfaces not found.

    Every whole-word occurrence of every surface is a candidate; overlapping
    candidates are settled longest first (``ImageNet-100`` before ``ImageNet``).
    """
    texts = fields_of(paper)
    links = {f: [m.span() for m in _LINK.finditer(texts[f])] for f in FIELDS}
    candidates = []
    missing = []
    for ci, concept in enumerate(concepts):
        for surface in dict.fromkeys(concept.get("surfaces", [])):
            pattern = re.compile(r"(?<![\w])" + re.escape(surface) + r"(?![\w])")
            hits = [
                (f, m.start(), m.end())
                for f in FIELDS
                for m in pattern.finditer(texts[f])
                if not any(s <= m.start() < e for s, e in links[f])  # not inside a link
            ]
            if not hits:
                missing.append(surface)
            candidates += [(end - start, f, start, end, ci) for f, start, end in hits]
    taken: dict[str, list[tuple[int, int]]] = {f: [] for f in FIELDS}
    spans: list[list] = [[] for _ in concepts]
    for _, f, start, end, ci in sorted(candidates, key=lambda c: (-c[0], c[1], c[2])):
        if any(start < e and s < end for s, e in taken[f]):
            continue
        taken[f].append((start, end))
        spans[ci].append([f, start, end, texts[f][start:end]])
    return [sorted(s, key=lambda m: (FIELDS.index(m[0]), m[1])) for s in spans], missing


def check_concept(concept: dict) -> str | None:
    """What is wrong with a draft concept, or None."""
    if not concept.get("name"):
        return "a concept without a name"
    if concept.get("label") not in LABELS:
        return f"{concept.get('name')!r}: label {concept.get('label')!r} is none of {LABELS}"
    for key in ("specific", "proposed", "key"):
        if not isinstance(concept.get(key, False), bool):
            return f"{concept['name']!r}: {key} must be true or false"
    if not concept.get("surfaces"):
        return f"{concept['name']!r}: no surfaces (list how the text writes it)"
    return None


def to_spans(draft_path: Path, papers: dict, all_batches: dict) -> int:
    """Turn a draft file into ``annotations/BATCH.jsonl``; print every problem found."""
    rows = [json.loads(line) for line in draft_path.read_text().splitlines() if line.strip()]
    problems = 0
    by_batch: dict[str, list[dict]] = {}
    batch_of = {
        pid: b for b, ids in all_batches.items() if not b.startswith("check") for pid in ids
    }
    for row in rows:
        pid = row.get("paper_id")
        batch = row.get("batch") or batch_of.get(pid)
        if pid not in papers or batch not in all_batches or pid not in all_batches[batch]:
            print(f"{draft_path}: paper {pid!r} is not in batch {batch!r}")
            problems += 1
            continue
        concepts = row.get("concepts", [])
        bad = [msg for c in concepts if (msg := check_concept(c))]
        spans, missing = find_spans(papers[pid], concepts)
        for msg in bad:
            print(f"{pid}: {msg}")
        for surface in missing:
            print(f"{pid}: surface {surface!r} is not in the title or abstract (copy it exactly)")
        problems += len(bad) + len(missing)
        out = {
            "paper_id": pid,
            "batch": batch,
            "split": split_of(batch),
            "reader": row.get("reader", ""),
            "text_sha1": text_hash(papers[pid]),
            "concepts": [
                {
                    "name": c.get("name"),
                    "label": c.get("label"),
                    "specific": c.get("specific", True),
                    "proposed": c.get("proposed", False),
                    "key": c.get("key", False),
                    "mentions": s,
                    **({"note": c["note"]} if c.get("note") else {}),
                }
                for c, s in zip(concepts, spans, strict=True)
            ],
            **({"note": row["note"]} if row.get("note") else {}),
        }
        by_batch.setdefault(batch, []).append(out)
    ANNOTATIONS.mkdir(parents=True, exist_ok=True)
    for batch, out_rows in by_batch.items():
        path = ANNOTATIONS / f"{batch}.jsonl"
        old = {}
        if path.exists():
            old = {json.loads(line)["paper_id"]: line for line in path.read_text().splitlines()}
        for r in out_rows:
            old[r["paper_id"]] = json.dumps(r, ensure_ascii=False)
        order = {pid: i for i, pid in enumerate(all_batches[batch])}
        lines = sorted(old.values(), key=lambda line: order[json.loads(line)["paper_id"]])
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{path.relative_to(REPO)}: {len(lines)} of {len(all_batches[batch])} papers")
    print(f"{problems} problem(s)")
    return 1 if problems else 0


def load_annotations(pattern: str = "*") -> dict[str, dict]:
    """Annotated papers by id from ``annotations/<pattern>.jsonl`` (check batches apart)."""
    rows = {}
    for path in sorted(ANNOTATIONS.glob(f"{pattern}.jsonl")):
        if path.stem.startswith("check") and not pattern.startswith("check"):
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                rows[row["paper_id"]] = row
    return rows


def _spans(row: dict, *, labelled: bool) -> set:
    return {
        (m[0], m[1], m[2], c["label"] if labelled else "")
        for c in row["concepts"]
        if c["specific"]
        for m in c["mentions"]
    }


def _names(row: dict, flag: str) -> set[str]:
    from judging import fold

    return {fold(c["name"]) for c in row["concepts"] if c.get(flag)}


def _f1(a: set, b: set) -> tuple[int, int, int]:
    return len(a & b), len(a), len(b)


def agreement(first: dict[str, dict], second: dict[str, dict]) -> dict:
    """Agreement of two readers on the papers both annotated, as F1 of one against the other.

    ``spans``: specific mentions, same offsets and label; ``spans_unlabelled``: same
    offsets; ``label``: the share of spans both marked specific with the same label;
    ``proposed`` and ``key``: concepts by name (folded) or by a shared span.
    """
    totals: dict[str, list[int]] = {}
    label_same = label_both = 0
    for pid in sorted(set(first) & set(second)):
        a, b = first[pid], second[pid]
        parts = {
            "spans": (_spans(a, labelled=True), _spans(b, labelled=True)),
            "spans_unlabelled": (_spans(a, labelled=False), _spans(b, labelled=False)),
            "proposed": (_concept_ids(a, b, "proposed"), _concept_ids(b, a, "proposed")),
            "key": (_concept_ids(a, b, "key"), _concept_ids(b, a, "key")),
        }
        for name, (x, y) in parts.items():
            t = totals.setdefault(name, [0, 0, 0])
            for i, v in enumerate(_f1(x, y)):
                t[i] += v
        la = {s[:3]: s[3] for s in _spans(a, labelled=True)}
        lb = {s[:3]: s[3] for s in _spans(b, labelled=True)}
        both = set(la) & set(lb)
        label_both += len(both)
        label_same += sum(la[s] == lb[s] for s in both)
    result = {"papers": len(set(first) & set(second))}
    for name, (tp, na, nb) in totals.items():
        result[name] = round(2 * tp / (na + nb), 3) if na + nb else None
    result["label"] = round(label_same / label_both, 3) if label_both else None
    return result


def _concept_ids(row: dict, other: dict, flag: str) -> set[str]:
    """A row's flagged concepts, named by the other row's concept they share a span with."""
    from judging import fold

    names = set()
    other_span = {
        (m[0], m[1], m[2]): fold(c["name"]) for c in other["concepts"] for m in c["mentions"]
    }
    for c in row["concepts"]:
        if not c.get(flag):
            continue
        shared = [
            other_span[(m[0], m[1], m[2])]
            for m in c["mentions"]
            if (m[0], m[1], m[2]) in other_span
        ]
        names.add(shared[0] if shared else fold(c["name"]))
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("batches", help="list the batches")
    show = sub.add_parser("show", help="print a batch's papers for reading")
    show.add_argument("batch")
    show.add_argument("--start", type=int, default=0)
    show.add_argument("--count", type=int, default=BATCH_SIZE)
    spans = sub.add_parser("spans", help="draft JSONL -> annotations/BATCH.jsonl")
    spans.add_argument("draft", type=Path)
    agree = sub.add_parser("agree", help="a check batch against the first readers")
    agree.add_argument("check", nargs="+")
    sub.add_parser("stats", help="papers, concepts and labels annotated")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).parent))

    papers = load_papers()
    all_batches = batches(list(papers))
    if args.command == "batches":
        for name, ids in all_batches.items():
            print(f"{name:10} {len(ids):3} papers  {ids[0]} .. {ids[-1]}")
        return 0
    if args.command == "show":
        ids = all_batches[args.batch][args.start : args.start + args.count]
        for i, pid in enumerate(ids, start=args.start):
            p = papers[pid]
            print(f"=== [{i}] paper_id: {pid}\nTITLE: {p.title}\nABSTRACT: {p.abstract}\n")
        return 0
    if args.command == "spans":
        return to_spans(args.draft, papers, all_batches)
    if args.command == "agree":
        second = {k: v for c in args.check for k, v in load_annotations(c).items()}
        first = load_annotations()
        print(json.dumps(agreement(first, second), indent=1))
        print("per batch of the first reader (5 papers each):")
        for batch in [b for b in all_batches if not b.startswith("check")]:
            ours = {k: v for k, v in first.items() if v["batch"] == batch}
            row = agreement(ours, second)
            print(f"  {batch:9} " + "  ".join(f"{k} {v}" for k, v in row.items()))
        return 0
    if args.command == "stats":
        rows = load_annotations()
        per_split = Counter(r["split"] for r in rows.values())
        labels = Counter(c["label"] for r in rows.values() for c in r["concepts"] if c["specific"])
        print(dict(per_split), dict(labels))
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
