"""bench/RESULTS.md is written by the benchmarks: each run replaces its own section only."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _results():
    spec = importlib.util.spec_from_file_location("results", ROOT / "bench" / "results.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def benchmark(table: str):
    """A benchmark's ``main`` that prints ``table`` and succeeds."""

    def main():
        print(table)
        return 0

    return main


def test_a_run_writes_its_section_with_date_machine_commit_and_command(
    tmp_path, monkeypatch, capsys
):
    results = _results()
    page = tmp_path / "RESULTS.md"
    monkeypatch.setattr("sys.argv", ["bench/analytics.py", "--edges", "10000"])

    assert results.run_and_record("bench/analytics.py", benchmark("| pagerank | 0.01 |"), page) == 0

    assert "| pagerank | 0.01 |" in capsys.readouterr().out  # still printed as it ran
    text = page.read_text(encoding="utf-8")
    assert text.startswith("# Benchmark results")
    assert "## bench/analytics.py" in text
    assert "- date: 20" in text
    assert f"- machine: {results.machine()}" in text
    assert "- commit: " in text
    assert "bench/analytics.py --edges 10000`" in text
    assert "```text\n| pagerank | 0.01 |\n```" in text


def test_a_second_run_replaces_its_own_section_and_keeps_the_others(tmp_path):
    results = _results()
    page = tmp_path / "RESULTS.md"
    results.run_and_record("bench/analytics.py", benchmark("first analytics run"), page)
    results.run_and_record("bench/throughput.py", benchmark("throughput run"), page)
    results.run_and_record("bench/analytics.py", benchmark("second analytics run"), page)

    text = page.read_text(encoding="utf-8")
    assert "first analytics run" not in text
    assert text.count("## bench/analytics.py") == 1
    assert text.index("second analytics run") < text.index("throughput run")  # kept its place
    assert "throughput run" in text


def test_a_failed_run_leaves_the_last_recorded_one(tmp_path):
    results = _results()
    page = tmp_path / "RESULTS.md"
    results.run_and_record("bench/throughput.py", benchmark("a good run"), page)

    def graphs_differ():
        print("graphs equal: False")
        return 1

    assert results.run_and_record("bench/throughput.py", graphs_differ, page) == 1
    text = page.read_text(encoding="utf-8")
    assert "a good run" in text and "graphs equal: False" not in text


def test_the_machine_names_the_cpu_and_the_flags_that_change_the_numbers(tmp_path):
    results = _results()
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("model name\t: Some CPU\nflags\t\t: fpu sse2 avx2 avx512f avx512_vnni\n")
    described = results.machine(cpuinfo)
    assert described.startswith("Some CPU, ")
    assert described.endswith("flags: avx2 avx512f avx512_vnni")
