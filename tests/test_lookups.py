"""Card, rulings, rule and search reports, from the small fixture knowledge base (``small_kb``:
tests/fixtures/lookups) whose every value is known, plus a few end-to-end checks on the bundled data."""

from __future__ import annotations

import pytest

from mtgkb.core.errors import MtgkbError, NotFoundError
from mtgkb.kb.iris import card_iri, mint, rule_iri
from mtgkb.kb.sparql_text import bind_values
from mtgkb.kb.vocab import V
from mtgkb.lookups.card import card_report
from mtgkb.lookups.rule import parse_rule_number, rule_report
from mtgkb.lookups.rulings import rulings_report
from mtgkb.lookups.search import search, search_words, snippet

# ---------------------------------------------------------------------------------------- card


def test_card_facts(small_kb) -> None:
    card = card_report(small_kb, "yuriko the tigers shadow")
    assert card.name == "Yuriko, the Tiger's Shadow"
    assert card.iri == card_iri("Yuriko, the Tiger's Shadow")
    assert card.mana_cost == "{1}{U}{B}"
    assert card.mana_value == 3
    assert card.color_identity == ["U", "B"]  # WUBRG order, whatever the data order
    assert (card.supertypes, card.types, sorted(card.subtypes)) == (
        ["Legendary"],
        ["Creature"],
        ["Human", "Ninja"],
    )
    assert (card.power, card.toughness) == ("1", "3")
    assert card.oracle_text.startswith("Fixture oracle text")  # from the imported graph


def test_card_ability_with_its_mechanic_cost_and_rules(small_kb) -> None:
    (ability,) = card_report(small_kb, "Yuriko").abilities
    assert ability.mechanic.iri == mint("mechanic", "commander-ninjutsu")
    assert ability.mechanic.variant_of == ["Ninjutsu"]
    assert ability.cost == "{U}{B}"
    rules = {ref.number: ref for ref in ability.rules}
    assert list(rules) == ["702.49d", "903.8"]
    assert rules["702.49d"].title == "Commander ninjutsu"  # curated title wins over the imported one
    assert rules["702.49d"].part_of == "Ninjutsu"
    assert rules["903.8"].title == "Commander tax"


def test_card_rulings_newest_first_with_text_or_summary(small_kb) -> None:
    rulings = card_report(small_kb, "Yuriko").rulings
    assert [r.date for r in rulings] == ["2021-03-19", "2018-08-10"]
    newest, oldest = rulings
    assert newest.text.startswith("Fixture official wording")
    assert newest.summary  # both kept; the renderer chooses
    assert oldest.text is None
    assert [m.label for m in oldest.mentions] == ["Commander ninjutsu"]
    assert oldest.cites == ["903.8"]


def test_card_cites_every_rule_of_abilities_mechanics_and_rulings(small_kb) -> None:
    assert card_report(small_kb, "Yuriko").cites == ["702.49d", "903.8"]
    assert card_report(small_kb, "Ninja of the Deep Hours").cites == ["702.49a"]


def test_card_partner_abilities(small_kb) -> None:
    (partner,) = card_report(small_kb, "Thrasios").abilities
    assert partner.mechanic.iri == mint("mechanic", "partner")
    assert [r.number for r in partner.rules] == ["702.124a"]
    (partner_with,) = card_report(small_kb, "Brallin Skyshark").abilities
    assert [(p.property, p.value, p.value_label, p.shown_as) for p in partner_with.parameters] == [
        (V.partnerWith, card_iri("Shabraz, the Skyshark"), "Shabraz, the Skyshark", None),
        (V.partnerWithName, "Shabraz, the Skyshark", None, "partner with: Shabraz, the Skyshark"),
    ]
    assert partner.parameters == []


def test_card_granted_ability(small_kb) -> None:
    (grant,) = card_report(small_kb, "Satoru Umezawa").abilities
    assert grant.mechanic is None
    assert grant.granted_to == "each creature card in your hand"
    (granted,) = grant.grants
    assert granted.mechanic.iri == mint("mechanic", "ninjutsu")
    assert granted.cost == "{2}{U}{B}"


def test_card_faces_in_order(small_kb) -> None:
    card = card_report(small_kb, "Insectile Aberration")
    assert card.name == "Delver of Secrets // Insectile Aberration"
    assert [(f.index, f.name, f.power) for f in card.faces] == [
        (0, "Delver of Secrets", "1"),
        (1, "Insectile Aberration", "3"),
    ]


def test_card_not_found_suggests(small_kb) -> None:
    with pytest.raises(NotFoundError) as raised:
        card_report(small_kb, "Thrasois")
    assert raised.value.suggestions[0] == "Thrasios, Triton Hero"


