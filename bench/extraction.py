"""Extraction benchmark: one command, one table.

    python3 bench/extraction.py [--data ../shared/data] [--keywords-limit N] [--json OUT]
                                [--compare PIPELINE] [--jobs N]

Scores, in one run and on one core, these systems, exact span match (and
lenient, overlap + same label), on the sets that chose nothing (SciERC dev,
SciER dev as ``dev.plm.jsonl`` with exact token offsets, and the held-out last
20% of TDMSci train) and, apart, on the parts of train kept back to choose the
shipped model's checkpoint and rule switches (``train-sel``); first of all, on
the in-domain NeurIPS 2023 annotations (``bench/judged/annotations``, read by
:func:`~paperkg.extract.evaluate.annotations.read_annotations`): *test*, held
out, and *select*:

(a) noun-chunk baseline: the stock English pipeline's noun chunks, determiners
    and pronouns stripped, typed by their head word (:data:`HEAD_TYPES`,
    anything else -> METHOD);
(b) the stock English NER (en_core_web_sm 3.8.0), its labels mapped to ours by
    :data:`STOCK_NER_MAP` (other labels dropped);
(c) paperkg's default pipeline (``load_pipeline()``: the shipped transformer
    NER + rule components), plus (c0) the shipped NER alone and (c+) the
    pipeline followed by the corpus-terms step of ``paperkg build`` with the
    eval set as the corpus;
(d) with ``--compare PIPELINE``, another pipeline (a folder), beside them.

A public set is read in its own corpus's annotation style when the NER learnt it
(as ``paperkg eval`` reads it); the in-domain sets in the style a build reads.

Speed is abstracts per second on SciERC dev (its 50 abstracts twice, best of
three passes, ``nlp.pipe``, one thread). Then a full ``paperkg.api.build`` of
the 3,218 NeurIPS 2023 abstracts (``--jobs`` processes; default one per core),
timed end to end, and from it: author-keyword recall (of the author keywords
that occur in their own abstract, case-insensitive, on word boundaries, the
share found as a concept of that paper, by its name or one of its aliases,
compared lower-cased, hyphens and spaces folded, a final plural -s dropped;
and, looser, as words inside one; and counting only edges the spaCy pipeline
found, then adding corpus-term edges, then IS_A edges); the scores against the
judged NeurIPS samples (``bench/judged/``, :mod:`judging`); and the 30 most used
concepts of each label, marked with their judged verdicts. What it prints replaces
this script's section of ``bench/RESULTS.md`` (:mod:`results`).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import spacy  # noqa: E402

from paperkg.extract.evaluate import (  # noqa: E402
    evaluate,
    predict_spans,
    read_gold,
    split_for_selection,
    split_tdmsci,
)
from paperkg.extract.evaluate.readers import CORPUS_LABELS  # noqa: E402
from paperkg.extract.nlp.pipeline import (  # noqa: E402
    BASE_MODEL,
    load_pipeline,
    load_saved,
    resolve_model,
)

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))  # judging and results, beside this file

from results import run_and_record  # noqa: E402

#: head word (lower case) -> our type, for the noun-chunk baseline
HEAD_TYPES = {
    **dict.fromkeys(
        "dataset datasets corpus corpora benchmark benchmarks treebank data".split(), "DATASET"
    ),
    **dict.fromkeys(
        "accuracy precision recall f1 f-score f-measure bleu rouge error rate score "
        "perplexity auc map".split(),
        "METRIC",
    ),
    **dict.fromkeys(
        "task tasks problem problems classification detection recognition segmentation "
        "translation parsing generation retrieval prediction estimation tracking "
        "summarization answering".split(),
        "TASK",
    ),
}

#: stock en_core_web_sm NER label -> our type (labels not listed are dropped)
STOCK_NER_MAP = {
    "ORG": "METHOD",
    "PRODUCT": "METHOD",
    "PERSON": "METHOD",
    "NORP": "METHOD",
    "WORK_OF_ART": "DATASET",
    "FAC": "DATASET",
    "LAW": "DATASET",
    "EVENT": "TASK",
}

_SKIP_POS = {"DET", "PRON"}


def noun_chunk_baseline(nlp):
    def predict(texts):
        out = []
        for doc in nlp.pipe(texts, batch_size=64):
            spans = []
            for chunk in doc.noun_chunks:
                tokens = [t for t in chunk if t.pos_ not in _SKIP_POS]
                if not tokens:
                    continue
                head = chunk.root.lower_
                label = HEAD_TYPES.get(head, "METHOD")
                spans.append((tokens[0].idx, tokens[-1].idx + len(tokens[-1]), label))
            out.append(spans)
        return out

    return predict


def stock_ner(nlp):
    def predict(texts):
        return [
            [
                (e.start_char, e.end_char, STOCK_NER_MAP[e.label_])
                for e in doc.ents
                if e.label_ in STOCK_NER_MAP
            ]
            for doc in nlp.pipe(texts, batch_size=64)
        ]

    return predict


def with_corpus_terms(nlp):
    """The pipeline, then :mod:`paperkg.extract.corpus.corpus_terms` over the eval set as the corpus."""
    from paperkg.extract.corpus import corpus_terms
    from paperkg.extract.nlp.mentions import mentions_from_doc
    from paperkg.records import Paper, PaperMentions

    def predict(texts):
        results = []
        for i, doc in enumerate(nlp.pipe(texts, batch_size=64)):
            mentions, _ = mentions_from_doc(doc)
            paper = Paper(id=str(i), abstract=doc.text, text=doc.text, source=str(i))
            results.append(PaperMentions(paper, mentions))
        terms = corpus_terms.find_corpus_terms(results)
        results = corpus_terms.with_corpus_terms(results, terms)
        return [[(m.start, m.end, m.label) for m in r.mentions] for r in results]

    return predict


def ner_alone(nlp):
    def predict(texts):
        return [
            [(e.start_char, e.end_char, e.label_) for e in doc.ents]
            for doc in nlp.pipe(texts, batch_size=64)
        ]

    return predict


def eval_sets(data: Path) -> dict[str, tuple[str, list]]:
    """The sets every system is scored on, the untouched ones first.

    *dev* sets and TDMSci's held-out 20% choose nothing any more; the
    *train-sel* sets (the part of each training corpus kept back,
    :func:`~paperkg.extract.evaluate.split_for_selection`) chose the shipped
    model's checkpoint and its rule switches, so their scores are the tuned ones.
    """
    scierc_train = read_gold(data / "scierc" / "train.json", "scierc")
    scier_train = read_gold(data / "scier" / "train.jsonl", "scier")
    tdmsci_part, tdmsci_heldout = split_tdmsci(
        read_gold(data / "tdmsci" / "train_1500_v2.conll", "tdmsci")
    )
    return {
        **in_domain_sets(data),
        "SciERC dev": ("scierc", read_gold(data / "scierc" / "dev.json", "scierc")),
        "SciER dev": ("scier", read_gold(data / "scier" / "dev.plm.jsonl", "scier")),
        "TDMSci held-out": ("tdmsci", tdmsci_heldout),
        "SciERC train-sel": ("scierc", split_for_selection(scierc_train, "scierc")[1]),
        "SciER train-sel": ("scier", split_for_selection(scier_train, "scier")[1]),
        "TDMSci train-sel": ("tdmsci", split_for_selection(tdmsci_part, "tdmsci")[1]),
    }


def in_domain_sets(data: Path) -> dict[str, tuple[None, list]]:
    """The annotated NeurIPS 2023 papers as gold mentions, every label scored: *test*
    (held out: annotated from scratch, only scored) and *select* (where choices are
    made); none without the NeurIPS inputs."""
    from paperkg.extract.evaluate.annotations import read_annotations
    from paperkg.extract.readers import read_inputs

    inputs = sorted((data / "neurips2023").glob("*.csv"))
    if not inputs:
        return {}
    papers = {p.id: p for p in read_inputs(inputs).papers}
    files = sorted(
        p
        for p in (REPO / "bench" / "judged" / "annotations").glob("*.jsonl")
        if not p.name.startswith("check")
    )
    splits = read_annotations(files, papers)
    return {"NeurIPS test (in-domain)": (None, splits["test"]),
            "NeurIPS select": (None, splits["select"])}  # fmt: skip


# --------------------------------------------------------------------------- NeurIPS keywords

_ANCHOR = re.compile(r",https://openreview\.net/forum\?id=([^,]+),")


def read_neurips(folder: Path) -> list[dict]:
    """Parse the NeurIPS 2023 CSVs by their link anchor (their CSV quoting is broken)."""
    papers = []
    for name in ("oral.csv", "spotlight.csv", "poster.csv"):
        lines = (folder / name).read_text(encoding="utf-8").splitlines()[1:]
        for line in lines:
            m = _ANCHOR.search(line)
            if not m:
                continue
            paper_id = line[: line.index(",")]
            title = line[len(paper_id) + 1 : m.start()]
            rest = line[m.end() :]
            if rest.startswith('"'):
                end = rest.index('",')
                keywords, abstract = rest[1:end], rest[end + 2 :]
            else:
                keywords, _, abstract = rest.partition(",")
            if abstract.startswith('"') and abstract.endswith('"'):
                abstract = abstract[1:-1]
            abstract = abstract.replace('""', '"')
            sep = ";" if ";" in keywords and "," not in keywords else ","
            papers.append(
                {
                    "id": paper_id,
                    "title": title.strip().strip('"'),
                    "abstract": abstract.strip(),
                    "keywords": [k.strip() for k in keywords.split(sep) if k.strip()],
                    "venue": "NeurIPS",
                    "year": 2023,
                }
            )
    return papers


def _fold(text: str) -> str:
    """Lower case, hyphens and spaces folded, a plural -s on the last word dropped."""
    folded = re.sub(r"[\s\-‐–]+", " ", text.lower()).strip()
    return re.sub(r"(?<=[a-z]{3})s$", "", folded)


#: the lexicon and term rules were tuned by reading the misses of the first 800 papers
TUNED = 800


def neurips_build(papers: list[dict], model: str | None = None, jobs: int | None = None):
    """A full ``paperkg.api.build`` of ``papers``: the result and its seconds."""
    from paperkg.api import build

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "neurips2023.jsonl"
        with path.open("w", encoding="utf-8") as f:
            for p in papers:
                f.write(json.dumps(p) + "\n")
        started = time.perf_counter()
        result = build([path], model=model, jobs=jobs)
        seconds = time.perf_counter() - started
    return result, seconds


def keyword_recall(graph, papers: list[dict]) -> dict:
    """Author-keyword recall of a build's graph over ``papers``."""
    from paperkg.graph.schema import paper_node_id

    present = found = within = found_ner = found_direct = 0
    late_present = late_found = 0  # papers after the first TUNED ones
    for number, p in enumerate(papers):
        node = paper_node_id(p["id"])
        if node not in graph:
            continue
        # names of the paper's concepts: all of them; without IS_A-inferred edges
        # (``via``); and without edges only corpus-term matches support
        names, direct, ner = set(), set(), set()
        for _, concept, edge in graph.out_edges(node, data=True):
            attrs = graph.nodes[concept]
            forms = {_fold(attrs.get("name", ""))} | {_fold(a) for a in attrs.get("aliases", [])}
            names |= forms
            if not edge.get("via"):
                direct |= forms
                if not edge.get("corpus_match"):
                    ner |= forms
        for kw in p["keywords"]:
            if not re.search(rf"(?<!\w){re.escape(kw)}(?!\w)", p["abstract"], re.IGNORECASE):
                continue
            present += 1
            key = _fold(kw)
            found += key in names
            if number >= TUNED:
                late_present += 1
                late_found += key in names
            found_direct += key in direct
            found_ner += key in ner
            within += any(re.search(rf"(?<!\w){re.escape(key)}(?!\w)", n) for n in names)
    return {
        "papers": len(papers),
        "keywords_in_abstract": present,
        "found": found,
        "recall": found / present if present else 0.0,
        "recall_after_tuned_papers": late_found / late_present if late_present else None,
        "recall_pipeline_only": found_ner / present if present else 0.0,
        "recall_without_is_a": found_direct / present if present else 0.0,
        "found_within_concept": within,
        "recall_within_concept": within / present if present else 0.0,
    }


