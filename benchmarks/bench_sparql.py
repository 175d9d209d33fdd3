"""``mtgkb sparql`` and ``mtgkb query`` against raw pyoxigraph: each query runs in a new process as
mtgkb (CSV) and as a bare pyoxigraph script that opens the same store and writes the same answer as
CSV; the budget is 1.3x the bare script (issue 11). Also a dump of every triple (``SELECT * WHERE
{ ?s ?p ?o }``) as CSV and as the table view, with the peak memory of each against the bare script's:
the answer streams, so its memory must not grow with its size (budget 2x the bare script's peak).

    python benchmarks/bench_sparql.py [--runs 10] [--quick] [--json]

Run it on the store you want measured (import the full pool first); the store is built before timing.
"""

from __future__ import annotations

import json
import statistics
import sys

from cold_runs import measured, medians, mtgkb_with_store
from figures import Figure, main

RUNS, QUICK_RUNS = 10, 3
DUMP_RUNS, QUICK_DUMP_RUNS = 3, 1
BUDGET = 1.3
MEMORY_BUDGET = 2.0
CARD = "Thrasios, Triton Hero"

#: The bare script: open the store read-only, run the query, write the answer as CSV.
RAW = """
import json, sys
import pyoxigraph as ox
store = ox.Store.read_only(sys.argv[1])
answer = store.query(sys.argv[2], prefixes=json.loads(sys.argv[3]))
answer.serialize(sys.stdout.buffer, format=ox.QueryResultsFormat.CSV)
"""

COUNT_CARDS = "SELECT (COUNT(?card) AS ?cards) WHERE { ?card a mtgkb:Card }"
SNEAK_COSTS = (
    "SELECT ?card ?cost WHERE { ?card mtgkb:hasAbility ?a . ?a mtgkb:instantiates mechanic:sneak ; "
    "mtgkb:abilityCost ?cost } ORDER BY ?card"
)
DUMP = "SELECT * WHERE { ?s ?p ?o }"


def _queries() -> tuple[str, list[tuple[str, list[str], str]]]:
    """The store's Oxigraph folder, and (name, mtgkb arguments, the query text the bare script runs)."""
    from mtgkb.app import open_kb
    from mtgkb.kb.named_queries import bind_params, get_query
    from mtgkb.kb.sparql_text import bind_values

    kb = open_kb()
    pairs = get_query("legal-partner-pairs")
    for_card = bind_values(pairs.text, bind_params(kb, pairs, {"card": CARD}))
    queries = [
        ("mtgkb sparql (count the cards)", ["sparql", COUNT_CARDS], COUNT_CARDS),
        ("mtgkb sparql (sneak costs)", ["sparql", SNEAK_COSTS], SNEAK_COSTS),
        ("mtgkb query legal-partner-pairs (all)", ["query", "legal-partner-pairs"], pairs.text),
        (
            f"mtgkb query legal-partner-pairs (card={CARD})",
            ["query", "legal-partner-pairs", "--param", f"card={CARD}"],
            for_card,
        ),
    ]
    return str(kb.path / "oxigraph"), queries


def figures(quick: bool = False, runs: int | None = None) -> list[Figure]:
    from mtgkb.kb.vocab import PREFIXES

    runs = runs or (QUICK_RUNS if quick else RUNS)
    dump_runs = QUICK_DUMP_RUNS if quick else DUMP_RUNS
    mtgkb = mtgkb_with_store()
    folder, queries = _queries()
    prefixes = json.dumps(PREFIXES)

    def raw(text: str) -> list[str]:
        return [sys.executable, "-c", RAW, folder, text, prefixes]

    commands = {}
    for name, arguments, text in queries:
        commands[name] = [mtgkb, *arguments, "--format", "csv"]
        commands[f"raw: {name}"] = raw(text)
    times = medians(commands, runs)
    note = f"median of {runs}"
    found = [
        Figure(name, times[name], "s", "pyoxigraph", times[f"raw: {name}"], BUDGET, note=note)
        for name, _, _ in queries
    ]

    dumps = {
        "raw": raw(DUMP),
        "csv": [mtgkb, "sparql", DUMP, "--format", "csv", "--timeout", "0"],
        "table": [mtgkb, "sparql", DUMP, "--timeout", "0"],
    }
    samples: dict[str, list[tuple[float, float]]] = {kind: [] for kind in dumps}
    for _ in range(dump_runs):
        for kind, command in dumps.items():
            samples[kind].append(measured(command))
    seconds = {kind: statistics.median(s for s, _ in runs_) for kind, runs_ in samples.items()}
    peaks = {kind: max(peak for _, peak in runs_) for kind, runs_ in samples.items()}
    dump_note = f"median of {dump_runs}"
    found += [
        Figure(
            "mtgkb sparql: every triple as CSV",
            seconds["csv"],
            "s",
            "pyoxigraph",
            seconds["raw"],
            BUDGET,
            note=dump_note,
        ),
        Figure(
            "mtgkb sparql: every triple as a table",
            seconds["table"],
            "s",
            "pyoxigraph",
            seconds["raw"],
            note=dump_note,
        ),
        Figure(
            "peak memory, every triple as CSV", peaks["csv"], "MB", "pyoxigraph", peaks["raw"], MEMORY_BUDGET
        ),
        Figure(
            "peak memory, every triple as a table",
            peaks["table"],
            "MB",
            "pyoxigraph",
            peaks["raw"],
            MEMORY_BUDGET,
        ),
    ]
    return found


if __name__ == "__main__":
    main(figures, __doc__.splitlines()[0], "sparql")
