"""`mtgkb import scryfall` on the Scryfall commander list and on oracle-cards and rulings files built,
at test time, from the snapshots (Scryfall's own bulk files are not among them)."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from card_pool import UNCATEGORISED, expected_slugs, load_subset, oracle_card, user_dirs, user_state

from mtgkb.kb.iris import card_iri, mint, ruling_iri

SCRYFALL_FILE = Path("cards") / "scryfall-commanders-20260429.json"
MTGJSON_FILE = Path("cards") / "mtgjson-atomic-merged-20260103.json.gz"


def _import(run_cli, tmp: Path, *args: str) -> dict:
    with user_dirs(tmp):
        result = run_cli("import", "scryfall", *args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def _kb(tmp: Path):
    from mtgkb.app import open_kb

    with user_dirs(tmp):
        return open_kb()


@pytest.fixture(scope="module")
def commanders(
    run_cli, shared_data: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, dict, list[dict]]:
    """The commander list imported on its own."""
    tmp = tmp_path_factory.mktemp("scryfall-list")
    summary = _import(run_cli, tmp, str(shared_data / SCRYFALL_FILE))
    cards = json.loads((shared_data / SCRYFALL_FILE).read_text(encoding="utf-8"))
    return tmp, summary, cards


def test_a_plain_card_list_imports_every_card(commanders) -> None:
    tmp, summary, cards = commanders
    assert summary["cards"] + summary["skipped_records"] == len(cards)
    assert summary["cards"] == len({card["name"] for card in cards}) - len(summary["skipped_names"])
    assert summary["rulings"] == 0
    kb = _kb(tmp)
    graph = mint("graph", "scryfall-cards")
    assert (
        kb.select(
            "SELECT ?g (COUNT(DISTINCT ?c) AS ?n) WHERE { GRAPH ?g { ?c a mtgkb:Card } } GROUP BY ?g", g=graph
        )[0]["n"]
        == summary["cards"]
    )


def test_faces_come_from_the_names_of_a_card_list(commanders) -> None:
    tmp, _summary, cards = commanders
    kb = _kb(tmp)
    multi = [card for card in cards if " // " in card["name"]]
    assert multi
    for card in multi[:20]:
        rows = kb.select(
            """SELECT ?c ?index ?name ?type WHERE {
                 ?c mtgkb:hasFace ?f . ?f mtgkb:faceIndex ?index ; mtgkb:name ?name .
                 OPTIONAL { ?f mtgkb:typeLine ?type } } ORDER BY ?index""",
            c=card_iri(card["name"]),
        )
        names = card["name"].split(" // ")
        types = card["type_line"].split(" // ")
        assert [row["name"] for row in rows] == names
        if len(types) == len(names):
            assert [row["type"] for row in rows] == types


def test_commander_list_abilities_match_the_subset(commanders, shared_data: Path) -> None:
    """The subset's newest cards were taken from this very list: each has exactly its categories."""
    tmp, _summary, cards = commanders
    kb = _kb(tmp)
    in_list = {card["name"] for card in cards}
    records = [r for r in load_subset(shared_data) if r["source"]["repo"] == "mwmMecoy/oklahomies_edh"]
    assert records and all(r["name"] in in_list for r in records)
    prefix = mint("mechanic", "x")[:-1]
    for record in records:
        own, _granted, _roles = expected_slugs(record)
        rows = kb.select(
            "SELECT DISTINCT ?c ?m WHERE { ?c mtgkb:hasAbility/mtgkb:instantiates ?m }",
            c=card_iri(record["name"]),
        )
        assert {row["m"].removeprefix(prefix) for row in rows} - UNCATEGORISED == own, record["name"]


def test_sneak_and_web_slinging_costs_are_read(commanders) -> None:
    tmp, summary, cards = commanders
    kb = _kb(tmp)
    printed = {}
    for card in cards:
        for line in card["oracle_text"].splitlines():
            match = re.match(r"(Sneak|Web-slinging) ((?:\{[^}]+\})+)( \(|$)", line)
            if match:
                printed[(card["name"], match.group(1).lower())] = match.group(2)
    assert {"sneak", "web-slinging"} <= {keyword for _name, keyword in printed}
    assert summary["abilities"]["sneak"] + summary["abilities"]["web-slinging"] == len(printed)
    for (name, keyword), cost in printed.items():
        rows = kb.select(
            "SELECT DISTINCT ?c ?m ?cost WHERE { ?c mtgkb:hasAbility ?a . "
            "?a mtgkb:instantiates ?m ; mtgkb:abilityCost ?cost }",
            c=card_iri(name),
            m=mint("mechanic", keyword),
        )
        assert [row["cost"] for row in rows] == [cost], name


def _two_faced_card(atomic: dict) -> dict:
    """A modal double-faced card from the MTGJSON snapshot, as Scryfall writes one: card_faces."""
    name, faces = next(
        (name, faces)
        for name, faces in atomic["data"].items()
        if len(faces) == 2 and faces[0]["layout"] == "modal_dfc" and all(face.get("text") for face in faces)
    )
    return {
        "object": "card",
        "oracle_id": faces[0]["identifiers"]["scryfallOracleId"],
        "name": name,
        "layout": "modal_dfc",
        "cmc": faces[0]["manaValue"],
        "type_line": " // ".join(face["type"] for face in faces),
        "color_identity": faces[0]["colorIdentity"],
        "legalities": {"commander": "legal"},
        "card_faces": [
            {
                "object": "card_face",
                "name": face["faceName"],
                "mana_cost": face.get("manaCost", ""),
                "type_line": face["type"],
                "oracle_text": face["text"],
                "colors": face["colors"],
                **({"power": face["power"], "toughness": face["toughness"]} if "power" in face else {}),
            }
            for face in faces
        ],
    }


