"""Where the key concepts of an annotated split are lost between the NER and the graph.

    python3 bench/key_losses.py [--split select] [--model NER_PIPELINE] [--examples 12]

``bench/annotated.py`` counts the key concepts a build finds; this says what became
of the others, so that work goes where the losses are. NeurIPS 2023 is built up to
its concept decision (the extraction cache makes that a minute or two), then decided
as the build decides, and every key concept (specific and key in
``bench/judged/annotations``, GUIDE.md section 5) of the split's papers is put in one
of these classes:

- ``found``: a link names it under its annotated label (``bench/annotated.py``'s
  ``right``);
- ``wrong label``: a link names it under another label;
- ``left out by the decision``: a concept named it before the decision, which left
  it out (a word-list rule, or the concept model's chance under its threshold: the
  reasons are counted);
- ``cut otherwise``: no concept named it, but a mention is a run of its words or
  holds it ("kernel" for "kernel methods");
- ``no mention``: the NER and the corpus terms found nothing of it.

Only choices made on ``select`` should follow from this; ``test`` stays held out.
"""

from __future__ import annotations

import argparse
import glob
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from annotated import _inside, concept_forms  # noqa: E402
from annotation import SHARED, load_annotations  # noqa: E402
from concept_training import paper_judgements, undecided_build  # noqa: E402
from corpora import add_model_option  # noqa: E402
from judging import fold  # noqa: E402

from paperkg.extract.corpus.concept_model import decide_concepts  # noqa: E402

CLASSES = ("found", "wrong label", "left out by the decision", "cut otherwise", "no mention")


def key_losses(results, undecided, decided, annotations, split: str):
    """Per key concept of ``split``: ``(class, label, name, detail)``."""
    before = paper_judgements(results, undecided, annotations)
    after = paper_judgements(results, decided, annotations)
    rows = []
    for result in results:
        paper_id = result.paper.id
        if paper_id not in before or before[paper_id][0] != split:
            continue
        _, concepts, judged_before = before[paper_id]
        judged_after = after[paper_id][2]
        texts = [fold(m.text) for m in result.mentions]
        for i, concept in enumerate(concepts):
            if not (concept["specific"] and concept["key"]):
                continue
            labels_after = {
                decided.concepts[cid].label for cid, (_, _, index) in judged_after.items()
                if index == i
            }  # fmt: skip
            named_before = [cid for cid, (_, _, index) in judged_before.items() if index == i]
            forms = concept_forms(concept)
            if concept["label"] in labels_after:
                kind, detail = "found", ""
            elif labels_after:
                kind, detail = "wrong label", " / ".join(sorted(labels_after))
            elif named_before:
                kind = "left out by the decision"
                detail = decided.generic.get(named_before[0], "?").split(":")[0]
            elif any(_inside(t, f) or _inside(f, t) for t in texts for f in forms if t):
                kind = "cut otherwise"
                detail = next(
                    m.text
                    for m, t in zip(result.mentions, texts, strict=True)
                    if t and any(_inside(t, f) or _inside(f, t) for f in forms)
                )
            else:
                kind, detail = "no mention", ""
            rows.append((kind, concept["label"], concept["name"], detail))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", default="select", choices=("select", "test", "train"))
    parser.add_argument("--examples", type=int, default=12, help="names shown per class")
    add_model_option(parser)
    args = parser.parse_args(argv)
    paths = sorted(glob.glob(str(SHARED / "*.csv")))
    results, undecided, _ = undecided_build(paths, args.model)
    decided = decide_concepts(results, undecided)
    rows = key_losses(results, undecided, decided, load_annotations(), args.split)
    by_label: dict[str, Counter] = defaultdict(Counter)
    for kind, label, _, _ in rows:
        by_label[kind][label] += 1
    print(f"{len(rows)} key concepts of {args.split}")
    for kind in CLASSES:
        counts = by_label[kind]
        per_label = ", ".join(f"{label} {n}" for label, n in sorted(counts.items()))
        print(f"  {kind:26} {sum(counts.values()):4}  ({per_label})")
    reasons = Counter(d for k, _, _, d in rows if k == "left out by the decision")
    print("left out by:", ", ".join(f"{why} {n}" for why, n in reasons.most_common()))
    for kind in CLASSES[1:]:
        shown = [f"{name} ({detail})" if detail else name
                 for k, _, name, detail in rows if k == kind][: args.examples]  # fmt: skip
        print(f"{kind}: " + "; ".join(shown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
