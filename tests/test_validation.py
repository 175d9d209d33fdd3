"""SHACL validation of small Turtle fixtures: each broken file is caught and named in the report.

The fixtures are written here, in tmp paths, so these tests do not depend on data/ (only the last
test validates the shipped data). Summaries in the fixtures are invented test prose.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import rdflib

from mtgkb.kb.iris import card_iri, mint, rule_iri, ruling_iri
from mtgkb.kb.validation import DataFileError, ValidationReport, Violation, validate

SHAPE = "https://w3id.org/mtgkb/shape/"

PREFIXES = """\
@prefix mtgkb: <https://w3id.org/mtgkb/vocab#> .
@prefix card: <https://w3id.org/mtgkb/card/> .
@prefix mechanic: <https://w3id.org/mtgkb/mechanic/> .
@prefix step: <https://w3id.org/mtgkb/step/> .
@prefix phase: <https://w3id.org/mtgkb/phase/> .
@prefix zone: <https://w3id.org/mtgkb/zone/> .
@prefix cr: <https://w3id.org/mtgkb/cr/> .
@prefix requirement: <https://w3id.org/mtgkb/requirement/> .
@prefix concept: <https://w3id.org/mtgkb/concept/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
"""

# Ability IRIs have a slash in their local part, which prefixed names cannot hold.
AB = "https://w3id.org/mtgkb/ability/"
NINJA_RULING = ruling_iri("Ninja of the Deep Hours", "2021-03-19", "invented ruling text for a test")

CLEAN = (
    PREFIXES
    + f"""
cr:702.49a a mtgkb:Rule ; rdfs:label "702.49a" ; mtgkb:ruleNumber "702.49a" ;
    mtgkb:summary "Test summary of how ninjutsu works." .
cr:702.124j a mtgkb:Rule ; rdfs:label "702.124j" ; mtgkb:ruleNumber "702.124j" ;
    mtgkb:summary "Test summary of partner with." .
cr:509.1h a mtgkb:Rule ; rdfs:label "509.1h" ; mtgkb:ruleNumber "509.1h" ;
    mtgkb:summary "Test summary of blocked status." .
cr:903.8 a mtgkb:Rule ; rdfs:label "903.8" ; mtgkb:ruleNumber "903.8" ;
    mtgkb:summary "Test summary of commander tax." .
cr:505.1 a mtgkb:Rule ; rdfs:label "505.1" ; mtgkb:ruleNumber "505.1" ;
    mtgkb:summary "Test summary of main phases." .

zone:hand a mtgkb:Zone ; rdfs:label "hand" .
zone:command a mtgkb:Zone ; rdfs:label "command zone" .

phase:combat a mtgkb:Phase ; rdfs:label "combat phase" ; mtgkb:phaseOrder 3 ; mtgkb:citesRule cr:509.1h .
phase:precombat-main a mtgkb:Phase, mtgkb:Step ; rdfs:label "precombat main phase" ;
    mtgkb:phaseOrder 2 ; mtgkb:stepOrder 4 ; mtgkb:inPhase phase:precombat-main ;
    mtgkb:isFirstStep false ; mtgkb:isOptional false ; mtgkb:playersReceivePriority true ;
    mtgkb:blockedStatusDecided false ; mtgkb:attackersMayExist false ; mtgkb:citesRule cr:505.1 .
step:declare-blockers a mtgkb:Step ; rdfs:label "declare blockers step" ;
    mtgkb:stepOrder 7 ; mtgkb:inPhase phase:combat ;
    mtgkb:isFirstStep false ; mtgkb:isOptional true ; mtgkb:playersReceivePriority true ;
    mtgkb:blockedStatusDecided true ; mtgkb:attackersMayExist true ; mtgkb:citesRule cr:509.1h .

requirement:unblocked-attacker-you-control a mtgkb:Requirement ;
    rdfs:label "an unblocked attacker you control" ;
    mtgkb:requiresAttacking true ; mtgkb:requiresControlByYou true ;
    mtgkb:requiresBlockedStatus mtgkb:Unblocked ; mtgkb:requiresStepProperty mtgkb:blockedStatusDecided ;
    mtgkb:citesRule cr:702.49a, cr:509.1h .

