"""Right answers on the whole pool (issue 9): the Comprehensive Rules, the Scryfall commander list and
the full MTGJSON snapshot imported together, as a judge or a tool would have them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from card_pool import imported_pool, user_dirs
from click.testing import CliRunner, Result

from mtgkb.cli import _register_commands, cli

_register_commands()


@pytest.fixture(scope="session")
def pool(shared_data: Path, tmp_path_factory: pytest.TempPathFactory):
    return imported_pool(shared_data, tmp_path_factory.mktemp("card-pool"))


def run(pool, *argv: str) -> Result:
    with user_dirs(pool.base):
        return CliRunner().invoke(cli, list(argv), catch_exceptions=False)


def run_json(pool, *argv: str) -> dict:
    result = run(pool, *argv, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# --- one fact, one answer ------------------------------------------------------------------------


def test_a_fact_stated_by_several_sources_is_one_row(pool) -> None:
    """Splinter's sneak cost is stated by our starter card and by the Scryfall list."""
    query = (
        "SELECT ?card ?cost WHERE { ?card mtgkb:hasAbility ?a . "
        "?a mtgkb:instantiates mechanic:sneak ; mtgkb:abilityCost ?cost }"
    )
    stating = pool.kb.select(
        "SELECT DISTINCT ?g WHERE { GRAPH ?g { card:splinter-hamato-yoshi mtgkb:hasAbility ?a } }"
    )
    assert len(stating) >= 2
    rows = [(row["card"], row["cost"]) for row in pool.kb.select(query)]
    assert len(rows) == len(set(rows))
    assert [cost for card, cost in rows if card.endswith("/splinter-hamato-yoshi")] == ["{B}"]


def test_counting_cards_counts_each_card_once(pool) -> None:
    counted = pool.kb.select("SELECT (COUNT(?c) AS ?n) WHERE { ?c a mtgkb:Card }")[0]["n"]
    distinct = pool.kb.select("SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c a mtgkb:Card }")[0]["n"]
    assert counted == distinct > 29_000


def test_the_default_graph_is_the_set_union_of_the_sources(pool) -> None:
    default = pool.kb.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")[0]["n"]
    union = pool.kb.select(
        "SELECT (COUNT(*) AS ?n) WHERE { SELECT DISTINCT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } } }"
    )[0]["n"]
    assert default == union
    assert default < sum(pool.kb.meta["graphs"].values())


def test_the_ninjutsu_costs_query_lists_each_card_once(pool) -> None:
    rows = run_json(pool, "query", "ninjutsu-family-costs")["results"]["bindings"]
    keys = [tuple(sorted((k, v["value"]) for k, v in row.items())) for row in rows]
    assert len(keys) == len(set(keys))
    nashi = [row for row in rows if row["card"]["value"].endswith("/nashi-moon-sages-scion")]
    assert len(nashi) == 1
