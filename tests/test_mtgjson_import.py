"""`mtgkb import mtgjson` on the full MTGJSON snapshot (plus the Scryfall commander list, which holds
the subset cards MTGJSON lacks), and on small or broken files made from it in temporary folders."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from card_pool import (
    UNCATEGORISED,
    curated_digest,
    expected_slugs,
    load_subset,
    user_dirs,
    user_state,
)

from mtgkb.kb.iris import card_iri, mint, normalise_ruling_text

MTGJSON_FILE = Path("cards") / "mtgjson-atomic-merged-20260103.json.gz"
SCRYFALL_FILE = Path("cards") / "scryfall-commanders-20260429.json"


@pytest.fixture(scope="module")
def atomic(shared_data: Path) -> dict:
    return json.loads(gzip.decompress((shared_data / MTGJSON_FILE).read_bytes()))


def _abilities(kb, card: str) -> tuple[set[str], set[str]]:
    own = kb.select(
        "SELECT DISTINCT ?card ?m WHERE { ?card mtgkb:hasAbility/mtgkb:instantiates ?m }", card=card
    )
    granted = kb.select(
        "SELECT DISTINCT ?card ?m WHERE { ?card mtgkb:hasAbility/mtgkb:grants/mtgkb:instantiates ?m }",
        card=card,
    )
    prefix = mint("mechanic", "x")[:-1]
    return {row["m"].removeprefix(prefix) for row in own}, {row["m"].removeprefix(prefix) for row in granted}


def _node(kb, record: dict) -> str:
    """The card's node: the one holding its Oracle id (a reversible reprint's "X // X" record is the
    card X), else the one its name mints."""
    if record.get("scryfall_oracle_id"):
        rows = kb.select(
            "SELECT ?id ?c WHERE { ?c a mtgkb:Card ; mtgkb:oracleId ?id }", id=record["scryfall_oracle_id"]
        )
        if rows:
            assert len(rows) == 1, rows
            return rows[0]["c"]
    return card_iri(record["name"])


def test_every_subset_card_in_the_snapshots_has_exactly_its_abilities(
    card_pool, shared_data: Path, atomic
) -> None:
    scryfall_names = {card["name"] for card in json.loads((shared_data / SCRYFALL_FILE).read_text())}
    imported_names = set(atomic["data"]) | scryfall_names
    walked = 0
    problems = []
    for record in load_subset(shared_data):
        if record["name"] not in imported_names:
            continue  # spoiler-only Backgrounds: in neither snapshot
        own, granted, roles = expected_slugs(record)
        if "categories_scryfall_2026_04" in record:
            newer = expected_slugs(record, "categories_scryfall_2026_04")
            own, granted = own | newer[0], granted | newer[1]
        card = _node(card_pool.kb, record)
        found_own, found_granted = _abilities(card_pool.kb, card)
        found = (found_own - UNCATEGORISED, found_granted - UNCATEGORISED)
        if found != (own, granted):
            problems.append(f"{record['name']}: expected {(own, granted)}, found {found}")
        if "background" in roles:
            types = card_pool.kb.select(
                "SELECT ?c ?s ?t ?u WHERE { ?c mtgkb:supertype ?s ; mtgkb:cardType ?t ; mtgkb:subtype ?u }",
                c=card,
            )
            assert ("Legendary", "Enchantment", "Background") in {(r["s"], r["t"], r["u"]) for r in types}
        walked += 1
    assert problems == []
    sources = {r["source"]["repo"] for r in load_subset(shared_data) if r["name"] in imported_names}
    assert walked > 200 and len(sources) >= 3


def test_every_partner_with_pair_names_each_other(card_pool) -> None:
    linked = card_pool.kb.select(
        "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?a mtgkb:hasAbility ?x . ?x mtgkb:partnerWith ?b }"
    )[0]["n"]
    one_sided = card_pool.kb.select(
        """SELECT DISTINCT ?a ?b WHERE {
             ?a mtgkb:hasAbility ?x . ?x mtgkb:partnerWith ?b .
             FILTER NOT EXISTS {
               ?b mtgkb:hasAbility/mtgkb:partnerWithName ?name .
               { ?a mtgkb:name ?name } UNION { ?a mtgkb:hasFace/mtgkb:name ?name }
             }
           }"""
    )
    assert linked >= 40
    assert one_sided == []


def test_the_import_counts_match_the_snapshot(card_pool, atomic) -> None:
    summary = card_pool.mtgjson
    data = atomic["data"]
    assert summary.cards + len(summary.skipped_names) == len(data)
    # A record merged into another one's node (the same Oracle id) writes no faces of its own, nor
    # does a meld pair's combined back face listed as a record (it is no card). A card whose name
    # announces faces its records leave out ("A // B" with a record for A only) gets those faces,
    # known only by name; a meld card's second name is its combined back face, not a face of it.
    written = {
        name: faces
        for name, faces in data.items()
        if (len(faces) > 1 or "faceName" in faces[0]) and name not in summary.skipped_names
    }
    announced = {
        name: len(set(name.split(" // ")) - {face.get("faceName") for face in faces})
        for name, faces in written.items()
        if faces[0].get("layout") not in ("meld", "reversible_card")
    }
    assert summary.faces == sum(len(faces) for faces in written.values()) + sum(announced.values())
    assert summary.faces_known_only_by_name == sum(announced.values())
    assert summary.melded_faces == 3
    assert set(summary.skipped_names) <= set(data)

    # MTGJSON repeats a card's rulings on each face, and on each record of one card (the same
    # Oracle id); the store holds each ruling of a card once.
    # A meld pair's combined back face is no card: its rulings go to both cards of the pair.
    def cards_of(name: str, faces: list[dict]) -> list[str]:
        if faces[0].get("layout") == "meld" and all(face.get("side") == "b" for face in faces):
            pair = [other for other in data if other.endswith(" // " + name)]
            return [
                (data[other][0].get("identifiers") or {}).get("scryfallOracleId") or other for other in pair
            ]
        return [(faces[0].get("identifiers") or {}).get("scryfallOracleId") or name]

    distinct = {
        (card, ruling["date"], normalise_ruling_text(ruling["text"]))
        for name, faces in data.items()
        for card in cards_of(name, faces)
        for face in faces
        for ruling in face.get("rulings") or ()
    }
    assert summary.rulings == len(distinct)
    graph = mint("graph", "mtgjson")
    counted = card_pool.kb.select(
        """SELECT ?g (COUNT(DISTINCT ?c) AS ?cards) (COUNT(DISTINCT ?r) AS ?rulings) WHERE {
             GRAPH ?g { { ?c a mtgkb:Card } UNION { ?r a mtgkb:Ruling } } } GROUP BY ?g""",
        g=graph,
    )[0]
    assert (counted["cards"], counted["rulings"]) == (summary.cards, summary.rulings)
    assert card_pool.kb.meta["graphs"][graph] == summary.quads
    assert set(summary.abilities) >= {
        "ninjutsu",
        "commander-ninjutsu",
        "partner",
        "partner-with",
        "split-second",
    }


def test_official_text_joins_the_curated_nodes(card_pool) -> None:
    """Curated cards and rulings use the IRIs the importer mints, so the official wording lands on them."""
    rows = card_pool.kb.select(
        """SELECT DISTINCT ?ruling WHERE {
             GRAPH ?curated { ?ruling a mtgkb:Ruling ; mtgkb:summary ?summary }
             FILTER NOT EXISTS { ?ruling mtgkb:text ?text } }"""
    )
    assert rows == []
    yuriko = card_pool.kb.select(
        "SELECT ?c ?cost WHERE { ?c mtgkb:hasAbility [ mtgkb:abilityCost ?cost ; mtgkb:abilityText [] ] }",
        c=card_iri("Yuriko, the Tiger's Shadow"),
    )
    assert {row["cost"] for row in yuriko} == {"{U}{B}"}


def test_curated_files_are_untouched_by_imports(card_pool) -> None:
    assert curated_digest() == card_pool.curated_before


def test_reimport_gives_identical_counts(card_pool, shared_data: Path) -> None:
    from mtgkb.app import open_kb
    from mtgkb.importers.mtgjson import import_mtgjson

    with user_dirs(card_pool.data_dir.parent):
        again = import_mtgjson(shared_data / MTGJSON_FILE)
        graphs = open_kb().meta["graphs"]
    first = card_pool.mtgjson
    for field in ("cards", "faces", "abilities", "granted_abilities", "rulings", "quads", "store_triples"):
        assert getattr(again, field) == getattr(first, field), field
    assert graphs == card_pool.kb.meta["graphs"]


def _small_atomic(atomic: dict, names: list[str]) -> dict:
    return {"meta": atomic["meta"], "data": {name: atomic["data"][name] for name in names}}


@pytest.fixture
def small_import(run_cli, tmp_path: Path, atomic: dict) -> Path:
    """A tmp user folder holding an import of a few cards (plain JSON, through the CLI)."""
    path = tmp_path / "AtomicCards.json"
    names = [
        "Yuriko, the Tiger's Shadow",
        "Satoru Umezawa",
        "Brallin, Skyshark Rider",
        "Shabraz, the Skyshark",
    ]
    path.write_text(json.dumps(_small_atomic(atomic, names)), encoding="utf-8")
    with user_dirs(tmp_path):
        result = run_cli("import", "mtgjson", str(path), "--json")
        assert result.exit_code == 0, result.stderr
        summary = json.loads(result.stdout)
        assert summary["cards"] == len(names)
        assert summary["abilities"] == {"commander-ninjutsu": 1, "partner-with": 2}
        assert summary["granted_abilities"] == {"ninjutsu": 1}
        assert summary["rulings"] > 0 and summary["seconds"] > 0
        assert "%" in result.stderr  # progress
    return tmp_path


def _bad_files(tmp_path: Path, shared_data: Path) -> dict[str, Path]:
    files = {}
    files["image"] = tmp_path / "cards.png"
    files["image"].write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    raw = (shared_data / MTGJSON_FILE).read_bytes()
    files["truncated gzip"] = tmp_path / "AtomicCards.json.gz"
    files["truncated gzip"].write_bytes(raw[: len(raw) // 2])
    files["truncated json"] = tmp_path / "AtomicCards.json"
    files["truncated json"].write_bytes(gzip.decompress(raw)[:100_000])
    files["scryfall list"] = tmp_path / "commanders.json"
    files["scryfall list"].write_bytes((shared_data / SCRYFALL_FILE).read_bytes())
    files["keywords"] = tmp_path / "Keywords.json"
    files["keywords"].write_bytes((shared_data / "reference" / "mtgjson-Keywords-20260202.json").read_bytes())
    return files


def test_wrong_kinds_of_file_exit_2_and_change_nothing(
    run_cli, small_import: Path, shared_data: Path
) -> None:
    folder = small_import / "bad"
    folder.mkdir()
    bad = _bad_files(folder, shared_data)
    with user_dirs(small_import):
        before = user_state()
        for kind, path in bad.items():
            result = run_cli("import", "mtgjson", str(path))
            assert result.exit_code == 2, (kind, result.output)
            assert str(path) in result.stderr and "AtomicCards" in result.stderr, (kind, result.stderr)
            assert "Traceback" not in result.stderr
            if kind == "scryfall list":
                assert "mtgkb import scryfall" in result.stderr
            if kind == "keywords":
                assert "an MTGJSON Keywords file" in result.stderr
        assert user_state() == before


def test_a_damaged_record_is_named_and_left_out_and_the_rest_imported(tmp_path: Path, atomic: dict) -> None:
    from mtgkb.importers.mtgjson import import_mtgjson

    document = _small_atomic(atomic, ["Satoru Umezawa", "Yuriko, the Tiger's Shadow"])
    document["data"]["Satoru Umezawa"][0]["rulings"][0]["date"] = "18 February 2022"
    path = tmp_path / "AtomicCards.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with user_dirs(tmp_path):
        summary = import_mtgjson(path)
    assert summary.cards == 1
    assert "date" in summary.skipped_names["Satoru Umezawa"]
    assert (tmp_path / "data" / "imports" / "mtgjson.nq.gz").exists()


def test_a_file_of_mostly_damaged_records_is_refused(tmp_path: Path, atomic: dict) -> None:
    from mtgkb.core.errors import ImportFileError
    from mtgkb.importers.mtgjson import import_mtgjson

    names = ["Satoru Umezawa", "Yuriko, the Tiger's Shadow", "Thrasios, Triton Hero"]
    document = _small_atomic(atomic, names)
    for name in names[:2]:
        document["data"][name] = [42]
    path = tmp_path / "AtomicCards.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with user_dirs(tmp_path), pytest.raises(ImportFileError) as caught:
        import_mtgjson(path)
    assert "2 of 3 records cannot be read" in caught.value.message
    assert not (tmp_path / "data" / "imports" / "mtgjson.nq.gz").exists()