mechanic:ninjutsu a mtgkb:Mechanic ; rdfs:label "ninjutsu" ; mtgkb:keyword "Ninjutsu" ;
    mtgkb:functionsIn zone:hand ; mtgkb:actionKind mtgkb:Activate ; mtgkb:entersTapped true ;
    mtgkb:hasRequirement requirement:unblocked-attacker-you-control ; mtgkb:citesRule cr:702.49a .
mechanic:partner-with a mtgkb:PartnerAbility ; rdfs:label "partner with" ; mtgkb:keyword "Partner with" ;
    mtgkb:pairingRule mtgkb:MutualName ; mtgkb:citesRule cr:702.124j .

concept:commander-tax a mtgkb:RulesConcept ; rdfs:label "commander tax" ;
    mtgkb:countsAction mtgkb:Cast ; mtgkb:countsFromZone zone:command ; mtgkb:taxPerCount "{{2}}" ;
    mtgkb:citesRule cr:903.8 .

card:ninja-of-the-deep-hours a mtgkb:Card ; rdfs:label "Ninja of the Deep Hours" ;
    mtgkb:name "Ninja of the Deep Hours" ; mtgkb:manaCost "{{3}}{{U}}" ; mtgkb:manaValue 4 ;
    mtgkb:colors "U" ; mtgkb:colorIdentity "U" ; mtgkb:commanderLegality "legal" ;
    mtgkb:hasAbility <{AB}ninja-of-the-deep-hours/ninjutsu> .
<{AB}ninja-of-the-deep-hours/ninjutsu> a mtgkb:KeywordAbility ; rdfs:label "Ninjutsu {{1}}{{U}}" ;
    mtgkb:instantiates mechanic:ninjutsu ; mtgkb:abilityCost "{{1}}{{U}}" .

card:pir-imaginative-rascal a mtgkb:Card ; rdfs:label "Pir, Imaginative Rascal" ;
    mtgkb:name "Pir, Imaginative Rascal" ; mtgkb:manaCost "{{2}}{{G}}" ; mtgkb:manaValue 3.0 ;
    mtgkb:hasAbility <{AB}pir-imaginative-rascal/partner-with> .
<{AB}pir-imaginative-rascal/partner-with> a mtgkb:KeywordAbility ; rdfs:label "Partner with Toothy" ;
    mtgkb:instantiates mechanic:partner-with ; mtgkb:partnerWith card:toothy-imaginary-friend ;
    mtgkb:partnerWithName "Toothy, Imaginary Friend" .
card:toothy-imaginary-friend a mtgkb:Card ; rdfs:label "Toothy, Imaginary Friend" ;
    mtgkb:name "Toothy, Imaginary Friend" ; mtgkb:manaCost "{{3}}{{U}}" ;
    mtgkb:hasAbility <{AB}toothy-imaginary-friend/partner-with> .
<{AB}toothy-imaginary-friend/partner-with> a mtgkb:KeywordAbility ; rdfs:label "Partner with Pir" ;
    mtgkb:instantiates mechanic:partner-with ; mtgkb:partnerWith card:pir-imaginative-rascal ;
    mtgkb:partnerWithName "Pir, Imaginative Rascal" .

<{NINJA_RULING}> a mtgkb:Ruling ; rdfs:label "Ninja of the Deep Hours ruling" ;
    mtgkb:aboutCard card:ninja-of-the-deep-hours ; mtgkb:rulingDate "2021-03-19"^^xsd:date ;
    mtgkb:rulingSource "wotc" ; mtgkb:summary "Invented test summary." ;
    mtgkb:mentions mechanic:ninjutsu ; mtgkb:citesRule cr:702.49a .
"""
)

# Each broken file holds one kind of mistake, so a test can check the report names that file.
BROKEN = {
    "mechanic_without_citation.ttl": """
mechanic:sneak a mtgkb:Mechanic ; rdfs:label "sneak" ; mtgkb:keyword "Sneak" .
""",
    "ruling_without_date.ttl": f"""
<{ruling_iri("Ninja of the Deep Hours", "2021-03-19", "another invented text")}> a mtgkb:Ruling ;
    rdfs:label "undated ruling" ; mtgkb:aboutCard card:ninja-of-the-deep-hours ; mtgkb:rulingSource "wotc" ;
    mtgkb:summary "Invented." ; mtgkb:citesRule cr:702.49a .
""",
    "one_sided_partner.ttl": f"""
