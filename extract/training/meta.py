"""Record where a trained model comes from: its data, licences, procedure and scores.

Why: a model trained on SciER must say it is GPL-3.0, and every ``meta.json``
credits its corpora and reports its scores the same way, so ``paperkg train``
prints them alike.
"""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["SOURCES", "write_meta"]

#: How each corpus is credited in the model's meta.json.
SOURCES = {
    "scierc": {
        "name": "SciERC",
        "url": "http://nlp.cs.washington.edu/sciIE/",
        "license": "none stated by the authors; research use",
        "citation": "Luan et al., EMNLP 2018",
        "mapping": "Method->METHOD, Task->TASK, Material->DATASET, Metric->METRIC; "
        "OtherScientificTerm and Generic dropped",
    },
    "scier": {
        "name": "SciER",
        "url": "https://github.com/edzq/SciER",
        "license": "GPL-3.0",
        "citation": "Zhang et al., EMNLP 2024",
        "mapping": "Method->METHOD, Task->TASK, Dataset->DATASET; entity strings matched "
        "at every occurrence in their sentence",
    },
    "tdmsci": {
        "name": "TDMSci",
        "url": "https://github.com/IBM/science-result-extractor",
        "license": "Apache-2.0",
        "citation": "Hou et al., EACL 2021",
        "mapping": "TASK, DATASET, METRIC; first 80% of train_1500_v2 sentences trained on, "
        "last 20% held out",
    },
    "scirex": {
        "name": "SciREX",
        "url": "https://github.com/allenai/SciREX",
        "license": "Apache-2.0",
        "citation": "Jain et al., ACL 2020",
        "mapping": "Method->METHOD, Task->TASK, Material->DATASET, Metric->METRIC; "
        "title and abstract of each training paper",
    },
    "annotated": {
        "name": "paperkg in-domain annotations",
        "url": "bench/judged/annotations (guidelines: bench/judged/GUIDE.md, section 5)",
        "license": "MIT (the annotations; the abstracts are their authors')",
        "citation": "paperkg",
        "mapping": "Method->METHOD, Task->TASK, Dataset->DATASET, Metric->METRIC; "
        "the mentions of specific concepts, every other word outside",
    },
}


def write_meta(
    model_dir: Path,
    counts: dict,
    scores: dict,
    procedure: dict,
    *,
    name: str,
    description: str,
    scored: str,
    base_model: str | None = None,
) -> None:
    """Record name, training data, licences and scores in ``model_dir/meta.json``.

    ``scored`` says what the scores are of (the NER alone, or the saved pipeline
    with the rules it ships); ``base_model`` names pretrained weights and their
    licence, if any.
    """
    meta_path = model_dir / "meta.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    used = [key for key in SOURCES if key in counts]
    licences = sorted({SOURCES[key]["license"] for key in used})
    meta.update(
        {
            "lang": "en",
            "name": name,
            "version": "0.1.0",
            "description": description,
            # not the sourced English pipeline's authors
            "author": "",
            "email": "",
            "url": "",
            "license": "GPL-3.0" if "scier" in used else "MIT",
            "licence_note": (
                "Weights trained on SciER (GPL-3.0) are distributed under GPL-3.0. "
                "Training data licences: "
                + "; ".join(f"{SOURCES[k]['name']}: {SOURCES[k]['license']}" for k in used)
                + ". Sourced components: en_core_web_sm 3.8.0 (MIT)."
                + (f" Pretrained weights: {base_model}." if base_model else "")
            ),
            "training_data": {
                key: {**SOURCES[key], **counts[key], "licence": SOURCES[key]["license"]}
                for key in used
            },
            "licences": licences,
            "paperkg_scores": {
                "note": f"{scored}, scored by paperkg.extract.evaluate; "
                "exact span match, plus 'lenient' (overlap, same label).",
                **scores,
            },
            "training_procedure": procedure,
        }
    )
    meta_path.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
