"""The figures benchmarks report: one row per measurement with its baseline, measured in the same run,
and its budget; and the one table they are printed in (by each script alone, or by ``run.py`` for all).

A budget is a ratio to the baseline (``budget``), an absolute ceiling (``limit``, in the figure's
unit), or both; a figure with neither is reported for information.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

#: Baselines, as the table names them, with what each one runs.
BASELINES = {
    "import rdflib": "python -c 'import rdflib' in a new process",
    "json.load": "python -c 'json.load(gzip.open(FILE))' of the imported file, in a new process",
    "pyoxigraph": "a new Python process that opens the same store with pyoxigraph and writes the "
    "same query's answer as CSV",
    "later search": "the same search once the search index exists",
    "Store.dump": "a new Python process in which pyoxigraph's Store.dump writes the same graphs to a "
    "file (N-Triples, or Turtle for Turtle and TriG)",
    "empty store": "the same import into an empty data directory (the shipped files only)",
    "warm lookup": "the same lookup on a store that is up to date",
    "store alone": "the Oxigraph folder of the store",
    "Oxigraph parse": "pyoxigraph parsing and planning the same query over an empty in-memory store",
    "one edition": "the same import of the one current CR edition (2026-04-17) into an empty data directory",
}


@dataclass
class Figure:
    """One measurement. ``value`` and ``baseline`` are seconds (unit "s") or megabytes ("MB")."""

    name: str
    value: float
    unit: str = "s"
    baseline_name: str | None = None  # a key of BASELINES
    baseline: float | None = None
    budget: float | None = None  # at most this many times the baseline
    limit: float | None = None  # at most this much, in ``unit``
    note: str = ""  # how it was measured: "median of 10", …
    benchmark: str = ""  # the script it comes from; run.py fills it in

    @property
    def ratio(self) -> float | None:
        return self.value / self.baseline if self.baseline else None

    @property
    def passed(self) -> bool | None:
        """Whether the figure is within every budget it has (None: it has none)."""
        checks = []
        if self.budget is not None and self.ratio is not None:
            checks.append(self.ratio <= self.budget)
        if self.limit is not None:
            checks.append(self.value <= self.limit)
        return all(checks) if checks else None


def amount(value: float, unit: str) -> str:
    if unit == "s":
        if value < 0.1:
            return f"{value * 1000:.1f} ms"
        return f"{value * 1000:.0f} ms" if value < 10 else f"{value:.1f} s"
    return f"{value:,.0f} {unit}"


def table(figures: Sequence[Figure]) -> str:
    """The figures as one aligned text table, with the baselines it uses explained below it."""
    headers = ["benchmark", "figure", "value", "baseline", "ratio", "budget", "result"]
    rows = []
    for figure in figures:
        budgets = []
        if figure.budget is not None:
            budgets.append(f"{figure.budget:g}x")
        if figure.limit is not None:
            budgets.append(amount(figure.limit, figure.unit))
        baseline = (
            f"{figure.baseline_name} {amount(figure.baseline, figure.unit)}"
            if figure.baseline is not None and figure.baseline_name
            else "-"
        )
        result = {True: "pass", False: "FAIL", None: "-"}[figure.passed]
        rows.append(
            [
                figure.benchmark,
                figure.name + (f" ({figure.note})" if figure.note else ""),
                amount(figure.value, figure.unit),
                baseline,
                f"{figure.ratio:.2f}x" if figure.ratio is not None else "-",
                " and ".join(budgets) or "-",
                result,
            ]
        )
    widths = [
        max(len(str(cell)) for cell in [header, *(row[at] for row in rows)])
        for at, header in enumerate(headers)
    ]
    right = {"value", "ratio"}
    lines = []
    for row in [headers, ["-" * width for width in widths], *rows]:
        cells = [
            str(cell).rjust(width) if header in right else str(cell).ljust(width)
            for cell, width, header in zip(row, widths, headers, strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
    used = sorted({figure.baseline_name for figure in figures if figure.baseline_name})
    lines += ["", *(f"{name}: {BASELINES[name]}" for name in used if name in BASELINES)]
    passed = [figure.passed for figure in figures if figure.passed is not None]
    lines.append(f"{passed.count(True)} of {len(passed)} budgets met")
    return "\n".join(lines)


def as_json(figures: Sequence[Figure]) -> str:
    return json.dumps(
        [{**asdict(figure), "ratio": figure.ratio, "passed": figure.passed} for figure in figures], indent=2
    )


def main(figures: Callable[..., list[Figure]], description: str, name: str) -> None:
    """What each benchmark script does when run alone: its figures as a table (or JSON)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--runs", type=int, default=None, help="how many times to run each command")
    parser.add_argument("--quick", action="store_true", help="fewer runs")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    found = figures(quick=args.quick, runs=args.runs)
    for figure in found:
        figure.benchmark = name
    print(as_json(found) if args.json else table(found))
