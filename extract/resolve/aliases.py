"""User alias files: hand-written merges that override the automatic ones.

Like a VOSviewer thesaurus file, an alias file says which surface forms name the same
concept and which must never be merged. Two formats:

CSV, with a header row; ``label`` is optional (METHOD, DATASET, TASK, METRIC or the
graph names Method, Dataset, ...) and limits the line to that label::

    alias,canonical,label
    KD,knowledge distillation,METHOD
    ViT,Vision Transformer,

YAML::

    aliases:
      KD: knowledge distillation
      ViT: Vision Transformer
    never_merge:
      - [CIFAR-10, CIFAR-100]
      - [KD, kernel density]

Examples
--------
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "aliases.yaml"
>>> _ = path.write_text("aliases: {KD: knowledge distillation}\\nnever_merge: [[a, b]]\\n")
>>> load_alias_file(path)
AliasFile(entries=[('KD', 'knowledge distillation', None)], never_merge=[('a', 'b')])
"""

from __future__ import annotations

import csv
import logging
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ...errors import InputError
from ...records import ENTITY_LABELS

__all__ = ["AliasFile", "load_alias_file"]

logger = logging.getLogger(__name__)

_LABELS = {
    **{k.lower(): k for k in ENTITY_LABELS},
    **{v.lower(): k for k, v in ENTITY_LABELS.items()},
}


@dataclass
class AliasFile:
    """What an alias file says, as written (keys are computed by the resolver)."""

    #: (alias, canonical, mention label or None for every label)
    entries: list[tuple[str, str, str | None]] = field(default_factory=list)
    #: pairs of surface forms that must end up in different concepts
    never_merge: list[tuple[str, str]] = field(default_factory=list)


def load_alias_file(path: str | Path) -> AliasFile:
    """Read a CSV or YAML alias file (chosen by extension: .csv, .yaml or .yml).

    Raises :class:`~paperkg.errors.InputError` naming the file and what is wrong.
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(f"alias file {path} does not exist; pass an existing CSV or YAML file")
    suffix = path.suffix.lower()
    if suffix == ".csv":
        result = _read_csv(path)
    elif suffix in {".yaml", ".yml"}:
        result = _read_yaml(path)
    else:
        raise InputError(
            f"alias file {path} has extension {suffix!r}; expected .csv, .yaml or .yml"
        )
    logger.info(
        "alias file %s: %d aliases, %d never-merge pairs",
        path,
        len(result.entries),
        len(result.never_merge),
    )
    return result


def _label(value: str | None, where: str) -> str | None:
    if value is None or not value.strip():
        return None
    label = _LABELS.get(value.strip().lower())
    if label is None:
        raise InputError(
            f"{where}: label {value!r} is not one of {', '.join(ENTITY_LABELS)}; "
            "fix the label or leave it empty to apply the alias to every label"
        )
    return label


def _read_csv(path: Path) -> AliasFile:
    with path.open(newline="", encoding="utf-8-sig") as handle:
        reader = csv.DictReader(handle)
        columns = {c.strip().lower(): c for c in reader.fieldnames or []}
        if "alias" not in columns or "canonical" not in columns:
            raise InputError(
                f"alias file {path} has columns {reader.fieldnames}; expected a header "
                "'alias,canonical' (optionally ',label')"
            )
        entries = []
        for number, row in enumerate(reader, start=2):
            alias = (row.get(columns["alias"]) or "").strip()
            canonical = (row.get(columns["canonical"]) or "").strip()
            if not alias or not canonical:
                raise InputError(
                    f"alias file {path}, line {number}: alias and canonical must both be non-empty"
                )
            label = _label(
                row.get(columns["label"]) if "label" in columns else None,
                f"alias file {path}, line {number}",
            )
            entries.append((alias, canonical, label))
    return AliasFile(entries=entries)


def _read_yaml(path: Path) -> AliasFile:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as e:
        raise InputError(f"alias file {path} is not valid YAML: {e}") from e
    if not isinstance(data, dict) or set(data) - {"aliases", "never_merge"}:
        raise InputError(
            f"alias file {path} must be a mapping with keys 'aliases' and/or 'never_merge'"
        )
    aliases = data.get("aliases") or {}
    if not isinstance(aliases, dict):
        raise InputError(f"alias file {path}: 'aliases' must map alias -> canonical")
    entries = [(str(a).strip(), str(c).strip(), None) for a, c in aliases.items()]
    never = []
    for pair in data.get("never_merge") or []:
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise InputError(
                f"alias file {path}: every never_merge item must be a pair [a, b], got {pair!r}"
            )
        never.append((str(pair[0]).strip(), str(pair[1]).strip()))
    return AliasFile(entries=entries, never_merge=never)
