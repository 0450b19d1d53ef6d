"""What each rule of the pipeline buys on the selection set: the build without it.

    python3 bench/rule_ablation.py [--rules acronyms,repeats] [--jobs 2]

Issue 35's rule: a rule stays only where the selection set shows it pays. For each
rule component the shipped pipeline runs after its NER (``RULE_COMPONENTS``), this
copies the shipped model with that component disabled in its ``config.cfg``,
builds NeurIPS 2023 with it (a new pipeline, so a full extraction: about two
minutes with ``--jobs 2``), and scores the build on the annotated ``select`` papers
(``bench/annotated.py``), beside the default build and a build without the corpus
terms step (``--no-corpus-terms``). Mention F1 is the pipeline's own on the select
papers (``annotated.mention_f1``). A rule that pays makes some column worse when it
is removed. The table is recorded in ``bench/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import glob
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import annotated  # noqa: E402
from annotation import SHARED, load_annotations  # noqa: E402

from paperkg.extract.nlp.model_names import SHIPPED_TRANSFORMER_DIR  # noqa: E402
from paperkg.extract.nlp.pipeline import RULE_COMPONENTS  # noqa: E402
from paperkg.graph.io import load_graph  # noqa: E402


def without_rule(rule: str, folder: Path) -> Path:
    """A copy of the shipped model in ``folder`` with ``rule`` disabled."""
    model = folder / f"without-{rule}"
    shutil.copytree(SHIPPED_TRANSFORMER_DIR, model)
    config = model / "config.cfg"
    text = config.read_text(encoding="utf-8")
    line = next(row for row in text.splitlines() if row.startswith("disabled = "))
    disabled = json.loads(line.removeprefix("disabled = "))
    config.write_text(text.replace(line, f"disabled = {json.dumps([*disabled, rule])}"))
    return model


def build(out: Path, extra: list[str], jobs: int) -> float:
    """Build NeurIPS 2023 into ``out``; the seconds it took."""
    paths = sorted(glob.glob(str(SHARED / "*.csv")))
    start = time.perf_counter()
    command = ["paperkg", "build", *paths, "-o", str(out), "--jobs", str(jobs), "--no-html"]
    subprocess.run([*command, *extra], check=True, capture_output=True)
    return time.perf_counter() - start


def mention_f1(model: Path | None, rows: dict) -> float:
    return annotated.mention_f1(annotated.extracted_mentions(list(rows), model), rows)["f1"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    rules = [name.removeprefix("paperkg_") for name in RULE_COMPONENTS]
    parser.add_argument("--rules", default=",".join(rules), help="rules to remove, one by one")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    rows = {k: v for k, v in load_annotations().items() if v["split"] == "select"}
    print("NeurIPS 2023 built without one rule, scored on the annotated select papers")
    print(f"{'build':24} {'right':>6} {'generic':>8} {'label':>6} {'cut':>6} {'links':>6} "
          f"{'key':>6} {'P':>5} {'R':>5} {'mention F1':>10}")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="rule-ablation-") as tmp:
        tmp = Path(tmp)
        variants = [("default", None, []), ("without corpus terms", None, ["--no-corpus-terms"])]
        for rule in args.rules.split(","):
            model = without_rule(f"paperkg_{rule}", tmp)
            variants.append((f"without {rule}", model, ["--model", str(model)]))
        for name, model, extra in variants:
            out = tmp / name.replace(" ", "-")
            build(out, extra, args.jobs)
            score = annotated.score_split(load_graph(out / "graph.json"), rows)
            verdicts = score["verdicts"]
            f1 = mention_f1(model, rows) if extra != ["--no-corpus-terms"] else float("nan")
            print(
                f"{name:24} {verdicts['right']:6.3f} {verdicts['generic']:8.3f} "
                f"{verdicts['wrong_label']:6.3f} {verdicts['cut_wrongly']:6.3f} "
                f"{score['links']:6} {score['key_found']:6.3f} "
                f"{score['proposes_precision']:5.2f} {score['proposes_recall']:5.2f} {f1:10.3f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    from results import run_and_record

    sys.exit(run_and_record("bench/rule_ablation.py", main))
