"""Imports follow the stages: records -> extract -> graph -> export -> cli/api.

A stage may use the ones before it and the shared root modules (records,
errors, atomic, defaults), never one after it, so each stage can be read,
tested and replaced on its own, and a command loads only what it runs.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ORDER = ["extract", "graph", "export", "cli"]


def imported_stages(path: Path, root: Path = ROOT) -> set[str]:
    """The paperkg stages a module imports (absolute or relative), docstrings aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = path.relative_to(root).parts[:-1]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(package[: len(package) - node.level + 1])
                names = [".".join(["paperkg", *base, *(node.module or "").split(".")])]
                names += [f"{names[0]}.{a.name}" for a in node.names]
            else:
                names = [node.module or ""]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "paperkg" and len(parts) > 1 and parts[1] in ORDER:
                found.add(parts[1])
    return found


@pytest.mark.parametrize("stage", ORDER[:-1])
def test_a_stage_imports_no_later_stage(stage):
    later = set(ORDER[ORDER.index(stage) + 1 :])
    wrong = {
        str(path.relative_to(ROOT)): sorted(imported_stages(path) & later)
        for path in (ROOT / stage).rglob("*.py")
        if imported_stages(path) & later
    }
    assert wrong == {}


def test_the_layering_check_sees_relative_and_absolute_imports(tmp_path):
    probe = tmp_path / "extract" / "components" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text(
        "from ...graph.schema import PAPER\nfrom .. import records\nimport paperkg.export.html\n",
        encoding="utf-8",
    )
    assert imported_stages(probe, root=tmp_path) == {"extract", "graph", "export"}


def test_the_command_line_loads_neither_the_neo4j_driver_nor_spacy():
    code = (
        "import sys, paperkg.cli; "
        "print(sorted(m for m in ('neo4j', 'spacy', 'torch') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_concept_map_of_a_large_corpus_is_written_without_pyvis(tmp_path):
    # pyvis imports IPython, 0.2 s of every build; only the paper view of a small corpus
    # draws with it
    code = (
        "import sys, networkx as nx, paperkg.cli\n"
        "from paperkg.export.html_map import write_map_html\n"
        "g = nx.MultiDiGraph()\n"
        "g.add_node('paper:1', label='Paper', name='P', year=2024)\n"
        "g.add_node('Method:bert', label='Method', name='BERT', paper_count=1)\n"
        "g.add_edge('paper:1', 'Method:bert', key='USES', type='USES')\n"
        f"write_map_html(g, {str(tmp_path / 'graph.html')!r})\n"
        "print(sorted(m for m in ('pyvis', 'IPython') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    assert (tmp_path / "graph.html").stat().st_size > 100_000  # vis-network inlined


def test_a_build_from_the_cache_never_loads_spacy(tmp_path):
    # spaCy pulls in PyTorch where it is installed: 0.5 GB a cached rebuild does not need
    code = (
        "import sys\n"
        "from paperkg.api import build\n"
        "from paperkg.records import PaperMentions\n"
        "from paperkg.extract.cache import ExtractionCache, pipeline_identity\n"
        "from paperkg.extract.model_names import resolve_model\n"
        "from paperkg.extract.readers import read_inputs\n"
        f"path, cache_dir = {str(tmp_path / 'a.txt')!r}, {str(tmp_path / 'cache')!r}\n"
        "open(path, 'w').write('We train BERT on SQuAD for question answering.')\n"
        "cache = ExtractionCache(cache_dir, identity=pipeline_identity(resolve_model(None)))\n"
        "cache.put(PaperMentions(read_inputs([path]).papers[0], []))\n"
        "assert build([path], cache_dir=cache_dir).from_cache == 1\n"
        "print(sorted(m for m in ('spacy', 'torch', 'thinc') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
