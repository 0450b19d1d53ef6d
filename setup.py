"""Which files a wheel of paperkg holds, found rather than listed.

The repository root *is* the ``paperkg`` package: ``extract/``, ``graph/`` and
``export/`` stay visible at the top level and install as ``paperkg.extract``,
``paperkg.graph``, ``paperkg.export``, so no generic top-level ``graph`` module
lands in site-packages. Every folder below the root with an ``__init__.py`` is a
sub-package and every other file inside a sub-package's folder is data the code
reads (models, assets, training configs), so a new folder or asset cannot be left
out of a release. ``tests/test_packaging.py`` compares a built wheel with the tree.
Everything else about the project is in ``pyproject.toml``.
"""

from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).parent
#: folders of the repository that are not part of the installed package
NOT_PACKAGED = ["tests", "tests.*", "bench", "bench.*", "docs", "docs.*", "build", "build.*"]
#: data of the root package itself (its other files are the repository's, not the package's)
ROOT_DATA = ["examples/*.txt"]


def data_files_of(package_dir: Path) -> list[str]:
    """Every file under a sub-package's folder that is neither Python nor a sub-package's."""
    files = []
    for path in sorted(package_dir.rglob("*")):
        inner = path.relative_to(package_dir)
        if not path.is_file() or path.suffix in (".py", ".pyc") or "__pycache__" in inner.parts:
            continue
        # a file inside a nested sub-package belongs to that package
        if any((package_dir / Path(*inner.parts[:i]) / "__init__.py").exists()
               for i in range(1, len(inner.parts))):  # fmt: skip
            continue
        files.append(inner.as_posix())
    return files


class BuildPy(build_py):
    """The standard build, less this file (the root package's folder holds it)."""

    def find_package_modules(self, package, package_dir):
        modules = super().find_package_modules(package, package_dir)
        return [m for m in modules if not (package == "paperkg" and m[1] == "setup")]


subpackages = find_packages(str(ROOT), exclude=NOT_PACKAGED)
setup(
    cmdclass={"build_py": BuildPy},
    package_dir={"paperkg": "."},
    packages=["paperkg", *(f"paperkg.{name}" for name in subpackages)],
    package_data={
        "paperkg": ROOT_DATA,
        **{f"paperkg.{name}": data_files_of(ROOT / name.replace(".", "/")) for name in subpackages},
    },
)