def print_judged(graph) -> dict:
    """Score the build against the judged NeurIPS samples and show its top concepts."""
    import judging

    judged = judging.load_judged()
    out = {s: judging.score(graph, judged, s) for s in judging.SAMPLES}
    out["top"] = judging.score_top(graph, judging.load_top())
    print(
        "\nJudged NeurIPS 2023 samples (bench/judged/, rules in bench/judged/GUIDE.md; "
        "dev and dev2 were read while working, test was not):"
    )
    for sample in judging.SAMPLES:
        judging.print_score(out[sample], f"  {sample}")
    print("\nThe 30 most used concepts of each label (papers; * = judged not right, ? = unjudged):")
    top_judged = judging.load_top()
    for label, row in out["top"].items():
        cells = []
        for name, papers in row["top"]:
            verdict = top_judged.get((label, judging.fold(name)))
            mark = "?" if verdict is None else ("" if verdict["verdict"] == "right" else "*")
            cells.append(f"{name}{mark} ({papers})")
        print(
            f"  {label} ({row['right']:.0%} right, {len(row['unjudged'])} unjudged): "
            + ", ".join(cells)
        )
    for sample in judging.SAMPLES:
        out[sample].pop("unjudged_links", None)
    return out


def print_annotated(graph) -> dict:
    """Score the build against the in-domain annotations (``bench/judged/annotations``):
    ``select`` is where every choice was made, ``test`` is held out and only scored."""
    import annotated
    from annotation import load_annotations

    every = load_annotations()
    found = annotated.extracted_mentions(
        [k for k, v in every.items() if v["split"] in annotated.SPLITS]
    )
    out: dict = {}
    print(
        "\nIn-domain annotations of NeurIPS 2023 (bench/judged/annotations, GUIDE.md section 5;"
        " select chose, test is held out):"
    )
    header = ["split", "papers", "mention F1", "links right", "generic", "wrong label",
              "cut wrongly", "key found", "Dataset key", "Metric key", "PROPOSES P", "R",
              "papers w/ PROPOSES", "dup pairs/paper"]  # fmt: skip
    rows = [header]
    for split in annotated.SPLITS:
        wanted = {k: v for k, v in every.items() if v["split"] == split}
        score = annotated.score_split(graph, wanted)
        score["mentions"] = annotated.mention_f1(found, wanted)
        out[split] = score
        verdict = score["verdicts"]
        rows.append([
            split, score["papers"], f"{100 * score['mentions']['f1']:.1f}",
            *(f"{100 * verdict[v]:.1f}%" for v in ("right", "generic", "wrong_label", "cut_wrongly")),
            f"{score['key_found']:.2f}", score["key_found_per_label"]["Dataset"],
            score["key_found_per_label"]["Metric"], f"{score['proposes_precision']:.2f}",
            f"{score['proposes_recall']:.2f}",
            score["papers_naming_a_contribution_with_a_proposes_edge"],
            f"{score['duplicate_pairs_per_paper']:.2f}",
        ])  # fmt: skip
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(header))]
    for r in rows:
        print("  " + "  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)))
    out["top30_annotated_right"] = annotated.top_right(graph, every)
    print(
        "  top 30 per label that are an annotated specific concept of that label: "
        + ", ".join(f"{label} {n}" for label, n in out["top30_annotated_right"].items())
    )
    return out


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--model", default=None, help="pipeline for (c) instead of the shipped one")
    parser.add_argument("--compare", default=None, help="another pipeline, scored as (d)")
    parser.add_argument("--keywords-model", default=None, help="model of the NeurIPS build")
    parser.add_argument("--keywords-limit", type=int, default=0, help="NeurIPS papers (0 = all)")
    parser.add_argument("--no-keywords", action="store_true", help="skip the NeurIPS build")
    parser.add_argument("--jobs", type=int, default=None, help="processes of the NeurIPS build")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    args = parser.parse_args(argv)
    data = args.data
    if not data.is_dir():
        print(f"{data} not found; pass --data", file=sys.stderr)
        return 2
    evalsets = eval_sets(data)
    stock = spacy.load(BASE_MODEL)
    ours = load_pipeline(args.model)
    shipped = load_saved(resolve_model(args.model))
    systems = {
        "(a) noun chunks": (stock, noun_chunk_baseline(stock)),
        "(b) stock NER mapped": (stock, stock_ner(stock)),
        "(c0) paperkg NER alone": (shipped, ner_alone(shipped)),
        "(c) paperkg pipeline": (ours, None),
        "(c+) + corpus terms": (ours, with_corpus_terms(ours)),
    }
    if args.compare:
        other = load_pipeline(args.compare)
        systems[f"(d) --model {args.compare}"] = (other, None)
    results: dict = {}
    speed: dict = {}
    speed_texts = [d.text for d in evalsets["SciERC dev"][1]] * 2
    for sys_name, (nlp, predict) in systems.items():
        run = predict or (lambda texts, nlp=nlp: predict_spans(nlp, texts))
        run(speed_texts[:5])  # lazy initialisation outside the timing
        for set_name, (fmt, docs) in evalsets.items():
            report = evaluate(nlp, docs, fmt, predict=predict, style=fmt)
            results.setdefault(sys_name, {})[set_name] = report
        # best of 3 passes over SciERC dev twice (100 abstracts): the least disturbed
        # by other processes on a shared machine
        timings = []
        for _ in range(3):
            started = time.perf_counter()
            run(speed_texts)
            timings.append(time.perf_counter() - started)
        speed[sys_name] = len(speed_texts) / min(timings)
    rows = []
    header = ["system", "eval set", *(lab[:4] for lab in CORPUS_LABELS["scierc"])]
    header += ["micro", "lenient", "abs/s"]
    for sys_name, by_set in results.items():
        for set_name, report in by_set.items():
            cells = [
                f"{100 * report.exact[lab]['f1']:.1f}" if lab in report.exact else "-"
                for lab in CORPUS_LABELS["scierc"]
            ]
            rate = f"{speed[sys_name]:.1f}" if set_name == "SciERC dev" else ""
            rows.append(
                [
                    sys_name,
                    set_name,
                    *cells,
                    f"{100 * report.exact['micro']['f1']:.1f}",
                    f"{100 * report.lenient['micro']['f1']:.1f}",
                    rate,
                ]
            )
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    print(
        "Exact-match F1 (lenient = overlap + same label, micro); "
        "abs/s: abstracts per second on SciERC dev, 1 thread"
    )
    for r in [header, *rows]:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)))
    out: dict = {
        s: {e: rep.to_dict() for e, rep in by_set.items()} for s, by_set in results.items()
    }
    out["abstracts_per_second"] = speed
    if not args.no_keywords:
        papers = read_neurips(data / "neurips2023")
        if args.keywords_limit:
            papers = papers[: args.keywords_limit]
        result, seconds = neurips_build(papers, args.keywords_model or args.model, args.jobs)
        kw = keyword_recall(result.graph, papers)
        kw["build_seconds"] = seconds
        out["neurips2023_keyword_recall"] = kw
        print(
            f"\nNeurIPS 2023 build: {kw['papers']} papers in {seconds:.0f} s "
            f"({kw['papers'] / seconds:.1f} papers/s end to end, --jobs {args.jobs or 'cores'})"
        )
        print(
            f"  author-keyword recall: {100 * kw['recall']:.1f}% "
            f"({kw['found']}/{kw['keywords_in_abstract']} keywords present in their abstract); "
            f"as words inside a concept name: {100 * kw['recall_within_concept']:.1f}%"
        )
        print(
            f"  same build, counting only edges the spaCy pipeline found: "
            f"{100 * kw['recall_pipeline_only']:.1f}%; plus corpus terms: "
            f"{100 * kw['recall_without_is_a']:.1f}%; plus IS_A (all edges): "
            f"{100 * kw['recall']:.1f}%"
        )
        if kw["recall_after_tuned_papers"] is not None:
            print(
                f"  on the papers after the first {TUNED} (not read while tuning rules): "
                f"{100 * kw['recall_after_tuned_papers']:.1f}%"
            )
        out["neurips2023_judged"] = print_judged(result.graph)
        out["neurips2023_annotated"] = print_annotated(result.graph)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(run_and_record("bench/extraction.py", main))
