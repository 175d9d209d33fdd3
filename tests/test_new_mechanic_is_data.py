"""Adding a ninjutsu-like mechanic takes data only, end to end: a made-up keyword with a cost, usable
from the graveyard during the end step, declared in one Turtle file; a card whose Oracle text has the
keyword is imported, the reader finds the ability from the mechanic node, and the verdicts evaluate
its requirements. No Python knows the mechanic."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from card_pool import user_dirs

REPO_ROOT = Path(__file__).resolve().parents[1]

GRAVESTEP = """
@prefix mtgkb: <https://w3id.org/mtgkb/vocab#> .
@prefix mechanic: <https://w3id.org/mtgkb/mechanic/> .
@prefix requirement: <https://w3id.org/mtgkb/requirement/> .
@prefix step: <https://w3id.org/mtgkb/step/> .
@prefix zone: <https://w3id.org/mtgkb/zone/> .
@prefix cr: <https://w3id.org/mtgkb/cr/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

mechanic:gravestep a mtgkb:Mechanic ;
    rdfs:label "Gravestep" ;
    mtgkb:keyword "Gravestep" ;
    mtgkb:keywordForm mtgkb:CostKeyword ;
    mtgkb:actionKind mtgkb:Activate ;
    mtgkb:functionsIn zone:graveyard ;
    mtgkb:summary "A made-up test mechanic: activate from your graveyard during the end step." ;
    mtgkb:hasRequirement requirement:gravestep-in-graveyard , requirement:gravestep-end-step ,
        requirement:priority ;
    mtgkb:citesRule cr:602.2 .

requirement:gravestep-in-graveyard a mtgkb:Requirement ;
    rdfs:label "The card is in your graveyard" ;
    mtgkb:appliesTo mtgkb:SourceObject ;
    mtgkb:requiresZone zone:graveyard ;
    mtgkb:citesRule cr:404.1 .

requirement:gravestep-end-step a mtgkb:Requirement ;
    rdfs:label "During the end step" ;
    mtgkb:requiresStep step:end ;
    mtgkb:citesRule cr:513.1 .
"""

CARD = {
    "object": "card",
    "oracle_id": "00000000-0000-4000-8000-000000000001",
    "name": "Test Gravewalker",
    "layout": "normal",
    "mana_cost": "{3}{B}",
    "cmc": 4,
    "type_line": "Creature — Zombie",
    "oracle_text": "Gravestep {2}{B} (made-up reminder text.)",
    "colors": ["B"],
    "color_identity": ["B"],
    "keywords": [],
    "power": "3",
    "toughness": "3",
    "legalities": {"commander": "legal"},
}


@pytest.fixture(scope="module")
def gravestep_kb(run_cli, tmp_path_factory: pytest.TempPathFactory):
    base = tmp_path_factory.mktemp("gravestep")
    root = base / "root"
    for folder in ("ontology", "data"):
        shutil.copytree(REPO_ROOT / folder, root / folder)
    (root / "data" / "mechanics" / "gravestep.ttl").write_text(GRAVESTEP, encoding="utf-8")
    cards = base / "cards.json"
    cards.write_text(json.dumps([CARD]), encoding="utf-8")
    saved = os.environ.get("MTGKB_ROOT")
    os.environ["MTGKB_ROOT"] = str(root)
    try:
        with user_dirs(base):
            result = run_cli("import", "scryfall", str(cards), "--json", "-q")
            assert result.exit_code == 0, result.output
            yield json.loads(result.stdout), base
    finally:
        if saved is None:
            os.environ.pop("MTGKB_ROOT", None)
        else:
            os.environ["MTGKB_ROOT"] = saved


def _ask(run_cli, base: Path, step: str, zone: str) -> tuple[int, dict]:
    situation = {"turn": "me", "step": step, "players": {"me": {zone: ["Test Gravewalker"]}, "opp": {}}}
    with user_dirs(base):
        result = run_cli(
            "can-activate", "Test Gravewalker", "--situation", "-", "--json", input=json.dumps(situation)
        )
    return result.exit_code, json.loads(result.stdout)


def test_the_importer_reads_the_new_keyword_from_the_mechanic_node(gravestep_kb) -> None:
    summary, _base = gravestep_kb
    assert summary["abilities"].get("gravestep") == 1


def test_the_verdict_evaluates_the_new_mechanic_requirements(run_cli, gravestep_kb) -> None:
    _summary, base = gravestep_kb
    code, verdict = _ask(run_cli, base, "end", "graveyard")
    assert (code, verdict["answer"], verdict["cost"]) == (0, True, "{2}{B}")
    assert verdict["ability"] == "Gravestep {2}{B}"
    assert {"404.1", "513.1", "602.2"} <= set(verdict["cites"])


@pytest.mark.parametrize(
    ("step", "zone", "failing"),
    [("upkeep", "graveyard", "During the end step"), ("end", "hand", "The card is in your graveyard")],
)
def test_the_new_mechanic_says_no_where_its_requirements_fail(
    run_cli, gravestep_kb, step: str, zone: str, failing: str
) -> None:
    _summary, base = gravestep_kb
    code, verdict = _ask(run_cli, base, step, zone)
    assert (code, verdict["answer"]) == (1, False)
    assert [c["check"] for c in verdict["checks"] if not c["holds"]] == [failing]


# A made-up parameterised mechanic: its parameter is a property the ontology types
# mtgkb:AbilityParameter (with how it reads), and nothing in Python names it.
BONDING = """
@prefix mtgkb: <https://w3id.org/mtgkb/vocab#> .
@prefix card: <https://w3id.org/mtgkb/card/> .
@prefix mechanic: <https://w3id.org/mtgkb/mechanic/> .
@prefix cr: <https://w3id.org/mtgkb/cr/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .

