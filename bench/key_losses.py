"""Where the key concepts of an annotated split are lost between the NER and the graph.

    python3 bench/key_losses.py [--split select] [--model NER_PIPELINE] [--examples 12]

``bench/annotated.py`` counts the key concepts a build finds; this says what became
of the others, so that work goes where the losses are. It builds NeurIPS 2023 itself
up to its concept decision (with the extraction cache, under a minute), decides as
the build decides (``docs/concept-resolution.md``, "Kept or generic, and the final
label"), and puts every key concept (specific and key in
``bench/judged/annotations``, GUIDE.md section 5) of the split's papers in one of
these kinds:

- ``found``: a concept the decision keeps names it, under its annotated label. The
  graph links a paper to every concept the decision keeps, so this is
  ``bench/annotated.py``'s count of key concepts found, except where one concept's
  name and aliases match two annotated concepts of different labels (here it goes
  to the first, there to the one of its label);
- ``wrong label``: a kept concept names it under another label, the vote's or the
  concept model's (a concept the decision relabels stays linked, so a wrong
  relabelling counts here, not as left out);
- ``left out by the decision``: only concepts the decision left out named it (a
  word-list rule, or the concept model's chance under its threshold; the first
  one's reason is counted);
- ``mentioned otherwise``: no concept named it, but a mention is it (the resolver
  dropped it), is a run of its words or holds it ("kernel" for "kernel methods").
  That mention may name something else ("Transformer" beside "vision Transformer"),
  so this is an upper bound;
- ``no mention``: no mention is it, is a run of its words or holds it.

Only choices made on ``select`` should follow from this; ``test`` stays held out.
"""

from __future__ import annotations

import argparse
import glob
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from annotated import judge_link  # noqa: E402
from annotation import SHARED, load_annotations  # noqa: E402
from concept_training import paper_judgements, undecided_build  # noqa: E402
from corpora import add_model_option  # noqa: E402

from paperkg.extract.corpus.concept_model import decide_concepts  # noqa: E402

KINDS = ("found", "wrong label", "left out by the decision", "mentioned otherwise", "no mention")


def key_losses(results, undecided, decided, annotations, split: str):
    """Per key concept of ``split``'s papers: ``(kind, label, name, detail)``.

    ``undecided`` and ``decided`` are the corpus's resolution before and after
    :func:`~paperkg.extract.corpus.concept_model.decide_concepts`. ``detail`` is the
    labels it was linked under (wrong label), the decision's reason (left out), or
    the mention that holds it or is part of it (mentioned otherwise).
    """
    before = paper_judgements(results, undecided, annotations)
    after = paper_judgements(results, decided, annotations)
    rows = []
    for result in results:
        paper_id = result.paper.id
        if paper_id not in before or before[paper_id][0] != split:
            continue
        _, concepts, judged_before = before[paper_id]
        judged_after = after[paper_id][2]
        for i, concept in enumerate(concepts):
            if not (concept["specific"] and concept["key"]):
                continue
            kind, detail = _kind(i, concept, result.mentions, judged_before, judged_after, decided)
            rows.append((kind, concept["label"], concept["name"], detail))
    return rows


def _kind(i, concept, mentions, judged_before, judged_after, decided) -> tuple[str, str]:
    """The kind of loss of key concept ``i`` of a paper, and its detail."""
    labels_after = {
        decided.concepts[cid].label for cid, (_, _, index) in judged_after.items() if index == i
    }
    if concept["label"] in labels_after:
        return "found", ""
    if labels_after:
        return "wrong label", " / ".join(sorted(labels_after))
    named_before = [cid for cid, (_, _, index) in judged_before.items() if index == i]
    if named_before:
        return "left out by the decision", decided.generic[named_before[0]].split(":")[0]
    # a mention judged as a link of no label: the same name is "wrong_label", a run of
    # its words or one holding it "cut_wrongly" (only read for concepts no concept named)
    for mention in mentions:
        if judge_link({"name": mention.text, "label": ""}, [concept])[0] != "generic":
            return "mentioned otherwise", mention.text
    return "no mention", ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", default="select", choices=("select", "test", "train"))
    parser.add_argument("--examples", type=int, default=12, help="names shown per kind")
    add_model_option(parser)
    args = parser.parse_args(argv)
    paths = sorted(glob.glob(str(SHARED / "*.csv")))
    results, undecided, _ = undecided_build(paths, args.model)
    decided = decide_concepts(results, undecided)
    rows = key_losses(results, undecided, decided, load_annotations(), args.split)
    per_kind: dict[str, Counter] = defaultdict(Counter)
    for kind, label, _, _ in rows:
        per_kind[kind][label] += 1
    print(f"{len(rows)} key concepts of {args.split}")
    for kind in KINDS:
        counts = per_kind[kind]
        per_label = ", ".join(f"{label} {n}" for label, n in sorted(counts.items()))
        print(f"  {kind:26} {sum(counts.values()):4}  ({per_label})")
    reasons = Counter(detail for kind, _, _, detail in rows if kind == "left out by the decision")
    print("left out by:", ", ".join(f"{why} {n}" for why, n in reasons.most_common()))
    for kind in KINDS[1:]:
        shown = [
            f"{name} ({detail})" if detail else name for k, _, name, detail in rows if k == kind
        ]
        print(f"{kind}: " + "; ".join(shown[: args.examples]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