@pytest.fixture(scope="module")
def bulk_files(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """oracle-cards and rulings files in Scryfall's bulk format, made from the snapshots."""
    folder = tmp_path_factory.mktemp("scryfall-bulk")
    records = [r for r in load_subset(shared_data) if r.get("scryfall_oracle_id") and r["layout"] == "normal"]
    atomic = json.loads(gzip.decompress((shared_data / MTGJSON_FILE).read_bytes()))
    token = {"object": "card", "name": "Ninja", "layout": "token", "type_line": "Token Creature — Ninja"}
    cards = [oracle_card(r) for r in records] + [_two_faced_card(atomic), token]
    rulings = [
        {
            "object": "ruling",
            "oracle_id": r["scryfall_oracle_id"],
            "source": "wotc",
            "published_at": ruling["date"],
            "comment": ruling["text"],
        }
        for r in records
        for ruling in r["rulings"] or ()
    ]
    unknown = {"object": "ruling", "oracle_id": "00000000-0000-0000-0000-000000000000", "source": "scryfall"}
    rulings.append(
        {**unknown, "published_at": "2024-01-01", "comment": "A ruling about no card in the file."}
    )
    (folder / "oracle-cards.json").write_text(json.dumps(cards), encoding="utf-8")
    (folder / "rulings.json").write_text(json.dumps(rulings), encoding="utf-8")
    return folder, folder / "oracle-cards.json", folder / "rulings.json"


def test_oracle_cards_and_rulings(run_cli, bulk_files, tmp_path: Path) -> None:
    _folder, cards_file, rulings_file = bulk_files
    cards = json.loads(cards_file.read_text())
    rulings = json.loads(rulings_file.read_text())
    summary = _import(run_cli, tmp_path, str(cards_file), "--rulings", str(rulings_file))
    assert summary["cards"] == len(cards) - 1 and summary["skipped_records"] == 1  # the token
    assert summary["faces"] == 2
    assert summary["rulings_without_card"] == 1
    by_id = {card.get("oracle_id"): card["name"] for card in cards}
    expected = {
        ruling_iri(by_id[r["oracle_id"]], r["published_at"], r["comment"])
        for r in rulings
        if r["oracle_id"] in by_id
    }
    assert summary["rulings"] == len(expected) > 100
    kb = _kb(tmp_path)
    stored = kb.select(
        """SELECT DISTINCT ?g ?r ?card ?date ?source WHERE { GRAPH ?g {
             ?r a mtgkb:Ruling ; mtgkb:aboutCard ?card ; mtgkb:rulingDate ?date ; mtgkb:rulingSource ?source ;
                mtgkb:text ?text } }""",
        g=mint("graph", "scryfall-rulings"),
    )
    assert {row["r"] for row in stored} == expected
    assert {row["source"] for row in stored} == {"wotc"}
    assert all(row["r"].startswith(row["card"].replace("/card/", "/ruling/") + "/") for row in stored)
    # Curated ruling nodes are minted the same way, so the official wording lands on them.
    curated = kb.select("SELECT DISTINCT ?r WHERE { ?r a mtgkb:Ruling ; mtgkb:summary ?s ; mtgkb:text ?t }")
    assert {row["r"] for row in curated} & expected

    mdfc = next(card for card in cards if "card_faces" in card)
    faces = kb.select(
        """SELECT DISTINCT ?c ?index ?name ?text WHERE {
             ?c mtgkb:hasFace ?f . ?f mtgkb:faceIndex ?index ; mtgkb:name ?name ; mtgkb:oracleText ?text }
           ORDER BY ?index""",
        c=card_iri(mdfc["name"]),
    )
    assert [(row["index"], row["name"], row["text"]) for row in faces] == [
        (index, face["name"], face["oracle_text"]) for index, face in enumerate(mdfc["card_faces"])
    ]

    again = _import(run_cli, tmp_path, str(cards_file), "--rulings", str(rulings_file))
    for field in ("cards", "faces", "abilities", "granted_abilities", "rulings", "quads", "store_triples"):
        assert again[field] == summary[field], field


def test_wrong_kinds_of_file_exit_2_and_change_nothing(
    run_cli, bulk_files, shared_data: Path, tmp_path: Path
) -> None:
    _folder, cards_file, rulings_file = bulk_files
    _import(run_cli, tmp_path, str(cards_file), "--rulings", str(rulings_file))
    image = tmp_path / "card.jpg"
    image.write_bytes(b"\xff\xd8\xff\xe0" + bytes(100))
    truncated = tmp_path / "oracle-cards.json"
    truncated.write_text(cards_file.read_text()[:5000])
    not_cards = tmp_path / "numbers.json"
    not_cards.write_text("[1, 2, 3]")
    atomic = shared_data / MTGJSON_FILE
    cases = [
        ([str(rulings_file)], "--rulings"),
        ([str(atomic)], "mtgkb import mtgjson"),
        ([str(image)], "JPEG"),
        ([str(truncated)], "truncated"),
        ([str(not_cards)], "Scryfall card file"),
        ([str(cards_file), "--rulings", str(cards_file)], "Scryfall rulings file"),
        ([str(cards_file), "--rulings", str(image)], "JPEG"),
    ]
    with user_dirs(tmp_path):
        before = user_state()
        for args, expected in cases:
            result = run_cli("import", "scryfall", *args)
            assert result.exit_code == 2, (args, result.output)
            assert expected in result.stderr, (args, result.stderr)
            assert "Traceback" not in result.stderr
        assert user_state() == before