mtgkb:bondsWith a owl:DatatypeProperty , mtgkb:AbilityParameter ;
    rdfs:label "bonds with" ;
    rdfs:comment "A made-up parameter: the creature type a bonding ability names." ;
    mtgkb:parameterTemplate "bonds with {value} creatures" .

mechanic:bonding a mtgkb:Mechanic ;
    rdfs:label "Bonding" ;
    mtgkb:summary "A made-up test mechanic with a parameter." ;
    mtgkb:citesRule cr:702.1 .

card:test-bondling a mtgkb:Card ;
    rdfs:label "Test Bondling" ;
    mtgkb:name "Test Bondling" ;
    mtgkb:cardType "Creature" ;
    mtgkb:hasAbility <https://w3id.org/mtgkb/ability/test-bondling/bonding> .

<https://w3id.org/mtgkb/ability/test-bondling/bonding> a mtgkb:KeywordAbility ;
    rdfs:label "Bonding—Elf" ;
    mtgkb:instantiates mechanic:bonding ;
    mtgkb:bondsWith "Elf" .
"""


def test_a_new_parameterised_mechanic_needs_no_new_field(run_cli, tmp_path: Path) -> None:
    root = tmp_path / "root"
    for folder in ("ontology", "data"):
        shutil.copytree(REPO_ROOT / folder, root / folder)
    (root / "data" / "mechanics" / "bonding.ttl").write_text(BONDING, encoding="utf-8")
    env = {
        "MTGKB_ROOT": str(root),
        "MTGKB_CACHE_DIR": str(tmp_path / "cache"),
        "MTGKB_DATA_DIR": str(tmp_path / "data"),
    }
    shown = run_cli("card", "Test Bondling", "--json", env=env)
    text = run_cli("card", "Test Bondling", env=env)
    assert shown.exit_code == 0, shown.output
    (ability,) = json.loads(shown.stdout)["abilities"]
    assert ability["mechanic"]["label"] == "Bonding"
    assert ability["parameters"] == [
        {
            "property": "https://w3id.org/mtgkb/vocab#bondsWith",
            "name": "bonds with",
            "value": "Elf",
            "value_label": None,
            "shown_as": "bonds with Elf creatures",
        }
    ]
    assert "mechanic: Bonding · bonds with Elf creatures" in text.stdout