def test_card_lookup_ignores_mechanics_and_zones(small_kb) -> None:
    with pytest.raises(NotFoundError):
        card_report(small_kb, "commander ninjutsu")
    assert card_report(small_kb, "exile").iri == card_iri("Exile")


# ------------------------------------------------------------------------------------- rulings


def test_rulings_for_a_mechanic_include_its_variants(small_kb) -> None:
    report = rulings_report(small_kb, "ninjutsu")
    assert (report.subject, report.subject_kind) == ("Ninjutsu", "mechanic")
    # Ninja of the Deep Hours mentions ninjutsu; Yuriko's 2018 ruling mentions commander ninjutsu.
    assert [(r.cards[0].label, r.date) for r in report.rulings] == [
        ("Ninja of the Deep Hours", "2020-01-01"),
        ("Yuriko, the Tiger's Shadow", "2018-08-10"),
    ]


def test_rulings_for_a_card(small_kb) -> None:
    report = rulings_report(small_kb, "Yuriko")
    assert report.subject_kind == "card"
    assert [r.date for r in report.rulings] == ["2021-03-19", "2018-08-10"]


def test_rulings_prefer_a_zone_to_a_card_of_the_same_name(small_kb) -> None:
    report = rulings_report(small_kb, "exile")
    assert report.subject_kind == "zone"
    assert [r.cards[0].label for r in report.rulings] == ["Satoru Umezawa"]


def test_rulings_for_a_step_with_none(small_kb) -> None:
    report = rulings_report(small_kb, "declare blockers")
    assert (report.subject_kind, report.rulings) == ("step", [])


# ---------------------------------------------------------------------------------------- rule


def test_rule_text_comes_from_the_newest_edition(small_kb) -> None:
    rule = rule_report(small_kb, "702.49d")
    assert rule.iri == rule_iri("702.49d")
    assert rule.title == "Commander ninjutsu"
    assert rule.summary.startswith("Fixture summary")
    assert rule.editions == ["2026-04-17", "2026-01-16"]
    assert (rule.edition, rule.text) == (
        "2026-04-17",
        "Newer fixture wording of the commander ninjutsu rule.",
    )


def test_rule_text_of_a_chosen_edition(small_kb) -> None:
    rule = rule_report(small_kb, "702.49d", edition="2026-01-16")
    assert (rule.edition, rule.text) == (
        "2026-01-16",
        "Older fixture wording of the commander ninjutsu rule.",
    )


def test_rule_in_an_edition_that_lacks_it(small_kb) -> None:
    with pytest.raises(MtgkbError) as raised:
        rule_report(small_kb, "702.49c", edition="2026-01-16")
    assert "2026-04-17" in raised.value.hint


def test_rule_edition_never_imported(small_kb) -> None:
    with pytest.raises(NotFoundError) as raised:
        rule_report(small_kb, "702.49d", edition="2020-01-01")
    assert raised.value.suggestions == ["2026-04-17", "2026-01-16"]
    with pytest.raises(MtgkbError):
        rule_report(small_kb, "702.49d", edition="April 2026")


def test_rule_relations(small_kb) -> None:
    rule = rule_report(small_kb, "702.49d")
    assert rule.parent.number == "702.49"
    assert [n.number for n in rule.refers_to] == ["903.8"]
    assert [n.number for n in rule.referenced_by] == ["702.49c"]  # from the imported edition
    cited = {(n.kind, n.label): n for n in rule.cited_by}
    assert set(cited) == {
        ("mechanic", "Commander ninjutsu"),
        ("requirement", "An unblocked attacker you control"),
        ("card", "Yuriko, the Tiger's Shadow"),
    }
    assert cited["card", "Yuriko, the Tiger's Shadow"].via == ["Commander ninjutsu"]


def test_rule_cited_by_rulings_and_cards_through_granted_abilities(small_kb) -> None:
    cited = {(n.kind, n.label) for n in rule_report(small_kb, "702.49a").cited_by}
    assert ("mechanic", "Ninjutsu") in cited
    assert ("card", "Satoru Umezawa") in cited  # its static ability grants ninjutsu
    assert ("card", "Ninja of the Deep Hours") in cited
    assert any(kind == "ruling" for kind, _ in cited)


def test_subrules_by_parent_and_by_number(small_kb) -> None:
    assert [n.number for n in rule_report(small_kb, "702.49").subrules] == ["702.49a", "702.49c", "702.49d"]
    # 702's children are the rules 702.N, not the subrules below them.
    assert [n.number for n in rule_report(small_kb, "702").subrules] == ["702.49"]


