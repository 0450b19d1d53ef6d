"""How well does concept resolution merge what is the same and keep apart what is not?

One command::

    python bench/merging.py            # all of it (NeurIPS extraction takes a few minutes)
    python bench/merging.py --quick    # gold pairs and the synthetic speed test only
    python bench/merging.py --errors   # also list every unannotated, wrong and missed merge

Gold pairs (pairwise merge precision and recall)
    Gold mentions are grouped per document into :class:`PaperMentions`, acronym
    definitions are found the way the extractor finds them (the Schwartz-Hearst
    matcher of ``extract/nlp/components/acronyms.py`` run over the detokenised text),
    everything goes through :func:`resolve_concepts`, and a *predicted merge* is two
    gold mentions of one document that get the same concept.

    * SciERC coreference, dev and train: the rules were tuned on dev, so the 350
      train abstracts are the check that a rule generalises. Mentions of types
      Method, Task, Material (as DATASET) and Metric; ``Generic`` (pronoun-like "this paper", "the method")
      and ``OtherScientificTerm`` mentions are left out. A gold pair is two
      mentions of one cluster with the same type. "precision" counts every other
      predicted pair of one document and type as wrong; "judged" precision counts
      as wrong only pairs the gold says differ: in two clusters, or linked by a
      relation (USED-FOR, CONJUNCTION, COMPARE, ...). Coreference is about
      referents, not concepts, so even identical strings often sit in different
      clusters or none. Rows: all pairs, and only pairs whose surface strings
      differ (the merges exact string matching cannot make).
    * SciER dev ``Synonym-Of`` (``dev.plm.jsonl``, token offsets): a gold entity is
      a set of surface strings of one document joined by Synonym-Of (transitively);
      pairs are pairs of *distinct* strings of one document and label. SciER only
      marks Synonym-Of where a sentence states it, so "strict" precision counts
      every other merge as wrong (under-estimates precision: "CNN" with "CNNs" is
      counted wrong unless annotated) and "judged" precision counts as wrong only
      merges of strings the gold links by another relation (Part-Of, Compare-With,
      SubClass-Of, ...), i.e. that it says are different things.

    The "exact string" rows are the baseline of one node per surface string.

NeurIPS 2023 (3,218 abstracts, ``../shared/data/neurips2023``)
    Mentions from paperkg's extractor (``load_pipeline`` + ``extract_mentions``);
    concept nodes per 1,000 mentions before (one node per label and exact surface
    string) and after resolution, and the 30 largest merges for a person to read.

Synthetic speed test
    20,000 mentions of ~5,000 made-up multiword names with plural, case, hyphen and
    typo variants and acronym definitions: time of one ``resolve_concepts`` call.
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import pickle
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

import spacy

from paperkg.extract.evaluate.gold import detokenize
from paperkg.extract.nlp.components.acronyms import find_acronym_definitions
from paperkg.extract.resolve import resolve_concepts
from paperkg.records import Mention, Paper, PaperMentions

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data"
SCIERC_TYPES = {"Method": "METHOD", "Task": "TASK", "Material": "DATASET", "Metric": "METRIC"}
SCIER_TYPES = {"Method": "METHOD", "Task": "TASK", "Dataset": "DATASET"}
_PTB = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "``": '"', "''": '"'}

_blank = spacy.blank("en")
_blank.add_pipe("sentencizer")


# --------------------------------------------------------------------------- gold documents


def _document(doc_id: str, record: dict, types: dict[str, str], join_digits: bool):
    """PaperMentions of one DyGIE-format document, and per mention its token span."""
    tokens = [t for sentence in record["sentences"] for t in sentence]
    text, starts = detokenize(tokens, join_digits=join_digits)
    words = [_PTB.get(t, t) for t in tokens]
    sentence_of = [i for i, s in enumerate(record["sentences"]) for _ in s]
    sentence_start = [0]
    for s in record["sentences"]:
        sentence_start.append(sentence_start[-1] + len(s))
    nlp_doc = _blank(text)
    acronyms = {s.text: lf.text for lf, s in find_acronym_definitions(nlp_doc)}
    mentions, spans = [], []
    for sentence in record["ner"]:
        for first, last, etype in sentence:
            if etype not in types:
                continue
            start, end = starts[first], starts[last] + len(words[last])
            s = sentence_of[first]
            s_start = starts[sentence_start[s]]
            s_last = sentence_start[s + 1] - 1
            s_end = starts[s_last] + len(words[s_last])
            surface = text[start:end]
            mentions.append(
                Mention(
                    surface,
                    types[etype],
                    start,
                    end,
                    text[s_start:s_end],
                    long_form=acronyms.get(surface),
                )
            )
            spans.append((first, last))
    paper = Paper(id=doc_id, abstract=text, text=text, source=doc_id)
    return PaperMentions(paper, mentions, acronyms), spans


def _prf(correct: int, predicted: int, gold: int) -> tuple[float, float]:
    return (correct / predicted if predicted else 1.0), (correct / gold if gold else 0.0)


def scierc_pairs(
    path: Path, errors: list[str], misses: list[str], split: str = "dev"
) -> list[tuple]:
    """Rows for SciERC coreference of one split ("dev", or "train" as held-out data)."""
    docs, spans_of, gold_clusters, relations = [], [], [], []
    for line in path.open(encoding="utf-8"):
        record = json.loads(line)
        found, spans = _document(record["doc_key"], record, SCIERC_TYPES, join_digits=False)
        docs.append(found)
        spans_of.append(spans)
        cluster = {}
        for c, members in enumerate(record["clusters"]):
            for first, last in members:
                cluster[(first, last)] = c
        gold_clusters.append(cluster)
        relations.append(
            {
                frozenset(((s1, e1), (s2, e2)))
                for sentence in record["relations"]
                for s1, e1, s2, e2, _ in sentence
            }
        )
    resolution = resolve_concepts(docs)

    counts = {k: Counter() for k in ("all", "distinct")}
    for found, spans, cluster, related, concepts in zip(
        docs, spans_of, gold_clusters, relations, resolution.concept_of, strict=True
    ):
        for i, j in itertools.combinations(range(len(found.mentions)), 2):
            a, b = found.mentions[i], found.mentions[j]
            if a.label != b.label:
                continue
            ca, cb = cluster.get(spans[i]), cluster.get(spans[j])
            gold = ca is not None and ca == cb
            # the gold says they differ: two clusters, or a relation between them
            different = (ca is not None and cb is not None and ca != cb) or frozenset(
                (spans[i], spans[j])
            ) in related
            exact = a.text == b.text
            ours = concepts[i] is not None and concepts[i] == concepts[j]
            for subset in ("all", "distinct"):
                if subset == "distinct" and exact:
                    continue
                c = counts[subset]
                c["gold"] += gold
                c["exact_pred"] += exact
                c["exact_ok"] += exact and gold
                c["exact_wrong"] += exact and different
                c["ours_pred"] += ours
                c["ours_ok"] += ours and gold
                c["ours_wrong"] += ours and different
                if ours and not gold and subset == "distinct":
                    kind = "WRONG (gold: different)" if different else "unannotated"
                    errors.append(
                        f"SciERC {split} {found.paper.id}: {kind} merge {a.text!r} + {b.text!r}"
                    )
                if gold and not ours and subset == "distinct":
                    misses.append(
                        f"SciERC {split} {found.paper.id}: missed {a.text!r} + {b.text!r}"
                    )
    rows = []
    for subset, title in (("all", "all pairs"), ("distinct", "distinct strings")):
        c = counts[subset]
        for method in ("exact", "ours"):
            p, r = _prf(c[f"{method}_ok"], c[f"{method}_pred"], c["gold"])
            ok, wrong = c[f"{method}_ok"], c[f"{method}_wrong"]
            judged = ok / (ok + wrong) if ok + wrong else 1.0
            rows.append(
                (
                    f"SciERC {split} coref, {title}",
                    "exact string" if method == "exact" else "paperkg",
                    c["gold"],
                    c[f"{method}_pred"],
                    c[f"{method}_ok"],
                    p,
                    judged,
                    r,
                )
            )
    return rows


def scier_pairs(path: Path, errors: list[str], misses: list[str]) -> list[tuple]:
    """Rows for SciER dev Synonym-Of, at the level of distinct strings per document."""
    rows_ours, rows_exact = Counter(), Counter()
    docs, meta = [], []
    for line in path.open(encoding="utf-8"):
        record = json.loads(line)
        found, spans = _document(record["doc_id"], record, SCIER_TYPES, join_digits=True)
        docs.append(found)
        meta.append((record, spans))
    resolution = resolve_concepts(docs)
    for found, (record, spans), concepts in zip(docs, meta, resolution.concept_of, strict=True):
        by_span = {span: k for k, span in enumerate(spans)}
        # string nodes: (label, surface) -> first mention index
        node_of: dict[tuple[str, str], int] = {}
        for k, m in enumerate(found.mentions):
            node_of.setdefault((m.label, m.text), k)
        parent = {n: n for n in node_of}

        def find(n, parent=parent):
            while parent[n] != n:
                n = parent[n]
            return n

        related: set[frozenset] = set()
        cross_label = 0
        for sentence in record["relations"]:
            for s1, e1, s2, e2, rtype in sentence:
                k1, k2 = by_span.get((s1, e1)), by_span.get((s2, e2))
                if k1 is None or k2 is None:
                    continue
                m1, m2 = found.mentions[k1], found.mentions[k2]
                n1, n2 = (m1.label, m1.text), (m2.label, m2.text)
                if rtype == "Synonym-Of":
                    if m1.label != m2.label:
                        cross_label += 1
                        misses.append(f"SciER {found.paper.id}: cross-label {n1} / {n2}")
                        continue
                    parent[find(n1)] = find(n2)
                else:
                    related.add(frozenset((n1, n2)))
        rows_ours["cross_label"] += cross_label
        rows_exact["cross_label"] += cross_label
        for n1, n2 in itertools.combinations(node_of, 2):
            if n1[0] != n2[0]:
                continue
            gold = find(n1) == find(n2)
            judged = gold or frozenset((n1, n2)) in related
            c1, c2 = concepts[node_of[n1]], concepts[node_of[n2]]
            ours = c1 is not None and c1 == c2
            rows_ours["gold"] += gold
            rows_ours["pred"] += ours
            rows_ours["ok"] += ours and gold
            rows_ours["wrong"] += ours and judged and not gold
            rows_exact["gold"] += gold
            if ours and not gold:
                kind = "WRONG (other relation)" if judged else "unannotated"
                errors.append(f"SciER {found.paper.id}: {kind} merge {n1[1]!r} + {n2[1]!r}")
            if gold and not ours:
                misses.append(f"SciER {found.paper.id}: missed {n1[1]!r} + {n2[1]!r}")
    rows = []
    g = rows_ours["gold"] + rows_ours["cross_label"]  # cross-label synonyms can never merge
    rows.append(("SciER dev Synonym-Of, distinct strings", "exact string", g, 0, 0, 1.0, 1.0, 0.0))
    p, r = _prf(rows_ours["ok"], rows_ours["pred"], g)
    ok, wrong = rows_ours["ok"], rows_ours["wrong"]
    judged = ok / (ok + wrong) if ok + wrong else 1.0
    rows.append(
        (
            "SciER dev Synonym-Of, distinct strings",
            "paperkg",
            g,
            rows_ours["pred"],
            rows_ours["ok"],
            p,
            judged,
            r,
        )
    )
    return rows


# --------------------------------------------------------------------------- NeurIPS 2023

_ANCHOR = re.compile(r",https://openreview\.net/forum\?id=([^,]+),")


def read_neurips(folder: Path) -> list[Paper]:
    """Papers of the NeurIPS 2023 CSVs, split with the anchor rule of their SOURCE.md."""
    try:
        from paperkg.extract.readers.latex import clean_text
    except ImportError:  # the readers land separately; raw text is close enough

        def clean_text(raw):
            return raw, []

    papers = []
    for path in sorted(folder.glob("*.csv")):
        lines = path.read_text(encoding="utf-8").splitlines()[1:]
        for number, line in enumerate(lines, start=2):
            anchor = _ANCHOR.search(line)
            paper_id, _, title = line[: anchor.start()].partition(",")
            rest = line[anchor.end() :]
            if rest.startswith('"'):
                keywords, _, abstract = rest[1:].partition('",')
            else:
                keywords, _, abstract = rest.partition(",")
            abstract = abstract.strip()
            if abstract.startswith('"') and abstract.endswith('"'):
                abstract = abstract[1:-1]
            abstract = abstract.replace('""', '"')
            text, _ = clean_text(abstract)
            papers.append(
                Paper(
                    id=paper_id,
                    abstract=abstract,
                    text=text,
                    source=f"{path.name}#{number}",
                    title=title,
                    year=2023,
                    venue="NeurIPS",
                    keywords=[k.strip() for k in re.split(r"[,;]", keywords) if k.strip()],
                )
            )
    return papers


def neurips_mentions(cache: Path | None) -> tuple[list[PaperMentions], str]:
    if cache is not None and cache.exists():
        with cache.open("rb") as handle:
            return pickle.load(handle), f"extractor (cached in {cache})"
    from paperkg.extract.nlp.extractor import extract_mentions
    from paperkg.extract.nlp.pipeline import load_pipeline

    papers = read_neurips(DATA / "neurips2023")
    nlp = load_pipeline()
    start = time.perf_counter()
    results = extract_mentions(nlp, papers, batch_size=64)
    source = f"extractor ({', '.join(nlp.pipe_names)}; {time.perf_counter() - start:.0f} s)"
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        with cache.open("wb") as handle:
            pickle.dump(results, handle)
    return results, source


def neurips_report(results: list[PaperMentions], source: str, top: int) -> list[str]:
    mentions = [m for r in results for m in r.mentions]
    exact_nodes = len({(m.label, m.text) for m in mentions})
    start = time.perf_counter()
    resolution = resolve_concepts(results)
    seconds = time.perf_counter() - start
    kept = resolution.mention_count
    lines = [
        f"## NeurIPS 2023: {len(results)} abstracts, mentions from the {source}",
        "",
        "| mentions | nodes before (exact strings) | per 1,000 | generic dropped "
        "| concepts after | per 1,000 | ambiguous acronyms | resolve_concepts |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {len(mentions):,} | {exact_nodes:,} | {1000 * exact_nodes / len(mentions):.0f} "
        f"| {len(mentions) - kept:,} | {len(resolution.concepts):,} "
        f"| {1000 * len(resolution.concepts) / len(mentions):.0f} "
        f"| {len(resolution.ambiguous_acronyms)} | {seconds:.2f} s |",
        "",
        f"### The {top} largest merges (by distinct surface forms)",
        "",
    ]
    largest = sorted(
        resolution.concepts.values(), key=lambda c: (-len(c.aliases), -sum(c.aliases.values()))
    )[:top]
    for rank, concept in enumerate(largest, start=1):
        lines.append(
            f"{rank}. **{concept.id}** ({concept.name!r}, {sum(concept.aliases.values())} "
            f"mentions, {len(concept.aliases)} forms)"
        )
        for alias, count in list(concept.aliases.items())[:8]:
            reason = concept.merge_reasons.get(alias, "the name")
            lines.append(f"   - {alias!r} x{count}: {reason}")
        if len(concept.aliases) > 8:
            lines.append(f"   - ... {len(concept.aliases) - 8} more")
    if resolution.ambiguous_acronyms:
        lines += ["", "### Ambiguous acronyms left apart (first 15)", ""]
        for short, forms in list(sorted(resolution.ambiguous_acronyms.items()))[:15]:
            lines.append(f"- {short}: {' | '.join(forms)}")
    return lines


# --------------------------------------------------------------------------- speed


def synthetic_corpus(n_mentions: int = 20_000, seed: int = 0) -> list[PaperMentions]:
    """Papers of made-up concept names with plural, case, hyphen and typo variants."""
    rng = random.Random(seed)
    syllables = "ka lo mi ne ru ta vo shi pe da gra lin tor bel sim ven qua rix".split()
    words = sorted({"".join(rng.sample(syllables, rng.randint(2, 4))) for _ in range(3000)})
    labels = ["METHOD", "DATASET", "TASK", "METRIC"]
    names = [
        (" ".join(rng.sample(words, rng.randint(1, 4))), rng.choice(labels)) for _ in range(5000)
    ]

    def variant(name: str) -> str:
        roll = rng.random()
        if roll < 0.2:
            return name + "s"
        if roll < 0.3:
            return name.title()
        if roll < 0.4:
            return name.replace(" ", "-", 1)
        if roll < 0.45 and len(name) > 8:
            i = rng.randrange(1, len(name) - 1)
            return name[:i] + name[i + 1] + name[i] + name[i + 2 :]
        return name

    results = []
    for p in range(n_mentions // 10):
        mentions, acronyms = [], {}
        for _ in range(10):
            name, label = rng.choice(names)
            text = variant(name)
            long_form = None
            if " " in name and rng.random() < 0.1:
                short = "".join(w[0] for w in name.split()).upper()
                acronyms[short] = name
                text, long_form = short, name
            mentions.append(Mention(text, label, 0, len(text), "", long_form=long_form))
        paper = Paper(id=f"s{p}", abstract="", text="", source="synthetic")
        results.append(PaperMentions(paper, mentions, acronyms))
    return results


# --------------------------------------------------------------------------- main


def _pct(x: float | None) -> str:
    return "" if x is None else f"{x:.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="skip the NeurIPS extraction")
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path("/tmp/paperkg-bench/neurips2023-mentions.pkl"),
        help="where extracted NeurIPS mentions are cached (delete to re-extract)",
    )
    parser.add_argument("--errors", action="store_true", help="list wrong and missed merges")
    parser.add_argument("--top", type=int, default=30, help="how many largest merges to list")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    if not DATA.exists():
        print(f"{DATA} is missing: the benchmark needs the shared data sets.", file=sys.stderr)
        return 1

    errors: list[str] = []
    misses: list[str] = []
    rows = scierc_pairs(DATA / "scierc" / "dev.json", errors, misses)
    rows += scierc_pairs(DATA / "scierc" / "train.json", errors, misses, split="train")
    rows += scier_pairs(DATA / "scier" / "dev.plm.jsonl", errors, misses)
    print(
        "## Pairwise merge precision and recall against gold pairs (targets P >= 0.95, R >= 0.70)"
    )
    print()
    print(
        "| gold | merging | gold pairs | predicted merges | correct | precision "
        "| precision (judged) | recall |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for data, method, gold, pred, ok, p, judged, r in rows:
        print(
            f"| {data} | {method} | {gold} | {pred} | {ok} | {_pct(p)} | {_pct(judged)} "
            f"| {_pct(r)} |"
        )
    print()
    print(
        "SciERC: Generic and OtherScientificTerm mentions excluded; Material counted as "
        "DATASET. SciER: cross-label Synonym-Of pairs count as gold (and can never be merged)."
    )
    if args.errors:
        print("\n### Merges not in the gold\n")
        print("\n".join(f"- {e}" for e in errors))
        print("\n### Missed gold pairs\n")
        print("\n".join(f"- {m}" for m in misses))

    synthetic = synthetic_corpus()
    start = time.perf_counter()
    res = resolve_concepts(synthetic)
    seconds = time.perf_counter() - start
    print(
        f"\nSpeed: synthetic corpus of {res.mention_count:,} mentions -> "
        f"{len(res.concepts):,} concepts in {seconds:.2f} s (one core)."
    )

    if not args.quick:
        results, source = neurips_mentions(args.cache)
        print()
        print("\n".join(neurips_report(results, source, args.top)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
