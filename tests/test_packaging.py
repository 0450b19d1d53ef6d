"""A wheel of paperkg, as a release is installed: it holds every module and asset, and works.

``install.sh`` installs paperkg editable, so the suite would never notice a module
or asset that a wheel leaves out. These tests build a wheel from the tracked files
of this clone, compare its file list with the source tree, and install it (no
``-e``) into a fresh virtual environment, from which the bundled example is built,
analysed and drawn. The environment borrows the already installed dependencies
(``--system-site-packages``) and checks that ``paperkg`` itself is the wheel's.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
#: tracked folders that are the repository's, not the package's
NOT_PACKAGED = ("tests/", "bench/", "docs/", ".ci/")


def tracked_files() -> list[str]:
    if not (REPO / ".git").exists() or shutil.which("git") is None:
        pytest.skip("needs a git clone of paperkg (the wheel is built from its tracked files)")
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    return [p for p in out.split("\0") if p and (REPO / p).is_file()]


def expected_in_wheel(files: list[str]) -> set[str]:
    """What a wheel must hold: root modules, and every file of every sub-package's folder."""
    package_dirs = {str(Path(f).parent) for f in files if f.endswith("/__init__.py")}
    expected = set()
    for f in files:
        if f.startswith(NOT_PACKAGED):
            continue
        top_level_module = "/" not in f and f.endswith(".py") and f != "setup.py"
        in_package = any(f.startswith(d + "/") for d in package_dirs)
        if top_level_module or in_package or f.startswith("examples/"):
            expected.add(f"paperkg/{f}")
    return expected


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """A wheel built from a copy of the tracked files (no build/ left over from elsewhere)."""
    files = tracked_files()
    src = tmp_path_factory.mktemp("src")
    for f in files:
        (src / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / f, src / f)
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
         "-w", str(dist), str(src)],
        check=True,
    )  # fmt: skip
    (built,) = dist.glob("paperkg-*.whl")
    return built


def test_the_wheel_holds_every_module_and_asset_of_the_tree(wheel):
    in_wheel = {n for n in zipfile.ZipFile(wheel).namelist() if ".dist-info/" not in n}
    expected = expected_in_wheel(tracked_files())
    assert "paperkg/graph/analytics/centrality.py" in expected
    assert "paperkg/export/assets/map.js" in expected
    assert sorted(expected - in_wheel) == [], "left out of the wheel"
    assert sorted(in_wheel - expected) == [], "in the wheel but not in the tree"


def test_a_wheel_installed_without_editable_builds_analyses_and_draws(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "--no-index", "-q", str(wheel)],
        check=True,
    )  # fmt: skip

    def run(*args: str) -> str:
        done = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, f"{' '.join(args)}:\n{done.stdout}\n{done.stderr}"
        return done.stdout

    where = run(
        str(python), "-c", "import paperkg.graph.analytics, paperkg; print(paperkg.__file__)"
    )
    assert Path(where.strip()).is_relative_to(env_dir), f"paperkg came from {where}"
    paperkg = str(env_dir / "bin" / "paperkg")
    example = REPO / "examples" / "iclr2025_abstracts.txt"
    run(paperkg, "build", str(example), "-o", "out", "--no-cache")
    run(paperkg, "analyze", "out/graph.json", "-o", "report")
    run(paperkg, "view", "out/graph.json", "--format", "png", "-o", "map.png")
    assert (tmp_path / "report" / "index.html").exists()
    assert (tmp_path / "map.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
