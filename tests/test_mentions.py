"""Rulings are linked to the mechanics, steps, zones and concepts they speak of, from the names those
nodes carry in the graph: a node written in data/ finds its rulings with no code."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtgkb.kb.mentions import MENTIONS_GRAPH, mentions

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
    assert found == {("00000001", "frobnicate"), ("00000001", "vault")}
    # The default graph holds them too, so the rulings lookup sees them.
    assert len(kb.select("SELECT ?r WHERE { ?r mtgkb:mentions ?m }")) == 2