def test_rule_numbers_are_read_leniently() -> None:
    assert parse_rule_number("CR 702.49D.") == "702.49d"
    assert parse_rule_number(" rule 903.8 ") == "903.8"


def test_malformed_rule_number_explains_the_format(small_kb) -> None:
    with pytest.raises(MtgkbError) as raised:
        rule_report(small_kb, "abc")
    assert not isinstance(raised.value, NotFoundError)
    assert "702.49d" in raised.value.hint


def test_unknown_rule_suggests_neighbours(small_kb) -> None:
    with pytest.raises(NotFoundError) as raised:
        rule_report(small_kb, "702.49z")
    assert "702.49d" in raised.value.suggestions
    assert all(number.startswith("702.49") for number in raised.value.suggestions)


# -------------------------------------------------------------------------------------- search


def test_search_needs_every_word(small_kb) -> None:
    result = search(small_kb, "unblocked attacker", limit=10)
    by_kind = {group.kind: group for group in result.groups}
    assert [h.iri for h in by_kind["rule"].hits] == [rule_iri("702.49a")]
    assert [h.label for h in by_kind["ruling"].hits] == ["Ninja of the Deep Hours, 2020-01-01"]
    assert search(small_kb, "unblocked xyzzy", limit=10).total == 0


def test_search_cards_by_name_and_oracle_text_any_case(small_kb) -> None:
    cards = search(small_kb, "NINJA combat", limit=10).groups[0]
    assert [h.label for h in cards.hits] == ["Yuriko, the Tiger's Shadow"]
    assert cards.hits[0].field == "oracle text"
    names = search(small_kb, "sakashima", limit=10).groups[0]
    assert [h.label for h in names.hits] == ["Sakashima the Impostor", "Sakashima's Student"]


def test_search_official_rule_text_and_limit(small_kb) -> None:
    rules = search(small_kb, "fixture wording", limit=1).groups[1]
    assert rules.total == 3  # 702.49a (old edition), 702.49c, 702.49d
    assert len(rules.hits) == 1


def test_search_words_are_never_read_as_query_syntax(small_kb) -> None:
    # One word holding a quote, a backslash and braces: it is the word the query scans for.
    assert search(small_kb, 'x"))}UNION{?s\\?p?o', limit=5).total == 0


def test_an_iri_that_could_break_a_query_is_refused() -> None:
    with pytest.raises(ValueError):
        bind_values("SELECT * WHERE { ?card ?p ?o }", {"card": "https://w3id.org/x> ?p ?o } #"})


def test_search_without_words_is_a_user_error(small_kb) -> None:
    with pytest.raises(MtgkbError):
        search(small_kb, "  ,, ", limit=5)


def test_search_words_and_snippet() -> None:
    assert search_words('"Commander" tax, commander') == ["commander", "tax"]
    text = "word " * 40 + "needle " + "word " * 40
    cut = snippet(text, ["needle"])
    assert "needle" in cut and cut.startswith("…") and cut.endswith("…")
    assert snippet("short needle text", ["needle"]) == "short needle text"


# ------------------------------------------------------------------- end to end, bundled data


def test_bundled_yuriko_has_commander_ninjutsu_citing_702_49d(kb) -> None:
    card = card_report(kb, "Yuriko, the Tiger's Shadow")
    mechanics = {a.mechanic.iri for a in card.abilities if a.mechanic}
    assert mint("mechanic", "commander-ninjutsu") in mechanics
    assert "702.49d" in card.cites


def test_bundled_silver_fur_master_has_ninjutsu_and_changes_ninjutsu(kb) -> None:
    from mtgkb.cli.render.lookups import render_card

    card = card_report(kb, "Silver-Fur Master")
    ninjutsu = mint("mechanic", "ninjutsu")
    (changing,) = [a for a in card.abilities if a.changes]
    assert changing.changes.iri == ninjutsu
    assert changing.changes.label == "Ninjutsu"
    # It changes ninjutsu without being ninjutsu, so the ninjutsu rules are not its rules.
    assert changing.mechanic is None and changing.rules == []
    (own,) = [a for a in card.abilities if a.mechanic and a.mechanic.iri == ninjutsu]
    assert own.cost == "{U}{B}" and own.changes is None
    assert "changes: Ninjutsu" in render_card(card)


def test_bundled_rule_702_49d_is_cited_by_commander_ninjutsu(kb) -> None:
    cited = {n.iri for n in rule_report(kb, "702.49d").cited_by}
    assert mint("mechanic", "commander-ninjutsu") in cited


def test_bundled_ninjutsu_rulings_are_newest_first(kb) -> None:
    dates = [r.date for r in rulings_report(kb, "ninjutsu").rulings]
    assert dates == sorted(dates, reverse=True)