card:lonely-partner a mtgkb:Card ; rdfs:label "Lonely Partner" ; mtgkb:name "Lonely Partner" ;
    mtgkb:hasAbility <{AB}lonely-partner/partner-with> .
<{AB}lonely-partner/partner-with> a mtgkb:KeywordAbility ; rdfs:label "Partner with Pir" ;
    mtgkb:instantiates mechanic:partner-with ; mtgkb:partnerWith card:pir-imaginative-rascal ;
    mtgkb:partnerWithName "Pir, Imaginative Rascal" .
""",
    "partner_without_partner.ttl": f"""
card:nobody-partner a mtgkb:Card ; rdfs:label "Nobody Partner" ; mtgkb:name "Nobody Partner" ;
    mtgkb:hasAbility <{AB}nobody-partner/partner-with> .
<{AB}nobody-partner/partner-with> a mtgkb:KeywordAbility ; rdfs:label "Partner with nobody" ;
    mtgkb:instantiates mechanic:partner-with .
""",
    "malformed_mana_cost.ttl": """
card:broken-cost a mtgkb:Card ; rdfs:label "Broken Cost" ; mtgkb:name "Broken Cost" ;
    mtgkb:manaCost "{U}{B" .
""",
    "card_with_two_names.ttl": """
card:two-names a mtgkb:Card ; rdfs:label "Two Names" ; mtgkb:name "Two Names", "Second Name" .
""",
    "bad_rule_number.ttl": """
cr:702.49 a mtgkb:Rule ; rdfs:label "702.49" ; mtgkb:ruleNumber "702.49." ; mtgkb:summary "Test." .
""",
    "step_missing_boolean.ttl": """
step:upkeep a mtgkb:Step ; rdfs:label "upkeep" ; mtgkb:stepOrder 2 ; mtgkb:inPhase phase:combat ;
    mtgkb:isFirstStep false ; mtgkb:isOptional false ; mtgkb:playersReceivePriority true ;
    mtgkb:blockedStatusDecided false ; mtgkb:citesRule cr:505.1 .
""",
    "typo_in_iri.ttl": """
mechanic:commander-ninjutsu a mtgkb:Mechanic ; rdfs:label "commander ninjutsu" ;
    mtgkb:variantOf mechanic:ninjutzu ; mtgkb:citesRule cr:702.49a .
""",
    "unlabelled.ttl": """
