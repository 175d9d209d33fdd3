"""Import an MTGJSON AtomicCards file (plain or .gz) into the ``graph/mtgjson`` named graph.

AtomicCards maps each card name to a list of face records. Every record is read and checked before
the output file is opened, so a wrong or damaged file leaves the imports and the store as they were.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from mtgkb.core.collector import collector_paused
from mtgkb.core.errors import ImportFileError
from mtgkb.core.progress import Progress
from mtgkb.importers import fields
from mtgkb.importers.card_import import UNREADABLE, GraphFile, finish_import, refuse_mostly_unreadable
from mtgkb.importers.card_model import CardImportSummary, CardRecord, FaceRecord, RulingRecord
from mtgkb.importers.json_input import read_json, require_kind

EXPECTED = "an MTGJSON AtomicCards file (JSON, plain or .gz)"
HINT = (
    "download AtomicCards.json.gz from https://mtgjson.com/downloads/all-files/ ; "
    "Scryfall card files are imported with 'mtgkb import scryfall FILE'"
)
_OTHER_IMPORTER = {
    "a Scryfall card file": "it is a Scryfall card file: import it with 'mtgkb import scryfall FILE'",
    "a Scryfall rulings file": (
        "it is a Scryfall rulings file: pass it to 'mtgkb import scryfall CARDS --rulings FILE'"
    ),
}


def import_mtgjson(path: Path, progress: Progress | None = None) -> CardImportSummary:
    """Import every card, face, recognised ability and ruling of an AtomicCards file, then update
    the store. Raises :class:`ImportFileError` (before writing anything) for a file of another kind."""
    started = time.perf_counter()
    path = Path(path)
    if progress:
        progress(f"reading {path}")
    with collector_paused():
        document = read_json(path, EXPECTED, HINT)
        cards, rulings, unreadable = read_atomic_cards(document, path, progress)
        del document
    parts = [GraphFile("mtgjson", "MTGJSON AtomicCards import", path, cards, rulings)]
    del cards, rulings  # finish_import lets the records go once they are written
    return finish_import("mtgjson", parts, started, progress, unreadable=unreadable)


def read_atomic_cards(
    document: Any, path: Path, progress: Progress | None = None
) -> tuple[list[CardRecord], list[RulingRecord], dict[str, str]]:
    """Card and ruling records from a parsed AtomicCards document, and the records that could not be
    read (name -> why): those are left out and reported, unless most of the file is unreadable."""
    require_kind(document, path, "an MTGJSON AtomicCards file", EXPECTED, HINT, _OTHER_IMPORTER)
    data: dict[str, Any] = document["data"]
    if progress:
        progress(f"checking {len(data):,} cards")
    cards: list[CardRecord] = []
    rulings: list[RulingRecord] = []
    unreadable: dict[str, str] = {}
    for name, faces in data.items():
        card_rulings: list[RulingRecord] = []
        try:
            cards.append(_card(name, faces, card_rulings))
        except UNREADABLE as error:
            unreadable[name] = f"not an MTGJSON card record: {error}"
            continue
        rulings += card_rulings
    if not cards:
        raise ImportFileError(f"{path} holds no cards; expected {EXPECTED}", HINT)
    refuse_mostly_unreadable(path, unreadable, len(data), EXPECTED, HINT)
    return cards, rulings, unreadable


_FACE_TEXTS = ("manaCost", "text", "power", "toughness", "loyalty", "defense", "layout", "faceName", "side")
_FACE_LISTS = ("supertypes", "types", "subtypes", "colors", "colorIdentity", "colorIndicator")


def _card(name: str, faces: Any, rulings: list[RulingRecord]) -> CardRecord:
    if faces.__class__ is not list or not faces:
        raise fields.BadRecord("it should be a non-empty list of face records")
    for face in faces:
        fields.check(face, "a face", ("name", "type"), _FACE_TEXTS, _FACE_LISTS)
    if len(faces) > 1 and all(face.get("side") for face in faces):
        faces = sorted(faces, key=lambda face: face["side"])
    first = faces[0]
    # Legality belongs to the card, but a face record may carry none (the snapshot's split cards
    # have it on one half only): each format's status is read from the first face that gives it.
    legalities: dict[str, str] = {}
    given = False
    for face in faces:
        raw = face.get("legalities")
        if raw is None:
            continue
        given = True
        fields.check(raw, "'legalities'", (), ("commander",), ())
        for game_format, status in raw.items():
            value = fields.legality(status) if isinstance(status, str) else None
            if value:
                legalities.setdefault(game_format, value)
    # MTGJSON leaves out the formats a card is not legal in.
    commander = (legalities.get("commander") or "not_legal") if given else None
    identifiers = fields.check(first.get("identifiers") or {}, "'identifiers'", (), ("scryfallOracleId",), ())
    mana_value = fields.number(first, "manaValue")
    for face in faces:
        if not isinstance(face.get("rulings") or [], list):
            raise fields.BadRecord("'rulings' should be a list")
        for ruling in face.get("rulings") or ():
            fields.check(ruling, "a ruling", ("text",), (), ())
            rulings.append(RulingRecord(name, fields.date(ruling, "date"), ruling["text"], "wotc"))
    card = CardRecord(
        name=name,
        oracle_id=identifiers.get("scryfallOracleId"),
        layout=first.get("layout"),
        mana_cost=first.get("manaCost"),
        mana_value=mana_value,
        type_line=first["type"],
        supertypes=first.get("supertypes") or [],
        types=first.get("types") or [],
        subtypes=first.get("subtypes") or [],
        oracle_text=first.get("text"),
        power=first.get("power"),
        toughness=first.get("toughness"),
        loyalty=first.get("loyalty"),
        defense=first.get("defense"),
        color_identity=first.get("colorIdentity"),
        colors=first.get("colors"),
        commander_legality=commander,
        legalities=legalities,
        funny=first.get("isFunny") is True,
    )
    if len(faces) == 1 and "faceName" not in first:
        return card
    # Several faces: each keeps its own characteristics, and the card's are set from them by its
    # layout's rule when the import is prepared (card_layouts.prepare_records).
    card.color_indicator = first.get("colorIndicator")
    card.faces = [_face(face) for face in faces]
    # A meld pair's combined back face, listed as a record of its own: not a card (712.4b).
    card.melded_face = card.layout == "meld" and all(face.get("side") == "b" for face in faces)
    return card


def _face(face: dict[str, Any]) -> FaceRecord:
    mana_value = fields.number(face, "faceManaValue")
    if mana_value is None and face.get("side") in (None, "a"):
        mana_value = fields.number(face, "manaValue")
    return FaceRecord(
        name=face.get("faceName") or face["name"],
        mana_cost=face.get("manaCost"),
        mana_value=mana_value,
        type_line=face["type"],
        supertypes=face.get("supertypes") or [],
        types=face.get("types") or [],
        subtypes=face.get("subtypes") or [],
        oracle_text=face.get("text"),
        power=face.get("power"),
        toughness=face.get("toughness"),
        loyalty=face.get("loyalty"),
        defense=face.get("defense"),
        colors=face.get("colors"),
        color_indicator=face.get("colorIndicator"),
    )
