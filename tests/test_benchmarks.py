"""The benchmark report: every script under benchmarks/ gives its figures to benchmarks/run.py, and a
figure passes or fails against its budget as the table says. (The benchmarks themselves are not run
here: tests never time things.)"""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

from figures import Figure, table  # noqa: E402

SCRIPTS = sorted(path.stem for path in BENCHMARKS.glob("bench_*.py"))


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_benchmark_gives_its_figures_to_run_py(script: str) -> None:
    module = importlib.import_module(script)
    parameters = inspect.signature(module.figures).parameters
    assert {"quick", "runs"} <= set(parameters), f"{script}.figures() takes quick and runs"


def test_a_figure_passes_only_within_every_budget_it_has() -> None:
    assert Figure("x", 0.3, baseline_name="import rdflib", baseline=0.2, budget=1.5).passed is True
    assert Figure("x", 0.31, baseline_name="import rdflib", baseline=0.2, budget=1.5).passed is False
    assert Figure("x", 12.0, limit=10.0).passed is False
    assert Figure("x", 900, "MB", "json.load", 800, limit=1536).passed is True
    assert Figure("x", 900, "MB", "json.load", 100, budget=2.0, limit=1536).passed is False
    assert Figure("x", 5.0).passed is None  # for information only


def test_the_table_shows_each_figure_with_its_baseline_ratio_and_result() -> None:
    figures = [
        Figure("mtgkb card", 0.25, "s", "import rdflib", 0.2, 2.0, note="median of 10", benchmark="lookups"),
        Figure("store build", 30.6, "s", limit=10.0, benchmark="build"),
        Figure("peak memory", 937, "MB", "json.load", 771, limit=1536, benchmark="import"),
    ]
    lines = table(figures).splitlines()
    card = next(line for line in lines if "mtgkb card (median of 10)" in line)
    assert card.split()[-6:] == ["rdflib", "200", "ms", "1.25x", "2x", "pass"]
    build = next(line for line in lines if "store build" in line)
    assert "30.6 s" in build and build.split()[-3:] == ["10.0", "s", "FAIL"]
    assert "1.22x" in next(line for line in lines if "peak memory" in line)
    assert "import rdflib: python -c 'import rdflib' in a new process" in lines
    assert lines[-1] == "2 of 3 budgets met"


def test_run_py_names_the_benchmarks_when_a_filter_matches_none() -> None:
    process = subprocess.run(
        [sys.executable, str(BENCHMARKS / "run.py"), "no-such-benchmark"], capture_output=True, text=True
    )
    assert process.returncode == 2
    assert "no benchmark matches no-such-benchmark" in process.stderr and "verdicts" in process.stderr