zone:exile a mtgkb:Zone .
""",
}


def _write(directory: Path, name: str, body: str) -> Path:
    path = directory / name
    path.write_text(PREFIXES + body if not body.startswith(PREFIXES) else body, encoding="utf-8")
    return path


def _found(report: ValidationReport, shape: str, focus: str) -> list[Violation]:
    return [v for v in report.violations if v.shape == SHAPE + shape and v.focus_node == focus]


@pytest.fixture(scope="module")
def clean_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _write(tmp_path_factory.mktemp("clean"), "clean.ttl", CLEAN)


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory, clean_file: Path) -> tuple[ValidationReport, Path]:
    """One validation run over the clean file plus every broken file (validation is not cheap)."""
    directory = tmp_path_factory.mktemp("broken")
    for name, body in BROKEN.items():
        _write(directory, name, body)
    return validate([clean_file, directory]), directory


def test_clean_fixture_conforms_without_warnings(clean_file: Path) -> None:
    report = validate([clean_file])
    assert report.violations == []
    assert report.conforms
    assert report.files == [clean_file]


def test_broken_fixtures_do_not_conform(broken: tuple[ValidationReport, Path]) -> None:
    report, _ = broken
    assert not report.conforms
    # The clean file stays clean even next to broken ones.
    assert not [
        v for v in report.violations if v.source_file is not None and v.source_file.name == "clean.ttl"
    ]


@pytest.mark.parametrize(
    ("file_name", "shape", "focus"),
    [
        ("mechanic_without_citation.ttl", "CitesRule", mint("mechanic", "sneak")),
        (
            "ruling_without_date.ttl",
            "RulingDate",
            ruling_iri("Ninja of the Deep Hours", "2021-03-19", "another invented text"),
        ),
        ("one_sided_partner.ttl", "PartnerWithIsMutual", mint("ability", "lonely-partner", "partner-with")),
        (
            "partner_without_partner.ttl",
            "PartnerWithNamesCard",
            mint("ability", "nobody-partner", "partner-with"),
        ),
        ("malformed_mana_cost.ttl", "ManaCostWellFormed", card_iri("Broken Cost")),
        ("card_with_two_names.ttl", "CardName", card_iri("Two Names")),
        ("bad_rule_number.ttl", "RuleNumber", rule_iri("702.49")),
        ("step_missing_boolean.ttl", "StepAttackersMayExist", mint("step", "upkeep")),
        ("typo_in_iri.ttl", "range-variantOf", mint("mechanic", "commander-ninjutsu")),
    ],
)
def test_each_mistake_is_caught_and_names_its_file(
    broken: tuple[ValidationReport, Path], file_name: str, shape: str, focus: str
) -> None:
    report, directory = broken
    found = _found(report, shape, focus)
    assert found, f"{shape} did not flag {focus}"
    assert all(v.source_file == directory / file_name for v in found)
    assert all(v.severity == "Violation" and v.message for v in found)


def test_one_sided_partner_message_names_both_cards(broken: tuple[ValidationReport, Path]) -> None:
    report, _ = broken
    (violation,) = _found(report, "PartnerWithIsMutual", mint("ability", "lonely-partner", "partner-with"))
    assert card_iri("Pir, Imaginative Rascal") in violation.message
    assert card_iri("Lonely Partner") in violation.message


def test_missing_label_is_only_a_warning(tmp_path: Path, clean_file: Path) -> None:
    unlabelled = _write(tmp_path, "unlabelled.ttl", BROKEN["unlabelled.ttl"])
    report = validate([clean_file, unlabelled])
    assert report.conforms
    assert [(v.severity, v.focus_node, v.source_file) for v in report.violations] == [
        ("Warning", mint("zone", "exile"), unlabelled)
    ]


def test_mana_cost_forms(tmp_path: Path, clean_file: Path) -> None:
    good = ["{0}", "{X}{R}", "{2/W}{G/P}", "{W/U/P}{C}", "{HW}", "{15}{S}", "{1}{U} // {2}{R}"]
    bad = ["", "{U}{B", "1UB", "{T}", "{W}{}", "{u}", "{1}{U} //"]
    cards = "".join(
        f'card:cost-{i} a mtgkb:Card ; rdfs:label "c" ; mtgkb:name "Cost {i}" ; mtgkb:manaCost "{cost}" .\n'
        for i, cost in enumerate(good + bad)
    )
    costs = _write(tmp_path, "costs.ttl", cards)
    report = validate([clean_file, costs])
    flagged = {v.focus_node for v in report.violations if v.shape == SHAPE + "ManaCostWellFormed"}
    assert flagged == {mint("card", f"cost-{i}") for i in range(len(good), len(good) + len(bad))}


def test_ability_cost_checked_only_when_it_is_all_symbols(tmp_path: Path, clean_file: Path) -> None:
    costs = {
        "ok-mana": "{1}{U}",
        "ok-tap": "{T}",
        "ok-text": "{2}{U}, Return an unblocked attacker you control to its owner's hand",
        "bad-unclosed": "{U}{B",
        "bad-bare": "2U",
    }
    abilities = "".join(
        f'<{AB}x/{key}> a mtgkb:Ability ; rdfs:label "a" ; mtgkb:abilityCost "{cost}" .\n'
        for key, cost in costs.items()
    )
    report = validate([clean_file, _write(tmp_path, "abilities.ttl", abilities)])
    flagged = {v.focus_node for v in report.violations if v.shape == SHAPE + "AbilityCostWellFormed"}
    assert flagged == {mint("ability", "x", "bad-unclosed"), mint("ability", "x", "bad-bare")}


def test_rule_iri_must_match_its_number(tmp_path: Path, clean_file: Path) -> None:
    body = 'cr:702.49b a mtgkb:Rule ; rdfs:label "x" ; mtgkb:ruleNumber "702.49c" ; mtgkb:summary "Test." .\n'
    report = validate([clean_file, _write(tmp_path, "rules.ttl", body)])
    assert [(v.shape, v.focus_node) for v in report.violations] == [(SHAPE + "RuleIri", rule_iri("702.49b"))]


def test_ruling_iri_must_carry_its_card_and_date(tmp_path: Path, clean_file: Path) -> None:
    wrong_date = ruling_iri("Ninja of the Deep Hours", "2020-01-01", "invented")
    body = (
        f'<{wrong_date}> a mtgkb:Ruling ; rdfs:label "r" ; mtgkb:aboutCard card:ninja-of-the-deep-hours ;\n'
        '    mtgkb:rulingDate "2021-03-19"^^xsd:date ; mtgkb:rulingSource "wotc" ; mtgkb:summary "x" ;\n'
        "    mtgkb:citesRule cr:702.49a .\n"
    )
    report = validate([clean_file, _write(tmp_path, "ruling.ttl", body)])
    assert [(v.shape, v.focus_node) for v in report.violations] == [(SHAPE + "RulingIri", wrong_date)]


def test_cited_rule_must_exist(tmp_path: Path, clean_file: Path) -> None:
    body = 'mechanic:sneak a mtgkb:Mechanic ; rdfs:label "sneak" ; mtgkb:citesRule cr:702.190a .\n'
    report = validate([clean_file, _write(tmp_path, "sneak.ttl", body)])
    assert [(v.shape, v.focus_node, v.value) for v in report.violations] == [
        (SHAPE + "CitedRuleIsNumberedRule", mint("mechanic", "sneak"), rule_iri("702.190a"))
    ]


def test_extra_graph_can_supply_cited_rules_and_is_named(tmp_path: Path, clean_file: Path) -> None:
    body = 'mechanic:sneak a mtgkb:Mechanic ; rdfs:label "sneak" ; mtgkb:citesRule cr:702.190a .\n'
    sneak = _write(tmp_path, "sneak.ttl", body)
    rule = rule_iri("702.190a")
    imported = rdflib.Graph().parse(
        data=PREFIXES + 'cr:702.190a a mtgkb:Rule ; rdfs:label "702.190a" ; mtgkb:ruleNumber "702.190a" .\n',
        format="turtle",
    )
    report = validate([clean_file, sneak], extra_graphs={"graph/cr/2026-04-17": imported})
    # The imported rule has no prose, and the report says it came from the extra graph.
    assert [(v.shape, v.focus_node, v.source_file, v.sources) for v in report.violations] == [
        (SHAPE + "RuleProse", rule, None, ("graph/cr/2026-04-17",))
    ]


def test_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ttl"
    bad.write_text(
        PREFIXES + '\nmechanic:sneak a mtgkb:Mechanic ;\n    rdfs:label "sneak\n', encoding="utf-8"
    )
    with pytest.raises(DataFileError) as caught:
        validate([bad])
    assert caught.value.path == bad
    assert caught.value.line == PREFIXES.count("\n") + 3
    assert str(bad) in str(caught.value)


def test_missing_file_is_a_data_file_error(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="no such file"):
        validate([tmp_path / "absent.ttl"])


def test_shipped_data_validates_clean() -> None:
    report = validate()
    assert report.files, "data/ holds Turtle files"
    assert [v for v in report.violations if v.severity == "Violation"] == []


def test_a_flip_card_with_a_colour_indicator_or_a_joined_type_line_is_refused() -> None:
    """A card of a layout whose rule is the first face (data/layouts.ttl) has that face's type line,
    and a flip card prints no colour indicator (710.1c): imported faces validated with the data."""
    face = "https://w3id.org/mtgkb/face/runner-legend/"
    body = (
        PREFIXES
        + f"""
card:runner-legend a mtgkb:Card ; mtgkb:name "Runner // Legend" ; mtgkb:layout "flip" ;
    mtgkb:typeLine "Creature — Goblin // Legendary Creature — Goblin" ;
    mtgkb:hasFace <{face}0>, <{face}1> .
<{face}0> a mtgkb:Face ; mtgkb:name "Runner" ; mtgkb:faceIndex 0 ; mtgkb:typeLine "Creature — Goblin" .
<{face}1> a mtgkb:Face ; mtgkb:name "Legend" ; mtgkb:faceIndex 1 ;
    mtgkb:typeLine "Legendary Creature — Goblin" ; mtgkb:colorIndicator "R" .
"""
    )
    imported = rdflib.Graph().parse(data=body, format="turtle")
    report = validate(extra_graphs={"imported cards": imported})
    assert {(v.shape, v.focus_node) for v in report.errors} == {
        (SHAPE + "FirstFaceGivesTheCardsTypeLine", card_iri("Runner // Legend")),
        (SHAPE + "FlipCardsHaveNoColorIndicator", card_iri("Runner // Legend")),
    }
