"""The commander verdict and the partner network: input mistakes on the bundled knowledge base, then
the whole imported card pool against the subset snapshot's hand-made categories.

The judge scenarios themselves are data: tests/scenarios/commanders-*.json."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from card_pool import expected_slugs, load_subset

from mtgkb.kb.iris import VOCAB, card_iri, mint

# --------------------------------------------------------------------------------------------------
# Bad input, on the bundled knowledge base


def test_a_misspelt_name_is_an_error_with_a_suggestion(run_cli, kb) -> None:
    result = run_cli("commanders", "Thrasois", "Tymna the Weaver")
    assert result.exit_code == 2
    assert "no card named 'Thrasois'" in result.stderr
    assert "Thrasios, Triton Hero" in result.stderr
    assert "Traceback" not in result.output


def test_no_names_is_a_usage_error(run_cli, kb) -> None:
    result = run_cli("commanders")
    assert result.exit_code == 2
    assert "Missing argument" in result.stderr


def test_an_empty_name_is_an_error(run_cli, kb) -> None:
    result = run_cli("commanders", "Thrasios, Triton Hero", " ")
    assert result.exit_code == 2
    assert "empty" in result.stderr


def test_partners_of_a_card_without_partner_ability_says_why(run_cli, kb) -> None:
    result = run_cli("partners", "Grizzly Bears")
    assert result.exit_code == 2
    assert "no partner ability" in result.stderr
    assert "702.124a" in result.stderr


def test_more_than_two_names_is_a_no_with_the_rule(run_cli, kb) -> None:
    result = run_cli("commanders", "Thrasios", "Tymna", "Pir", "Toothy", "--json")
    assert result.exit_code == 1
    answer = json.loads(result.stdout)
    failing = [c for c in answer["checks"] if not c["holds"]]
    assert any("702.124g" in c["cites"] for c in failing)


def test_every_no_has_a_failing_check_that_cites_a_rule(run_cli, kb) -> None:
    for names in (("Grizzly Bears",), ("Folk Hero", "Raised by Giants"), ("Rose Tyler", "Orvar")):
        answer = json.loads(run_cli("commanders", *names, "--json").stdout)
        assert answer["answer"] is False
        assert all(c["cites"] for c in answer["checks"] if not c["holds"]), names


def test_text_output_names_the_answer_and_the_rules(run_cli, kb) -> None:
    result = run_cli("commanders", "Pir", "Toothy")
    assert result.exit_code == 0
    assert "YES" in result.stdout.splitlines()[0]
    assert "Paired through: Partner with [name]" in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith("Cites CR ")


def test_partners_limit_keeps_the_counts(run_cli, kb) -> None:
    answer = json.loads(run_cli("partners", "Folk Hero", "--limit", "1", "--json").stdout)
    (group,) = answer["groups"]
    assert group["count"] == 2 and len(group["partners"]) == 1
    assert group["partners"][0]["name"] == "Karlach, Fury of Avernus"  # sorted by name


# --------------------------------------------------------------------------------------------------
# The full imported pool


@pytest.fixture(scope="module")
def network(card_pool):
    from mtgkb.reasoning.commanders.partner_graph import read_network

    return read_network(card_pool.kb)


def _partner_categories(record: dict) -> set[str]:
    own, _granted, roles = expected_slugs(record)
    return {slug for slug in own if slug != "ninjutsu" and slug != "commander-ninjutsu"} | roles


def test_every_subset_partner_card_is_classified_as_its_categories_say(
    shared_data: Path, card_pool, network
) -> None:
    from mtgkb.reasoning.commanders.model import load_cards

    model = network.model
    problems = []
    checked = 0
    wanted = {card_iri(r["name"]): r for r in load_subset(shared_data) if _partner_categories(r)}
    # The snapshots lack some subset cards (CLB Backgrounds in no precon, see shared/data/README.md).
    in_pool = load_cards(card_pool.kb, list(wanted))
    for iri, record in wanted.items():
        expected = _partner_categories(record)
        if iri not in in_pool:
            continue
        card = network.cards.get(iri)
        if card is None:
            problems.append(f"{record['name']}: not read as a partner-family card")
            continue
        found = {a.mechanic.rsplit("/", 1)[1] for a in card.partner_abilities(model)}  # type: ignore[union-attr]
        background = model.requirements[mint("requirement", "legendary-background-enchantment-card")]
        from mtgkb.reasoning.commanders.verdict import unmet

        if not unmet(model, card, background):
            found.add("background")
        checked += 1
        if found != expected:
            problems.append(f"{record['name']}: expected {sorted(expected)}, found {sorted(found)}")
    assert checked >= 180
    assert problems == []


def test_every_partner_with_pair_is_found_and_reciprocal(network) -> None:
    model = network.model
    named = {
        (card.iri, ability.partner_with)
        for card in network.cards.values()
        for ability in card.partner_abilities(model)
        if ability.partner_with
    }
    assert len(named) >= 50
    one_sided = [(there, back) for there, back in named if (back, there) not in named]
    # Reversible printings ("Okaun, Eye of Chaos // Okaun, Eye of Chaos") are cards of their own in
    # the MTGJSON snapshot and name the plain card, which names the plain card back.
    for there, _back in one_sided:
        faces = network.cards[there].name.split(" // ")
        assert len(faces) == 2 and faces[0] == faces[1], f"{there} is not named back"
    named -= set(one_sided)
    edges = {(e.first, e.second) for e in network.edges if e.mechanic.endswith("/partner-with")}
    # A card whose partner with names itself (Mothers Yamazaki) would be one card twice (903.5b).
    expected = {tuple(sorted(pair)) for pair in named if pair[0] != pair[1]}
    # Every mutual pair of legendary cards is an edge; the only ones left out are non-legendary halves.
    missing = expected - edges
    for first, second in missing:
        for iri in (first, second):
            card = network.cards[iri]
            assert "Legendary" not in card.supertypes or "Creature" not in card.types, (first, second)
    assert len(edges) >= 20


def test_pairs_per_ability_on_the_full_pool(network) -> None:
    counts = Counter(edge.via for edge in network.edges)
    # Plain partner pairs every partner card with every other: n * (n - 1) / 2.
    partner_cards = {e.first for e in network.edges if e.via == "Partner"} | {
        e.second for e in network.edges if e.via == "Partner"
    }
    assert counts["Partner"] == len(partner_cards) * (len(partner_cards) - 1) // 2
    for via in (
        "Partner",
        "Partner with [name]",
        "Choose a Background",
        "Doctor's companion",
        "Partner\u2014Survivors",
    ):
        assert counts[via] > 0, via


def test_verdict_and_network_agree_on_the_full_pool(card_pool, network) -> None:
    from mtgkb.reasoning.commanders.verdict import commanders_verdict

    samples = [e for e in network.edges][:: max(1, len(network.edges) // 25)]
    for edge in samples:
        verdict = commanders_verdict(
            card_pool.kb, [network.cards[edge.first].name, network.cards[edge.second].name]
        )
        assert verdict.answer and verdict.via_mechanic == edge.mechanic, (edge, verdict.checks)


@pytest.mark.parametrize(
    ("names", "identity"),
    [
        (["Ayara, Widow of the Realm // Ayara, Furnace Queen"], ["B", "R"]),
        (["Esika, God of the Tree // The Prismatic Bridge"], ["W", "U", "B", "R", "G"]),
        (["Jace, Vryn's Prodigy // Jace, Telepath Unbound"], ["U"]),
        (["Kraum, Ludevic's Opus", "Tymna the Weaver"], ["W", "U", "B", "R"]),
    ],
)
def test_colour_identity_on_the_full_pool(card_pool, names: list[str], identity: list[str]) -> None:
    from mtgkb.reasoning.commanders.verdict import commanders_verdict

    verdict = commanders_verdict(card_pool.kb, names)
    assert verdict.color_identity == identity


def test_the_store_holds_every_legal_pair_as_a_cited_edge(kb) -> None:
    from mtgkb.reasoning.commanders.partner_graph import read_network

    network = read_network(kb)
    rows = kb.select(
        "SELECT ?pair ?a ?b ?m (COUNT(?rule) AS ?rules) WHERE { ?pair a mtgkb:CommanderPair ; "
        "mtgkb:pairMember ?a, ?b ; mtgkb:pairedThrough ?m ; mtgkb:citesRule ?rule . "
        "FILTER(STR(?a) < STR(?b)) } GROUP BY ?pair ?a ?b ?m"
    )
    stored = {(r["a"], r["b"], r["m"]) for r in rows}
    assert stored == {(e.first, e.second, e.mechanic) for e in network.edges}
    assert len(rows) >= 10 and all(r["rules"] >= 1 for r in rows)


@pytest.mark.parametrize(
    ("other", "via"), [("Rory Williams", "Partner with [name]"), ("The Tenth Doctor", "Doctor's companion")]
)
def test_a_card_with_two_partner_abilities_uses_one_of_them(card_pool, other: str, via: str) -> None:
    from mtgkb.reasoning.commanders.verdict import commanders_verdict

    verdict = commanders_verdict(card_pool.kb, ["Amy Pond", other])
    assert verdict.answer and verdict.via == via
    assert "702.124g" in verdict.cites


def test_every_starter_pair_is_judged_the_same_both_ways_and_as_the_network_says(kb) -> None:
    """Exhaustive over the bundled cards: the verdict is symmetric, and a pair is in the stored partner
    network exactly when the verdict says yes."""
    from mtgkb.reasoning.commanders.model import load_cards, load_model
    from mtgkb.reasoning.commanders.verdict import judge

    model = load_model(kb)
    iris = [row["c"] for row in kb.select("SELECT ?c WHERE { ?c a mtgkb:Card }")]
    cards = load_cards(kb, iris)
    stored = {
        frozenset((row["a"], row["b"]))
        for row in kb.select(
            "SELECT ?a ?b WHERE { ?p a mtgkb:CommanderPair ; mtgkb:pairMember ?a, ?b . FILTER(?a != ?b) }"
        )
    }
    legal = set()
    for first in cards.values():
        for second in cards.values():
            if first.iri >= second.iri:
                continue
            forward, backward = judge(model, [first, second]), judge(model, [second, first])
            names = (first.name, second.name)
            assert forward.answer == backward.answer and forward.via == backward.via, names
            if forward.answer:
                legal.add(frozenset((first.iri, second.iri)))
    assert legal == stored and len(legal) >= 10


# --------------------------------------------------------------------------------------------------
# Cannot tell: a pair resting on a requirement property no evaluator knows is no pair and no "no"

MADE_UP = VOCAB + "requiresFullMoon"


def _model_with_an_unmodelled_candidate(kb):
    """The commander rules, with a made-up requirement property on the Background candidate."""
    import copy

    from mtgkb.reasoning.commanders.model import load_model

    model = copy.deepcopy(load_model(kb))
    background = model.mechanics[mint("mechanic", "choose-a-background")]
    model.requirements[background.candidate].unmodelled = [MADE_UP]
    return model


def test_a_pair_with_an_unmodelled_candidate_requirement_is_derived_as_cannot_tell(kb, monkeypatch) -> None:
    from mtgkb.reasoning.commanders import partner_graph

    model = _model_with_an_unmodelled_candidate(kb)
    monkeypatch.setattr(partner_graph, "load_model", lambda _kb: model)
    network = partner_graph.read_network(kb)
    background = mint("mechanic", "choose-a-background")
    untold = [e for e in network.edges if e.mechanic == background]
    assert untold and all(e.unmodelled == [MADE_UP] for e in untold)
    assert all(not e.unmodelled for e in network.edges if e.mechanic != background)
    quads = partner_graph.derive_pairs(kb)
    assert quads.count("#cannotTell>") == len(untold) and f"<{MADE_UP}>" in quads


def test_partners_cannot_tell_for_a_pair_not_modelled(run_cli, kb, monkeypatch) -> None:
    # The rows the store would hold after a build with that model: the pairs of the Background Folk
    # Hero marked cannot tell.
    from mtgkb.kb.store import KnowledgeBase
    from mtgkb.reasoning.commanders import partner_graph

    model = _model_with_an_unmodelled_candidate(kb)
    monkeypatch.setattr(partner_graph, "load_model", lambda _kb: model)
    edges = {(e.first, e.second): e for e in partner_graph.read_network(kb).edges}
    real = KnowledgeBase.select

    def select(self, sparql, **params):
        rows = real(self, sparql, **params)
        if "?cannotTell ?notModelled" not in sparql:
            return rows
        card = params["card"]
        kept = []
        for row in rows:
            edge = edges.get(tuple(sorted((card, row["other"]))))
            if edge is not None and edge.unmodelled:
                row = {**row, "cannotTell": True, "notModelled": edge.unmodelled[0]}
            kept.append(row)
        return kept

    monkeypatch.setattr(KnowledgeBase, "select", select)
    result = run_cli("partners", "Folk Hero", "--json")
    assert result.exit_code == 3, result.output
    report = json.loads(result.stdout)
    assert report["answer"] is None and report["not_modelled"] == [MADE_UP]
    assert report["total"] == 0 and report["groups"] == []
    assert {p["name"] for g in report["cannot_tell"] for p in g["partners"]} >= {"Karlach, Fury of Avernus"}
    text = run_cli("partners", "Folk Hero")
    assert text.exit_code == 3 and "CANNOT TELL" in text.stdout and "requiresFullMoon" in text.stdout
    # A card whose pairs are all told still answers, exit 0.
    assert run_cli("partners", "Thrasios, Triton Hero").exit_code == 0


def test_the_commanders_verdict_cannot_tell_for_an_unmodelled_candidate(kb, monkeypatch) -> None:
    from mtgkb.reasoning.commanders import verdict as commanders
    from mtgkb.reasoning.commanders.model import load_cards

    model = _model_with_an_unmodelled_candidate(kb)
    monkeypatch.setattr(commanders, "load_model", lambda _kb: model)
    answer = commanders.commanders_verdict(kb, ["Karlach, Fury of Avernus", "Folk Hero"])
    assert answer.answer is None and any(c.holds is None for c in answer.checks)
    assert any("requiresFullMoon" in c.because for c in answer.checks if c.holds is None)
    # What is modelled still fails as before: two Backgrounds are no pair.
    cards = load_cards(kb, [card_iri("Folk Hero"), card_iri("Raised by Giants")])
    assert commanders.judge(model, list(cards.values())).answer is False
