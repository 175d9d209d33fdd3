"""Rulings are linked to the mechanics, steps, zones and concepts they speak of, from the names those
nodes carry in the graph: a node written in data/ finds its rulings with no code."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtgkb.kb.mentions import MENTIONS_GRAPH, RulingCards, Terms, mentions

KB_TTL = """
@prefix mtgkb: <https://w3id.org/mtgkb/vocab#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix card: <https://w3id.org/mtgkb/card/> .
<https://w3id.org/mtgkb/mechanic/frobnicate> a mtgkb:Mechanic ; rdfs:label "Frobnicate" ;
    mtgkb:keyword "Frobnicate" .
<https://w3id.org/mtgkb/zone/vault> a mtgkb:Zone ; rdfs:label "the vault" .
<https://w3id.org/mtgkb/ruling/x/2020-01-01/00000001> a mtgkb:Ruling ; mtgkb:aboutCard card:x ;
    mtgkb:rulingDate "2020-01-01"^^xsd:date ; mtgkb:text "Once frobnicated, it stays in the vault." .
<https://w3id.org/mtgkb/ruling/x/2020-01-02/00000002> a mtgkb:Ruling ; mtgkb:aboutCard card:x ;
    mtgkb:rulingDate "2020-01-02"^^xsd:date ; mtgkb:text "Unfrobnicated vaults are not the vault's." .
card:x a mtgkb:Card ; mtgkb:name "X" ; mtgkb:hasAbility <https://w3id.org/mtgkb/ability/x/frobnicate> .
<https://w3id.org/mtgkb/ability/x/frobnicate>
    mtgkb:instantiates <https://w3id.org/mtgkb/mechanic/frobnicate> .
<https://w3id.org/mtgkb/ruling/y/2020-01-03/00000003> a mtgkb:Ruling ; mtgkb:aboutCard card:y ;
    mtgkb:rulingDate "2020-01-03"^^xsd:date ; mtgkb:text "A spell with frobnicate can't be countered." .
<https://w3id.org/mtgkb/ruling/y/2020-01-04/00000004> a mtgkb:Ruling ; mtgkb:aboutCard card:y ;
    mtgkb:rulingDate "2020-01-04"^^xsd:date ; mtgkb:text "Once frobnicated, it is in no vault." .
"""


def test_names_match_as_whole_words_with_their_endings() -> None:
    named = {
        "copy": {"c"},
        "command zone": {"z"},
        "exile": {"e"},
        "partner": {"p"},
        "end step": {"s"},
        "zone": {"x"},
    }
    texts = {
        "r1": ["It copies the spell; copying it again is fine."],
        "r2": ["Put it into the Command Zone, then exiled cards…"],
        "r3": ["A partnered commander", "no match: commandeer, endstep, copycat"],
        "r4": ["Ends during the end steps of each turn"],
    }
    # "command zone" is not also a mention of the shorter "zone" inside it.
    assert mentions(texts, named) == {"r1": {"c"}, "r2": {"z", "e"}, "r3": {"p"}, "r4": {"s"}}


def test_a_mechanic_written_in_data_finds_its_rulings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, user_dirs
) -> None:
    (tmp_path / "kb" / "ontology").mkdir(parents=True)
    (tmp_path / "kb" / "data").mkdir()
    (tmp_path / "kb" / "ontology" / "mtgkb.ttl").write_text("")
    (tmp_path / "kb" / "data" / "frobnicate.ttl").write_text(KB_TTL)
    monkeypatch.setenv("MTGKB_ROOT", str(tmp_path / "kb"))
    from mtgkb.app import open_kb

    kb = open_kb()
    rows = kb.select("SELECT ?r ?m WHERE { GRAPH ?g { ?r mtgkb:mentions ?m } }", g=MENTIONS_GRAPH)
    found = {(row["r"].rsplit("/", 1)[-1], row["m"].rsplit("/", 1)[-1]) for row in rows}
    # On card x, which has the mechanic, any form of it counts; on card y, the keyword as written.
    assert found == {("00000001", "frobnicate"), ("00000001", "vault"), ("00000003", "frobnicate")}
    # The default graph holds them too, so the rulings lookup sees them.
    assert len(kb.select("SELECT ?r WHERE { ?r mtgkb:mentions ?m }")) == 3


# --- a mechanic is linked when the ruling is about it ---------------------------------------------

_SNEAK_TERMS = Terms(
    {"sneak": {"mechanic/sneak"}, "hand": {"zone/hand"}, "flash": {"mechanic/flash"}},
    mechanics={"mechanic/sneak", "mechanic/flash"},
    card_names={"Whispergear Sneak", "Sneaking Guide", "Flash Foliage", "Burning Hands"},
)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # The keyword as a keyword: a noun, as written.
        ("A creature card with sneak can be cast for its sneak cost.", {"mechanic/sneak"}),
        ("Sneak is an alternative cost.", {"mechanic/sneak"}),
        ("If a card with flash is plotted this way, you can cast it later.", {"mechanic/flash"}),
        ("You can cast a creature with flash any time you could cast an instant.", {"mechanic/flash"}),
        ("Unless it has flash, you can cast it only in your main phase.", {"mechanic/flash"}),
        # A word that shares the stem, a verb with its object, a card's name: not the mechanic.
        (
            "You must get it into your hand before you can attempt to sneak it onto the battlefield.",
            {"zone/hand"},
        ),
        ("You can't sneak it in from your sideboard.", set()),
        ("If you use Whispergear Sneak during the first draft round, nothing happens.", set()),
        ("Once a creature has been blocked, Sneaking Guide's ability won't unblock it.", set()),
        ("Flash Foliage can be cast only during an opponent's turn.", set()),
        ("Burning Hands deals 2 damage; the card in your hand stays there.", {"zone/hand"}),
        # A card name written without its capitals is words, not the card.
        ("The flash foliage grows.", {"mechanic/flash"}),
    ],
)
def test_a_mechanic_is_linked_when_the_keyword_is_used_as_a_keyword(text: str, found: set[str]) -> None:
    assert mentions({"r": [text]}, _SNEAK_TERMS).get("r", set()) == found


def test_on_a_card_that_has_the_mechanic_every_form_of_it_counts() -> None:
    texts = {"own": ["You may sneak it onto the battlefield; sneaking it in is not casting it."]}
    cards = RulingCards(mechanics={"own": {"mechanic/sneak"}})
    assert mentions(texts, _SNEAK_TERMS, cards) == {"own": {"mechanic/sneak"}}
    assert mentions(texts, _SNEAK_TERMS) == {}


def test_a_joke_cards_rulings_are_about_no_mechanic() -> None:
    texts = {"joke": ["A card with flash in your hand can be cast any time."]}
    cards = RulingCards(mechanics={"joke": {"mechanic/flash"}}, jokes={"joke"})
    assert mentions(texts, _SNEAK_TERMS, cards) == {"joke": {"zone/hand"}}
