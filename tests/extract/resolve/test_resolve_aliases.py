"""A user's alias file: it overrides the rules, and says what to fix when malformed."""

from __future__ import annotations

import re

import pytest

from paperkg.errors import InputError
from paperkg.extract.resolve import resolve_concepts

from .conftest import ALIASES, paper


def test_yaml_alias_file_overrides_and_never_merge():
    results = [
        paper(
            "p1",
            ("Vision Transformer", "METHOD"),
            ("ViT", "METHOD"),
            ("visual transformer", "METHOD"),
        ),
        paper(
            "p2",
            ("KD", "METHOD", "knowledge distillation"),
            ("knowledge distillation", "METHOD"),
            acronyms={"KD": "knowledge distillation"},
        ),
        paper(
            "p3",
            ("sparse coding", "METHOD"),
            ("sparse coding", "METHOD"),
            ("spare coding", "METHOD"),
        ),
    ]
    automatic = resolve_concepts(results)
    assert automatic.concept_of[1][0] == automatic.concept_of[1][1]
    assert automatic.concept_of[2][0] == automatic.concept_of[2][2]

    res = resolve_concepts(results, alias_file=ALIASES / "aliases.yaml")
    assert res.concept_of[0] == ["Method:vision transformer"] * 3
    vit = res.concepts["Method:vision transformer"]
    assert vit.name == "Vision Transformer"
    assert vit.merge_reasons["ViT"] == "alias file"
    assert res.concept_of[1] == ["Method:kd", "Method:knowledge distillation"]  # never_merge
    assert res.concept_of[2][0] != res.concept_of[2][2]


def test_csv_alias_file_with_labels():
    results = [paper("p", ("LM", "METHOD"), ("language models", "METHOD"), ("LM", "TASK"))]
    res = resolve_concepts(results, alias_file=ALIASES / "aliases.csv")
    assert res.concept_of == [["Method:language model", "Method:language model", "Task:lm"]]


def test_bad_alias_file_says_what_to_fix(tmp_path):
    with pytest.raises(InputError, match="label 'MODEL' is not one of"):
        resolve_concepts([], alias_file=ALIASES / "bad_label.csv")
    with pytest.raises(InputError, match="does not exist"):
        resolve_concepts([], alias_file=tmp_path / "missing.yaml")


def test_alias_file_can_choose_the_display_name(tmp_path):
    aliases = tmp_path / "names.csv"
    aliases.write_text("alias,canonical\nvit,ViT\n", encoding="utf-8")
    res = resolve_concepts(
        [paper("p", ("vit", "METHOD"), ("vit", "METHOD"), ("ViT", "METHOD"))], alias_file=aliases
    )
    assert res.concepts["Method:vit"].name == "ViT"


@pytest.mark.parametrize(
    "name, content, message",
    [
        (
            "a.csv",
            "alias,target\nKD,knowledge distillation\n",
            "expected a header 'alias,canonical'",
        ),
        ("a.csv", "alias,canonical\nKD,\n", "line 2: alias and canonical must both be non-empty"),
        ("a.yaml", "aliases: [KD]\n", "'aliases' must map alias -> canonical"),
        ("a.yaml", "never_merge: [[a, b, c]]\n", "every never_merge item must be a pair"),
        ("a.yaml", "synonyms: {}\n", "must be a mapping with keys 'aliases' and/or 'never_merge'"),
        ("a.txt", "KD knowledge distillation\n", "expected .csv, .yaml or .yml"),
    ],
)
def test_malformed_alias_files_say_what_to_fix(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=re.escape(message)):
        resolve_concepts([], alias_file=path)
