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
        "g = nx.DiGraph()\n"
        "g.add_node('paper:1', label='Paper', name='P', year=2024)\n"
        "g.add_node('Method:bert', label='Method', name='BERT', paper_count=1)\n"
        "g.add_edge('paper:1', 'Method:bert', type='USES')\n"
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
        "from paperkg.extract.nlp.cache import ExtractionCache, pipeline_identity\n"
        "from paperkg.extract.nlp.model_names import resolve_model\n"
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


def imports_of(path: Path, modules: dict[str, Path], root: Path = ROOT) -> set[str]:
    """The paperkg modules ``path`` imports, anywhere in it (lazy imports count too).

    ``from . import cypher`` imports the submodule ``cypher``; ``from . import app``,
    where ``app`` is no module, imports the package itself.
    """
    name = _module_name(path, root)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            subs = [f"{source}.{a.name}" for a in node.names if f"{source}.{a.name}" in modules]
            found.update(subs if len(subs) == len(node.names) else [source, *subs])
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return (found & modules.keys()) - {name}


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(["paperkg", *(parts[:-1] if parts[-1] == "__init__" else parts)])


def package_modules(root: Path = ROOT) -> dict[str, Path]:
    skip = {"tests", "bench", "docs", "build", ".venv"}
    return {
        _module_name(p, root): p
        for p in root.rglob("*.py")
        if not skip & set(p.relative_to(root).parts) and p.name != "setup.py"
    }


def import_circles(root: Path = ROOT) -> list[list[str]]:
    """Every set of modules that import each other, directly or round a circle."""
    modules = package_modules(root)
    graph = {name: imports_of(path, modules, root) for name, path in modules.items()}
    reach = {}
    for start in graph:  # what each module reaches (a few hundred modules: plain search)
        seen, todo = set(), list(graph[start])
        while todo:
            if (m := todo.pop()) not in seen:
                seen.add(m)
                todo.extend(graph[m])
        reach[start] = seen
    circles = {frozenset({a} | {b for b in reach[a] if a in reach[b]}) for a in graph}
    return sorted(sorted(c) for c in circles if len(c) > 1)


def test_no_module_imports_one_that_imports_it():
    assert import_circles() == []


def test_the_circle_check_sees_a_package_and_its_module_importing_each_other(tmp_path):
    package = tmp_path / "cli"
    package.mkdir()
    (package / "__init__.py").write_text("from . import build\napp = object()\n")
    (package / "build.py").write_text("from . import app\nfrom .. import records\n")
    (tmp_path / "records.py").write_text("")
    assert import_circles(tmp_path) == [["paperkg.cli", "paperkg.cli.build"]]
