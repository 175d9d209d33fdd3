"""What the checks every query passes before Oxigraph parses it cost (issue 18): tokenizing a query and
measuring its nesting and size (``mtgkb.kb.query_limits.check_query``), on the largest queries it
accepts and on the attacks it refuses, beside Oxigraph parsing the accepted ones.

    python benchmarks/bench_parser_limits.py [--runs 5] [--quick] [--json]
"""

from __future__ import annotations

import contextlib
import statistics
import time

from figures import Figure, main

RUNS, QUICK_RUNS = 5, 1


def _queries() -> dict[str, str]:
    many_values = " ".join(f'"value {index} with \\"escapes\\""' for index in range(20_000))
    return {
        "accepted: VALUES of 20,000 strings": f"SELECT * {{ VALUES ?x {{ {many_values} }} ?x ?p ?o }}",
        "accepted: 250 triples, 60-deep groups": "SELECT * { "
        + "{ " * 60
        + " . ".join(f"?s{index} mtgkb:p ?o{index}" for index in range(250))
        + " }" * 60
        + " }",
        "refused: 10,000 UNION branches": "SELECT * { " + " UNION ".join(["{ ?s ?p ?o }"] * 10_000) + " }",
        "refused: 20,000 && terms": "SELECT * { ?s ?p ?o FILTER(" + " && ".join(["?o"] * 20_000) + ") }",
        "refused: 3,000 nested groups": "SELECT * { " + "{ " * 3000 + "}" * 3000 + " }",
    }


def _best(run, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times) if runs < 3 else statistics.median(times)


def figures(quick: bool = False, runs: int | None = None) -> list[Figure]:
    import pyoxigraph as ox

    from mtgkb.core.errors import MtgkbError
    from mtgkb.kb.query_limits import check_query
    from mtgkb.kb.vocab import PREFIXES

    runs = runs or (QUICK_RUNS if quick else RUNS)
    store = ox.Store()
    found = []
    for name, query in _queries().items():

        def check(query: str = query) -> None:
            with contextlib.suppress(MtgkbError):
                check_query(query)

        seconds = _best(check, runs)
        note = f"{len(query) / 1024:.0f} KB"
        if name.startswith("accepted"):
            parse = _best(lambda query=query: store.query(query, prefixes=PREFIXES), runs)
            found.append(Figure(f"check {name}", seconds, "s", "Oxigraph parse", parse, note=note))
        else:
            found.append(Figure(f"check {name}", seconds, "s", note=note))
    return found


if __name__ == "__main__":
    main(figures, __doc__.splitlines()[0], "parser_limits")
