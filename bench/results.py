"""bench/RESULTS.md: the last run of each benchmark, written by the benchmark itself.

A benchmark's numbers mean little without when they were taken, on which CPU (the
int8 NER is fast or slow by features such as ``avx512_vnni``), at which commit, and
by which command. Numbers pasted into a page by hand lose those, and go stale
unnoticed. So a benchmark script runs its ``main`` through :func:`run_and_record`:
everything it prints still goes to the terminal, and when it succeeds (returns 0
or None), the printed text replaces that script's section of ``RESULTS.md``,
headed by the date, the CPU, the commit and the command. Other scripts' sections
are left as they are::

    if __name__ == "__main__":
        raise SystemExit(run_and_record("bench/analytics.py", main))
"""

from __future__ import annotations

import contextlib
import io
import os
import platform
import shlex
import subprocess
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "RESULTS.md"

#: CPU flags that change the numbers: numpy's and onnxruntime's kernels pick by them
#: (onnxruntime's int8 products are exact and fast only with a VNNI flag)
SIMD_FLAGS = ("avx2", "fma", "avx512f", "avx512_vnni", "avx_vnni", "avx512_bf16", "amx_int8")

HEADER = """# Benchmark results

Each section is the last run of the script it names, written by that script
(`bench/results.py`): the date, the machine, the commit and the command, then what
the command printed. Run the script again to replace its section; compare numbers
within one section, since the machines and their load differ between sections.
"""


def run_and_record(script: str, main: Callable[[], int | None], results: Path = RESULTS) -> int:
    """Run ``main``, printing as usual; if it succeeds, record its printed text for ``script``."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(_Both(sys.stdout, printed)):
        status = main() or 0
    if status == 0:
        write_section(results, script, printed.getvalue())
        print(f"recorded in {results}")
    return status


def write_section(results: Path, script: str, printed: str) -> None:
    """Replace ``script``'s section of ``results`` (or add it at the end) with this run."""
    start, end = f"<!-- {script}: start -->", f"<!-- {script}: end -->"
    section = "\n".join(
        [
            start,
            f"## {script}",
            "",
            f"- date: {datetime.now().astimezone():%Y-%m-%d %H:%M %Z}",
            f"- machine: {machine()}",
            f"- commit: {commit()}",
            f"- command: `{shlex.join([Path(sys.executable).name, *sys.argv])}`",
            "",
            "```text",
            printed.rstrip("\n"),
            "```",
            end,
        ]
    )
    text = results.read_text(encoding="utf-8") if results.exists() else HEADER
    if start in text and end in text:
        before, rest = text.split(start, 1)
        after = rest.split(end, 1)[1]
        text = before + section + after
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    results.write_text(text, encoding="utf-8")


def machine(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """The CPU model, its cores and the flags of :data:`SIMD_FLAGS` it has."""
    model, flags = platform.processor() or platform.machine(), set()
    with contextlib.suppress(OSError):  # /proc/cpuinfo is Linux's
        for line in cpuinfo.read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name":
                model = value.strip()
            elif key.strip() == "flags":
                flags = set(value.split())
    cores = f"{os.cpu_count()} cores"
    if not flags:
        return f"{model}, {cores}"
    present = " ".join(flag for flag in SIMD_FLAGS if flag in flags)
    return f"{model}, {cores}; flags: {present or 'none of ' + ' '.join(SIMD_FLAGS)}"


def commit() -> str:
    """The commit the benchmark ran at, marked ``-dirty`` when the tree had changes."""
    try:
        out = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git clone)"
    return out.stdout.strip()


class _Both(io.TextIOBase):
    """A stream that writes to two: the terminal and the record of the run."""

    def __init__(self, first, second):
        self.first, self.second = first, second

    def write(self, text: str) -> int:
        self.first.write(text)
        self.second.write(text)
        return len(text)

    def flush(self) -> None:
        self.first.flush()
        self.second.flush()
