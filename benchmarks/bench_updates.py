"""A change costs the size of the change (issue 11): on a copy of the pool in the data directory (import
the full pool first), time

- the import of a new Comprehensive Rules edition on top of the pool, against the same import into an
  empty store (budget 2x);
- an edit of one file in data/, then a card lookup (which brings the store up to date first), against
  the same lookup on a current store (budget 3x);
- a search right after the import, against a later one (budget 2x: the index is built with the store);
- a build from scratch of the pool (under 10 s);

and report the disk the pool takes: the imported files, the store and its indexes, against the store
alone (budget 3x).

    python benchmarks/bench_updates.py [--runs 5] [--quick] [--json] [--rules FILE]

Everything runs in new processes, in a temporary copy of ontology/, data/ and the data directory's
imports with its own cache: the user's files and store are untouched.
"""

from __future__ import annotations

import calendar
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from cold_runs import ENVIRONMENT, medians, mtgkb_command, wall_time
from figures import Figure, main

RULES = Path(__file__).resolve().parents[2] / "shared" / "data" / "rules" / "MagicCompRules-20260417.txt"
REPO = Path(__file__).resolve().parents[1]
RUNS, QUICK_RUNS = 5, 2
IMPORT_BUDGET = 2.0
EDIT_BUDGET = 3.0
SEARCH_BUDGET = 2.0
BUILD_LIMIT = 10.0
DISK_BUDGET = 3.0
CARD = "Grizzly Bears"
CARD_FILE = "data/cards/grizzly-bears.ttl"
_EFFECTIVE = re.compile(r"effective as of (\w+ \d+, \d{4})")


def _edition(source: Path, folder: Path, year: int) -> Path:
    """A copy of the rules text effective on another day: a new edition for the importer."""
    text = source.read_text(encoding="utf-8")
    if not _EFFECTIVE.search(text):
        sys.exit(f"{source} says nowhere when it is effective")
    path = folder / f"rules-{year}.txt"
    path.write_text(
        _EFFECTIVE.sub(f"effective as of {calendar.month_name[year % 12 + 1]} 1, {year}", text, count=1),
        "utf-8",
    )
    return path


def _size(path: Path) -> float:
    """Megabytes of the files under ``path`` (each hard-linked file once)."""
    seen: set[int] = set()
    total = 0
    for file in [path] if path.is_file() else path.rglob("*"):
        stat = file.stat()
        if file.is_file() and stat.st_ino not in seen:
            seen.add(stat.st_ino)
            total += stat.st_size
    return total / 1e6


def _current_store(cache: Path) -> Path:
    return max((cache / "stores").iterdir(), key=lambda p: (p / "meta.json").stat().st_mtime)


def figures(quick: bool = False, runs: int | None = None, rules: Path = RULES) -> list[Figure]:
    from mtgkb.core.paths import imports_dir

    runs = runs or (QUICK_RUNS if quick else RUNS)
    mtgkb = mtgkb_command()
    pool = imports_dir()
    if not any(pool.glob("*.nq*")):
        sys.exit(f"no imported files in {pool}: import the full pool first")
    found: list[Figure] = []
    with tempfile.TemporaryDirectory() as home:
        base = Path(home)
        for top in ("ontology", "data"):
            shutil.copytree(REPO / top, base / "kb" / top)
        shutil.copytree(pool, base / "data" / "imports")
        env = dict(ENVIRONMENT, MTGKB_ROOT=str(base / "kb"), MTGKB_CACHE_DIR=str(base / "cache"))
        env["MTGKB_DATA_DIR"] = str(base / "data")
        empty = dict(env, MTGKB_DATA_DIR=str(base / "empty-data"), MTGKB_CACHE_DIR=str(base / "empty-cache"))

        builds = [wall_time([mtgkb, "build", "--full"], env) for _ in range(max(1, runs // 2))]
        note = f"median of {len(builds)}"
        name = "build of the pool from scratch (mtgkb build --full)"
        found.append(Figure(name, statistics.median(builds), "s", limit=BUILD_LIMIT, note=note))

        wall_time([mtgkb, "build"], empty)
        on_pool, on_empty, first_search, later_search = [], [], [], []
        search = [mtgkb, "search", "unblocked attacker"]
        for run in range(runs):
            edition = _edition(rules, base, 2100 + run)
            on_empty.append(wall_time([mtgkb, "import", "rules", "-q", str(edition)], empty))
            on_pool.append(wall_time([mtgkb, "import", "rules", "-q", str(edition)], env))
            first_search.append(wall_time(search, env))
            later_search.append(wall_time(search, env))
        note = f"median of {runs}"
        found += [
            Figure(
                "import of a new rules edition on top of the pool",
                statistics.median(on_pool),
                "s",
                "empty store",
                statistics.median(on_empty),
                IMPORT_BUDGET,
                note=note,
            ),
            Figure(
                "first search after the import",
                statistics.median(first_search),
                "s",
                "later search",
                statistics.median(later_search),
                SEARCH_BUDGET,
                note=note,
            ),
        ]

        lookup = [mtgkb, "card", CARD]
        warm = medians({"warm": lookup}, runs, env)["warm"]
        card = base / "kb" / CARD_FILE
        original = card.read_text(encoding="utf-8")
        after_edit = []
        for run in range(runs):
            # A fact of the card changes (the lookup shows it), so its graph is replaced.
            card.write_text(f'{original}\ncard:grizzly-bears rdfs:comment "edit {run}" .\n', "utf-8")
            after_edit.append(wall_time(lookup, env))
        found.append(
            Figure(
                f"edit {CARD_FILE}, then mtgkb card {CARD!r}",
                statistics.median(after_edit),
                "s",
                "warm lookup",
                warm,
                EDIT_BUDGET,
                note=note,
            )
        )

        wall_time(search, env)  # the index the edits left to the first search is written now
        store = _current_store(base / "cache")
        alone = _size(store / "oxigraph")
        together = _size(base / "data" / "imports") + _size(store)
        found.append(
            Figure(
                "disk: imported files, store and indexes",
                together,
                "MB",
                "store alone",
                alone,
                DISK_BUDGET,
                note=f"store {alone:,.0f} MB, search index {_size(store / 'search.sqlite'):,.0f} MB, "
                f"imports {_size(base / 'data' / 'imports'):,.0f} MB",
            )
        )
    return found


if __name__ == "__main__":
    if "--rules" in sys.argv:
        at = sys.argv.index("--rules")
        RULES = Path(sys.argv[at + 1])
        del sys.argv[at : at + 2]
    main(lambda quick, runs: figures(quick, runs, RULES), __doc__.splitlines()[0], "updates")
