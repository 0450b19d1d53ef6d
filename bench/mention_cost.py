"""The NER's mention cost, chosen on the annotated select split.

    python3 bench/mention_cost.py [--costs 0,1,1.5,2,2.5,3] [--model PIPELINE]

The NER learnt five corpora, and tags more than a reader of the in-domain
annotations marks: on the select papers its precision is below its recall. Its
``mention_cost`` (``extract/nlp/components/transformer_ner.py``) takes that many
nats off every ``B-`` tag before decoding, so a mention must be that much likelier
than no mention to be kept. For each cost this copies the shipped model (or
``--model``) with the cost in its ``config.cfg``, extracts the annotated select and test papers with it
(the build's own extraction, no cache) and prints mention precision, recall and
F1 (``annotated.mention_f1``). The cost with the best select F1 is the one to
ship (where costs tie, the one whose build scores best on select: ``bench/annotated.py``);
test is printed beside it and is never used to choose. Run it again after
retraining the NER, whose cost starts at 0. The table is recorded in
``bench/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

import spacy

sys.path.insert(0, str(Path(__file__).parent))
import annotated  # noqa: E402
from annotation import load_annotations  # noqa: E402
from results import run_and_record  # noqa: E402

from paperkg.extract.nlp.model_names import SHIPPED_TRANSFORMER_DIR  # noqa: E402


def with_cost(cost: float, folder: Path, source: Path = SHIPPED_TRANSFORMER_DIR) -> Path:
    """A copy of the pipeline ``source`` (the shipped one) in ``folder`` whose NER has
    ``mention_cost = cost``."""
    model = folder / f"cost-{cost}"
    shutil.copytree(source, model)
    config = spacy.util.load_config(model / "config.cfg")
    config["components"]["transformer_ner"]["mention_cost"] = cost
    config.to_disk(model / "config.cfg")
    return model


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--costs", default="0,1,1.5,2,2.5,3", help="costs to try, in nats")
    parser.add_argument(
        "--model", type=Path, default=SHIPPED_TRANSFORMER_DIR, help="the pipeline to copy"
    )
    args = parser.parse_args(argv)
    costs = list(dict.fromkeys(float(c) for c in args.costs.split(",")))
    rows = load_annotations()
    splits = {s: {k: v for k, v in rows.items() if v["split"] == s} for s in ("select", "test")}
    print("NER mention cost: mention precision / recall / F1 of the annotated papers")
    print(f"{'cost':>5}  {'select P':>8} {'R':>6} {'F1':>6}  {'test P':>7} {'R':>6} {'F1':>6}")
    select_f1 = {}
    with tempfile.TemporaryDirectory(prefix="mention-cost-") as tmp:
        for cost in costs:
            model = with_cost(cost, Path(tmp), source=args.model)
            scores = {}
            for split, split_rows in splits.items():
                found = annotated.extracted_mentions(list(split_rows), model)
                scores[split] = annotated.mention_f1(found, split_rows)
            s, t = scores["select"], scores["test"]
            print(f"{cost:>5}  {s['precision']:>8} {s['recall']:>6} {s['f1']:>6}  "
                  f"{t['precision']:>7} {t['recall']:>6} {t['f1']:>6}")  # fmt: skip
            select_f1[cost] = s["f1"]
    best = max(select_f1.values())
    tied = ", ".join(str(c) for c, f1 in select_f1.items() if f1 == best)
    print(f"best on select (F1 {best}): mention_cost = {tied}")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_and_record("bench/mention_cost.py", main))
