"""The named queries in queries/: documented headers, every one runs, and the derived answers are right."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mtgkb.core.errors import MtgkbError, NotFoundError
from mtgkb.kb.iris import card_iri, mint
from mtgkb.kb.named_queries import catalogue, get_query, parse_param_options, run_named
from mtgkb.kb.query_files import named_query_text

QUERIES = catalogue().queries
REQUIRED = {
    "ninjutsu-family-costs",
    "mechanic-steps",
    "legal-partner-pairs",
    "card-rulings",
    "mechanic-rules",
    "cards-by-mechanic",
}


def _rows(kb, name: str, **params: str) -> list[dict[str, str]]:
    """Rows of a named query as {variable: value} (values as the SPARQL JSON results give them)."""
    result = run_named(kb, name, params, "json")
    document = json.loads(result.text())
    return [
        {variable: binding[variable]["value"] for variable in binding}
        for binding in document["results"]["bindings"]
    ]


def _projection(text: str) -> set[str] | None:
    """The variables a SELECT returns (None for SELECT *)."""
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    match = re.search(r"\bSELECT\b(.*?)\bWHERE\b", body, re.DOTALL | re.IGNORECASE)
    assert match, "named queries are SELECT queries"
    if match.group(1).strip().endswith("*"):
        return None
    # Variables inside "(… AS ?x)" count as ?x only.
    projected = re.sub(r"\(.*?\bAS\s+(\?\w+)\s*\)", r"\1", match.group(1), flags=re.DOTALL)
    return set(re.findall(r"\?(\w+)", projected))


def test_the_required_queries_exist() -> None:
    assert {query.name for query in QUERIES} >= REQUIRED


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: q.name)
def test_every_query_documents_itself_and_returns_its_params(query) -> None:
    assert query.title, f"{query.path.name} needs a '# title:' line"
    assert query.description, f"{query.path.name} needs a '# description:' line"
    projection = _projection(query.text)
    for param in query.params:
        assert (param.default is not None) + (param.example is not None) + param.optional == 1, (
            f"?{param.name} needs one of '(default: …)', '(e.g. …)' or '(optional…)'"
        )
        assert f"?{param.name}" in query.text
        # pyoxigraph binds parameters only through projected variables.
        assert projection is None or param.name in projection, f"?{param.name} must be in the SELECT clause"


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: q.name)
def test_every_query_returns_rows_with_its_defaults_and_examples(kb, query) -> None:
    examples = {param.name: param.example for param in query.params if param.example}
    assert _rows(kb, query.name, **examples), (
        f"{query.name} returned no rows against the bundled knowledge base"
    )


#: Queries whose title names the subject their default stands for: leaving it out asks that question.
_DEFAULT_IS_THE_SUBJECT = {"ninjutsu-family-costs": "family"}


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: q.name)
def test_a_missing_required_parameter_is_named_not_filled_in(run_cli, query) -> None:
    """`mtgkb query card-rulings` used to answer for Ninja of the Deep Hours."""
    for param in query.params:
        if param.default is not None:
            assert _DEFAULT_IS_THE_SUBJECT.get(query.name) == param.name, (
                f"{query.name}: ?{param.name} has a default that hides a missing parameter"
            )
    required = [param for param in query.params if param.example]
    result = run_cli("query", query.name)
    if not required:
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 2
    assert f"needs the parameter ?{required[0].name}" in result.stderr
    assert f"--param {required[0].name}=" in result.stderr
    assert "Traceback" not in result.output
    assert result.stdout == ""


def test_mechanic_steps_derives_the_ninjutsu_window(kb) -> None:
    rows = _rows(kb, "mechanic-steps", mechanic=mint("mechanic", "ninjutsu"))
    steps = [row["step"] for row in rows]
    assert steps == [
        mint("step", "declare-blockers"),
        mint("step", "first-strike-combat-damage"),
        mint("step", "combat-damage"),
        mint("step", "end-of-combat"),
    ]


def test_mechanic_steps_names_no_step() -> None:
    # The window must come from the turn graph, so the query may not list steps or phases.
    body = "\n".join(
        line for line in get_query("mechanic-steps").text.splitlines() if not line.startswith("#")
    )
    assert not re.search(r"\b(step|phase):[a-z]", body)
    assert mint("step", "x")[:-1] not in body


def test_mechanic_steps_narrows_to_named_steps(kb) -> None:
    # Sneak shares ninjutsu's unblocked-attacker demand but its requirement names the step as well.
    rows = _rows(kb, "mechanic-steps", mechanic=mint("mechanic", "sneak"))
    assert [row["step"] for row in rows] == [mint("step", "declare-blockers")]


def test_mechanic_steps_leaves_the_waived_requirements_out(kb) -> None:
    # Casting waived of sorcery timing (an instant, or flash): every step where players get priority,
    # on anyone's turn; the same columns as without the parameter.
    # ?waived is bound by `mtgkb timing`, not a parameter of the command line.
    text = named_query_text("mechanic-steps")
    casting = mint("mechanic", "casting")
    plain = kb.select(text, mechanic=casting)
    waived = kb.select(text, mechanic=casting, waived=[mint("requirement", "spell-timing")])
    assert [r["step"] for r in plain] == [mint("phase", "precombat-main"), mint("phase", "postcombat-main")]
    assert plain[0]["yourTurnOnly"] is True and waived[0]["yourTurnOnly"] is False
    assert len(waived) == 11 and mint("step", "untap") not in {r["step"] for r in waived}
    assert set(plain[0]) == set(waived[0])
    # A requirement the mechanic does not have changes nothing.
    assert kb.select(text, mechanic=casting, waived=[mint("requirement", "x")]) == plain
    assert _rows(kb, "mechanic-steps", mechanic=casting)  # the public query, unchanged


def test_the_turn_graph_is_walked_for_timing_by_one_query_only() -> None:
    # Step timing has one owner (issue 19): mechanic-steps, which `mtgkb timing` and the lookups use.
    root = Path(__file__).resolve().parents[1] / "queries"
    walkers = sorted(
        p.relative_to(root).as_posix() for p in root.rglob("*.rq") if "nextStep*" in p.read_text()
    )
    assert walkers == ["mechanic-steps.rq"]


def test_mechanic_steps_leaves_untimed_mechanics_out(kb) -> None:
    mechanics = {row["mechanic"] for row in _rows(kb, "mechanic-steps")}
    assert mint("mechanic", "ninjutsu") in mechanics
    assert mint("mechanic", "partner") not in mechanics


def _pairs(kb, **params: str) -> set[frozenset[str]]:
    return {frozenset((row["first"], row["second"])) for row in _rows(kb, "legal-partner-pairs", **params)}


def _pair(first: str, second: str) -> frozenset[str]:
    return frozenset((card_iri(first), card_iri(second)))


def test_legal_partner_pairs(kb) -> None:
    pairs = _pairs(kb)
    assert _pair("Pir, Imaginative Rascal", "Toothy, Imaginary Friend") in pairs
    assert _pair("Thrasios, Triton Hero", "Tymna the Weaver") in pairs
    # 702.124f: partner with and plain partner do not combine.
    assert _pair("Pir, Imaginative Rascal", "Thrasios, Triton Hero") not in pairs
    # Every pair is two different cards, listed once.
    assert all(len(pair) == 2 for pair in pairs)
    assert len(pairs) == len(_rows(kb, "legal-partner-pairs"))


def test_one_sided_pairings_follow_the_candidate_requirement(kb) -> None:
    pairs = _pairs(kb)
    assert _pair("Rose Tyler", "The Tenth Doctor") in pairs
    assert _pair("Wilson, Refined Grizzly", "Raised by Giants") in pairs
    # A Background is not a Doctor and a Doctor is not a Background.
    assert _pair("Rose Tyler", "Raised by Giants") not in pairs
    assert _pair("Wilson, Refined Grizzly", "The Tenth Doctor") not in pairs


def test_partner_text_variants_pair_only_with_the_same_text(kb) -> None:
    rows = _rows(kb, "legal-partner-pairs")
    text_rows = [row for row in rows if row["pairingRule"].endswith("#SameAbilityText")]
    assert text_rows, "the starter cards include partner—[text] pairs"
    for row in text_rows:
        assert _text_mechanics(kb, row["first"]) == _text_mechanics(kb, row["second"]) == {row["mechanic"]}


def _text_mechanics(kb, card: str) -> set[str]:
    query = (
        "SELECT ?card ?m WHERE { ?card mtgkb:hasAbility/mtgkb:instantiates ?m . "
        "?m mtgkb:variantOf mechanic:partner-text }"
    )
    return {row["m"] for row in kb.select(query, card=card)}


def test_legal_partner_pairs_for_one_card(kb) -> None:
    thrasios = card_iri("Thrasios, Triton Hero")
    pairs = _pairs(kb, card=thrasios)
    assert pairs and all(thrasios in pair for pair in pairs)
    assert pairs == {pair for pair in _pairs(kb) if thrasios in pair}


def test_ninjutsu_family_costs_includes_variants_and_grants(kb) -> None:
    rows = _rows(kb, "ninjutsu-family-costs")
    by_card = {row["card"]: row for row in rows}
    yuriko = by_card[card_iri("Yuriko, the Tiger's Shadow")]
    assert yuriko["mechanic"] == mint("mechanic", "commander-ninjutsu")
    assert (
        yuriko["cost"]
        == kb.select(
            "SELECT ?card ?cost WHERE { ?card mtgkb:hasAbility/mtgkb:abilityCost ?cost }", card=yuriko["card"]
        )[0]["cost"]
    )
    satoru = by_card[card_iri("Satoru Umezawa")]
    assert satoru["granted"] == "true" and satoru.get("grantedTo")
    assert all(row["cost"] for row in rows)


def test_card_rulings_are_about_the_card(kb) -> None:
    card = card_iri("Ninja of the Deep Hours")
    rows = _rows(kb, "card-rulings", card=card)
    expected = kb.select("SELECT ?card ?r WHERE { ?r mtgkb:aboutCard ?card }", card=card)
    assert {row["ruling"] for row in rows} == {row["r"] for row in expected}
    assert all(row["date"] for row in rows)


def test_mechanic_rules_lists_the_mechanics_citations(kb) -> None:
    mechanic = mint("mechanic", "ninjutsu")
    rules = {row["rule"] for row in _rows(kb, "mechanic-rules", mechanic=mechanic)}
    cited = {row["r"] for row in kb.select("SELECT ?m ?r WHERE { ?m mtgkb:citesRule ?r }", m=mechanic)}
    assert cited and cited <= rules
    assert mint("cr", "702.49a") in rules


def test_cards_by_mechanic_includes_variants(kb) -> None:
    names = {row["name"] for row in _rows(kb, "cards-by-mechanic", mechanic=mint("mechanic", "ninjutsu"))}
    assert "Yuriko, the Tiger's Shadow" in names  # through commander ninjutsu
    assert "Ninja of the Deep Hours" in names


def test_queries_lists_names_titles_and_params(run_cli, kb) -> None:
    result = run_cli("queries")
    assert result.exit_code == 0, result.stderr
    for query in QUERIES:
        assert query.name in result.stdout and query.title in result.stdout
    assert "?card" in result.stdout
    listed = json.loads(run_cli("queries", "--json").stdout)
    assert {q["name"] for q in listed["queries"]} == {q.name for q in QUERIES}


def test_query_resolves_card_names_for_iri_params(run_cli, kb) -> None:
    by_name = run_cli("query", "legal-partner-pairs", "--param", "card=Tymna the Weaver", "--format", "csv")
    by_prefix = run_cli("query", "legal-partner-pairs", "-p", "card=card:tymna-the-weaver", "--format", "csv")
    assert by_name.exit_code == 0, by_name.stderr
    assert by_name.stdout == by_prefix.stdout
    assert "thrasios-triton-hero" in by_name.stdout


def test_query_resolves_mechanic_names_and_slugs(run_cli, kb) -> None:
    outputs = [
        run_cli("query", "mechanic-steps", "-p", f"mechanic={value}", "--json")
        for value in ("Ninjutsu", "ninjutsu", "mechanic:ninjutsu", mint("mechanic", "ninjutsu"))
    ]
    assert all(output.exit_code == 0 for output in outputs), [o.stderr for o in outputs]
    assert len({output.stdout for output in outputs}) == 1


def test_an_unknown_query_suggests_the_closest(run_cli, kb) -> None:
    result = run_cli("query", "mechanic-step")
    assert result.exit_code == 2
    assert "no query named 'mechanic-step'" in result.stderr
    assert "did you mean 'mechanic-steps'" in result.stderr
    with pytest.raises(NotFoundError):
        get_query("no-such-query-at-all")


def test_an_unknown_card_name_suggests_the_closest(run_cli, kb) -> None:
    result = run_cli("query", "card-rulings", "-p", "card=Thrasois")
    assert result.exit_code == 2
    assert "Thrasios, Triton Hero" in result.stderr


def test_an_undeclared_param_lists_the_declared_ones(run_cli, kb) -> None:
    result = run_cli("query", "card-rulings", "-p", "mechanic=ninjutsu")
    assert result.exit_code == 2
    assert "?card" in result.stderr


def test_param_options_need_var_equals_value() -> None:
    assert parse_param_options(["?card=a=b", "x="]) == {"card": "a=b", "x": ""}
    with pytest.raises(MtgkbError, match="cannot read --param") as raised:
        parse_param_options(["card"])
    assert "VAR=VALUE" in (raised.value.hint or "")
