"""The training loop of the transformer NER: stages of epochs, each scored, the best kept.

Why a module of its own: what makes a run reproducible and its checkpoint the
right one lives here: the optimiser and its schedule, the seed of each stage,
the epoch log, the choice of the best epoch on the selection sets and the time
limit. :mod:`.transformer` sets a run up and exports its best weights.
"""

from __future__ import annotations

import json
import logging
import math
import random
import shutil
import time
from pathlib import Path

from ..evaluate import evaluate
from .transformer_data import collate, length_batches, second_stage_items

logger = logging.getLogger(__name__)

__all__ = ["TrainingRun", "corpus_style", "selection_sets", "stage_plan", "train_stages"]


def selection_sets(eval_sets: dict) -> dict:
    """What chooses the epoch: the held-back parts of train when there are any, else the
    dev sets (never a held-out test set: TDMSci's part, the annotations' ``test``),
    else whatever there is."""
    evals = {k: v for k, v in eval_sets.items() if k.endswith("_select")}
    held_out = {k for k in eval_sets if k == "tdmsci_heldout" or k.endswith("_test")}
    evals = evals or {k: v for k, v in eval_sets.items() if k not in held_out}
    return evals or eval_sets


def corpus_style(eval_name: str) -> str:
    """The annotation style an evaluation set is read in: its corpus's
    (``scierc_select`` → ``scierc``, ``annotated_test`` → ``annotated``)."""
    return eval_name.split("_", 1)[0]


def stage_plan(cfg, scierc_docs: int) -> list[tuple[int, float]]:
    """``(epochs, learning rate)`` per stage: the mixture, then SciERC's second stage."""
    stages = [(int(cfg["training"]["epochs"]), float(cfg["training"]["learning_rate"]))]
    second = cfg["second_stage"]
    if int(second["epochs"]) and scierc_docs:
        stages.append((int(second["epochs"]), float(second["learning_rate"])))
    return stages


class TrainingRun:
    """The epochs of one training: each is scored, logged, and kept when it is the best."""

    def __init__(self, *, model, nlp, evals: dict, work: Path, pad_id: int, training) -> None:
        self.model, self.nlp, self.evals, self.work = model, nlp, evals, work
        self.pad_id = pad_id
        self.batch_size = int(training["batch_size"])
        self.warmup = float(training["warmup"])
        self.weight_decay = float(training["weight_decay"])
        self.grad_clip = float(training["grad_clip"])
        self.max_seconds = 60 * float(training["max_minutes"])
        self.started = time.time()
        self.best_score, self.best_epoch = -1.0, 0
        self.epoch, self.out_of_time = 0, False
        self.log_path = work / "log.jsonl"
        self.log_path.write_text("", encoding="utf-8")

    def score_epoch(self, record: dict) -> None:
        """Score the model as it is, log ``record`` with the scores, keep it if best.

        Each set is read in its own corpus's style, so no set's score falls for
        being read in another convention (SciERC marks generic methods, the
        in-domain annotations do not).
        """
        import torch

        self.model.eval()
        scores = {
            name: evaluate(self.nlp, docs, fmt, style=corpus_style(name)).to_dict()
            for name, (fmt, docs) in self.evals.items()
        }
        score = sum(s["micro"]["f1"] for s in scores.values()) / len(scores)
        record["minutes"] = round((time.time() - self.started) / 60, 1)
        record["f1"] = {name: round(100 * s["micro"]["f1"], 2) for name, s in scores.items()}
        logger.info("transformer NER epoch %s", record)
        with self.log_path.open("a", encoding="utf-8") as log_file:
            log_file.write(json.dumps(record) + "\n")
        if score > self.best_score:
            self.best_score, self.best_epoch = score, record["epoch"]
            torch.save(self.model.state_dict(), self.work / "best.pt")

    def train_stage(self, stage: int, stage_items: list, epochs: int, learning_rate: float) -> None:
        """AdamW with a linear schedule (the first stage warms up) for ``epochs`` epochs."""
        import torch

        model = self.model
        steps_per_epoch = math.ceil(len(stage_items) / self.batch_size)
        total = steps_per_epoch * epochs
        # the first stage warms up; a later one starts from a trained model
        warm = max(1, int(steps_per_epoch * self.warmup)) if stage == 1 else 0
        optimizer = torch.optim.AdamW(
            model.parameters(), lr=learning_rate, weight_decay=self.weight_decay
        )
        schedule = torch.optim.lr_scheduler.LambdaLR(
            optimizer,
            lambda s, warm=warm, total=total: min(
                (s + 1) / warm if warm else 1.0, max(0.0, (total - s) / max(1, total - warm))
            ),
        )
        for _ in range(epochs):
            if self.out_of_time:
                break
            self.epoch += 1
            epoch_started = time.time()
            model.train()
            loss_sum = 0.0
            batches = length_batches(stage_items, self.batch_size)
            for batch in batches:
                ids, mask, labels = collate(batch, self.pad_id)
                loss = model(
                    input_ids=torch.from_numpy(ids),
                    attention_mask=torch.from_numpy(mask),
                    labels=torch.from_numpy(labels),
                ).loss
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), self.grad_clip)
                optimizer.step()
                schedule.step()
                optimizer.zero_grad()
                loss_sum += loss.item()
            self.score_epoch(
                {
                    "epoch": self.epoch,
                    "stage": stage,
                    "windows": len(stage_items),
                    "loss": round(loss_sum / len(batches), 4),
                }
            )
            elapsed = time.time() - self.started
            if self.max_seconds and elapsed + (time.time() - epoch_started) > self.max_seconds:
                logger.info("transformer NER: stopping after epoch %d (max_minutes)", self.epoch)
                self.out_of_time = True
        if epochs and (self.work / "best.pt").exists():
            shutil.copy(self.work / "best.pt", self.work / f"best_stage{stage}.pt")


def train_stages(
    run: TrainingRun,
    items: list[tuple],
    cfg,
    *,
    seed: int,
    init: str,
    scierc_docs: int,
    in_domain_from: int | None = None,
) -> None:
    """Train each stage of :func:`stage_plan` in turn, until ``run`` is out of time.

    A later stage starts from the best weights so far, seeded on its own, so it
    runs the same from a finished run's ``best_stage1.pt`` (``model.init``), on
    SciERC and the in-domain annotations (from document ``in_domain_from`` on) once,
    and ``second_stage.others_share`` as many windows of the others.
    """
    import torch

    second = cfg["second_stage"]
    for stage, (epochs, learning_rate) in enumerate(stage_plan(cfg, scierc_docs), start=1):
        if run.out_of_time:
            break
        stage_items = items
        if stage > 1:
            if run.best_epoch or init:
                run.model.load_state_dict(torch.load(run.work / "best.pt"))
            random.seed(seed + stage)
            torch.manual_seed(seed + stage)
            stage_items = second_stage_items(
                items,
                scierc_docs,
                int(cfg["data"]["scierc_repeat"]),
                float(second["others_share"]),
                in_domain_from,
            )
        run.train_stage(stage, stage_items, epochs, learning_rate)
