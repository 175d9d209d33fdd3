"""A card of several faces as the importers make it (mtgkb.importers.card_layouts): its own
characteristics from its faces by the rule of its layout, read from data/layouts.ttl and
data/meld-pairs.ttl as a store built from them would give it; faces announced by the name but missing
from the data; prototypes; meld pairs. Small made-up records, so each rule is seen on its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import RDF, Graph, URIRef

from mtgkb.importers.card_layouts import LayoutRules, prepare_records, rulings_to_pairs
from mtgkb.importers.card_model import CardRecord, FaceRecord, RulingRecord
from mtgkb.importers.mtgjson import read_atomic_cards
from mtgkb.kb.iris import mint
from mtgkb.kb.vocab import V

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture(scope="module")
def rules() -> LayoutRules:
    """The layout rules and meld pairs exactly as the curated data states them."""
    graph = Graph().parse(DATA / "layouts.ttl").parse(DATA / "meld-pairs.ttl")
    found = LayoutRules()
    for layout in graph.subjects(RDF.type, URIRef(V.Layout)):
        found.rules[str(graph.value(layout, URIRef(V.layoutName)))] = str(
            graph.value(layout, URIRef(V.characteristicsFrom))
        )
    for melded in graph.subjects(RDF.type, URIRef(V.MeldedFace)):
        name = str(graph.value(melded, URIRef(V.name)))
        found.melded[name] = sorted(str(part) for part in graph.objects(melded, URIRef(V.meldPartName)))
        found.melded_iris[name] = str(melded)
    return found


def face(name: str, cost: str | None, type_line: str, types: list[str], **values) -> FaceRecord:
    return FaceRecord(name=name, mana_cost=cost, type_line=type_line, types=types, **values)


def test_every_layout_of_several_faces_has_its_rule(rules: LayoutRules) -> None:
    assert rules.rules["split"] == rules.rules["aftermath"] == V.AllFacesCombined
    for layout in ("adventure", "modal_dfc", "transform", "flip", "meld", "prototype", "omen"):
        assert rules.rules[layout] == V.FirstFaceOnly, layout
    assert len(rules.melded) == 7 and all(len(parts) == 2 for parts in rules.melded.values())


def test_a_split_card_has_both_halves_combined(rules: LayoutRules) -> None:
    card = CardRecord(
        "Fire // Ice",
        layout="split",
        mana_cost="{1}{R}",
        type_line="Instant",
        types=["Instant"],
        colors=["R"],
        faces=[
            face("Fire", "{1}{R}", "Instant", ["Instant"], colors=["R"], oracle_text="Fire text."),
            face("Ice", "{1}{U}", "Instant", ["Instant"], colors=["U"], oracle_text="Ice text."),
        ],
    )
    (prepared,), melded = prepare_records([card], rules)
    assert melded == []
    # 709.4b: the combined mana cost keeps each half's symbols; colours follow from it.
    assert prepared.mana_cost == "{1}{R}{1}{U}"
    assert prepared.colors == ["R", "U"] and prepared.types == ["Instant"]
    assert prepared.type_line == "Instant // Instant"
    assert prepared.oracle_text == "Fire text.\n//\nIce text."


def test_a_modal_double_faced_card_whose_front_is_a_sorcery_is_a_sorcery_card(rules: LayoutRules) -> None:
    card = CardRecord(
        "Front Spell // Back Land",
        layout="modal_dfc",
        faces=[
            face("Front Spell", "{2}{G}", "Sorcery", ["Sorcery"], colors=["G"], oracle_text="Do it."),
            face("Back Land", None, "Land", ["Land"], colors=[], oracle_text="{T}: Add {G}."),
        ],
        types=["Sorcery", "Land"],
        type_line="Sorcery // Land",
    )
    (prepared,), _ = prepare_records([card], rules)
    assert (prepared.types, prepared.type_line, prepared.mana_cost) == (["Sorcery"], "Sorcery", "{2}{G}")
    assert prepared.oracle_text == "Do it." and prepared.colors == ["G"]


def test_an_adventurer_is_its_creature_only(rules: LayoutRules) -> None:
    card = CardRecord(
        "Giant // Stomp",
        layout="adventure",
        faces=[
            face(
                "Giant",
                "{2}{R}",
                "Creature — Giant",
                ["Creature"],
                subtypes=["Giant"],
                power="4",
                toughness="3",
            ),
            face("Stomp", "{1}{R}", "Instant — Adventure", ["Instant"], subtypes=["Adventure"]),
        ],
    )
    (prepared,), _ = prepare_records([card], rules)
    assert (prepared.types, prepared.subtypes, prepared.mana_cost) == (["Creature"], ["Giant"], "{2}{R}")
    assert (prepared.power, prepared.toughness) == ("4", "3")


def test_a_flip_card_is_its_upright_half_and_a_double_faced_back_keeps_its_indicator(
    rules: LayoutRules,
) -> None:
    flip = CardRecord(
        "Runner // Legend",
        layout="flip",
        faces=[
            face("Runner", "{3}{R}", "Creature — Goblin", ["Creature"], colors=["R"]),
            face(
                "Legend",
                None,
                "Legendary Creature — Goblin",
                ["Creature"],
                supertypes=["Legendary"],
                colors=["R"],
            ),
        ],
    )
    dfc = CardRecord(
        "Delver // Aberration",
        layout="transform",
        faces=[
            face("Delver", "{U}", "Creature — Human", ["Creature"], colors=["U"]),
            face("Aberration", None, "Creature — Insect", ["Creature"], colors=["U"], color_indicator=["U"]),
        ],
    )
    prepared, _ = prepare_records([flip, dfc], rules)
    # 710.2: not legendary until flipped, hence no commander.
    assert prepared[0].supertypes == [] and prepared[0].color_indicator is None
    assert prepared[1].color_indicator is None and prepared[1].faces[1].color_indicator == ["U"]


def test_faces_the_name_announces_are_known_only_by_name(rules: LayoutRules) -> None:
    card = CardRecord(
        "Front // Back",
        layout="transform",
        faces=[face("Front", "{B}", "Creature — Bat", ["Creature"])],
    )
    (prepared,), _ = prepare_records([card], rules)
    assert [(f.name, f.known_only_by_name) for f in prepared.faces] == [("Front", False), ("Back", True)]
    assert prepared.type_line == "Creature — Bat"


def test_a_meld_pair_and_its_combined_back_face(rules: LayoutRules) -> None:
    """A meld card named with its combined face goes by its front; the combined face listed as a
    record (MTGJSON's side "b", or just by the name rule 712.5 gives it) is no card."""
    bruna = CardRecord(
        "Bruna, the Fading Light // Brisela, Voice of Nightmares",
        layout="meld",
        faces=[face("Bruna, the Fading Light", "{5}{W}{W}", "Legendary Creature — Angel", ["Creature"])],
    )
    gisela = CardRecord("Gisela, the Broken Blade", layout="meld")  # as Scryfall names it
    brisela = CardRecord("Brisela, Voice of Nightmares", type_line="Legendary Creature — Eldrazi Angel")
    cards, melded = prepare_records([bruna, gisela, brisela], rules)
    assert [card.name for card in melded] == ["Brisela, Voice of Nightmares"]
    assert {card.melds_into for card in cards} == {"Brisela, Voice of Nightmares"}
    assert [f.name for f in cards[0].faces] == ["Bruna, the Fading Light"]
    assert rules.melded_iris["Brisela, Voice of Nightmares"] == mint("melded", "Brisela, Voice of Nightmares")
    rulings = [RulingRecord("Brisela, Voice of Nightmares", "2016-07-13", "A ruling.", "wotc")]
    assert {r.card_name for r in rulings_to_pairs(rulings, melded, cards)} == {bruna.name, gisela.name}


def test_a_prototype_card_has_its_inset_set(rules: LayoutRules) -> None:
    card = CardRecord(
        "Arcane Proxy",
        layout="prototype",
        mana_cost="{7}",
        oracle_text="Prototype {1}{U}{U} \u2014 2/1 (You may cast it smaller.)\nMore.",
    )
    (prepared,), _ = prepare_records([card], rules)
    assert prepared.prototype is not None
    assert (prepared.prototype.mana_cost, prepared.prototype.power, prepared.prototype.toughness) == (
        "{1}{U}{U}",
        "2",
        "1",
    )
    assert prepared.mana_cost == "{7}"


def test_mtgjson_faces_keep_their_own_characteristics(tmp_path: Path) -> None:
    """The MTGJSON reader gives each face its record's values: mana value of its own cost, types,
    colour indicator; a meld pair's combined face listed alone (side "b") is marked as such."""
    common = {"layout": "transform", "colorIdentity": ["U"], "manaValue": 1.0}
    document = {
        "meta": {},
        "data": {
            "Delver // Aberration": [
                {
                    **common,
                    "name": "Delver // Aberration",
                    "faceName": "Delver",
                    "side": "a",
                    "manaCost": "{U}",
                    "faceManaValue": 1.0,
                    "type": "Creature — Human",
                    "types": ["Creature"],
                    "colors": ["U"],
                },
                {
                    **common,
                    "name": "Delver // Aberration",
                    "faceName": "Aberration",
                    "side": "b",
                    "faceManaValue": 0.0,
                    "type": "Creature — Insect",
                    "types": ["Creature"],
                    "colors": ["U"],
                    "colorIndicator": ["U"],
                },
            ],
            "Brisela": [
                {"name": "Brisela", "faceName": "Brisela", "side": "b", "layout": "meld", "type": "Creature"}
            ],
        },
    }
    cards, _rulings, unreadable = read_atomic_cards(document, tmp_path / "atomic.json")
    assert unreadable == {}
    delver, brisela = cards
    assert [(f.mana_value, f.color_indicator) for f in delver.faces] == [(1.0, None), (0.0, ["U"])]
    assert brisela.melded_face and not delver.melded_face
