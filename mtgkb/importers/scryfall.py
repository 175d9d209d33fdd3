"""Import Scryfall card data: bulk card objects (oracle-cards and similar, with ``card_faces``,
``oracle_id`` and ``legalities``), plain card lists that carry only some of those fields, and
Scryfall rulings files (``oracle_id``, ``source``, ``published_at``, ``comment``).

Cards go to ``graph/scryfall-cards`` (imports/scryfall-cards.nq.gz), rulings to
``graph/scryfall-rulings`` (imports/scryfall-rulings.nq.gz). A ruling names its card by Oracle id, so
rulings are matched to the cards of the card file imported with them. Both files are read and checked
before either output is written.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from mtgkb.core.collector import collector_paused
from mtgkb.core.errors import ImportFileError
from mtgkb.core.mana_symbols import mana_value
from mtgkb.core.progress import Progress
from mtgkb.core.type_line import face_type_lines, parse_type_line
from mtgkb.importers import fields
from mtgkb.importers.card_import import UNREADABLE, GraphFile, finish_import, refuse_mostly_unreadable
from mtgkb.importers.card_model import CardImportSummary, CardRecord, FaceRecord, RulingRecord
from mtgkb.importers.json_input import read_json, require_kind

EXPECTED_CARDS = "a Scryfall card file (a JSON list of card objects, e.g. the oracle-cards bulk file)"
EXPECTED_RULINGS = "a Scryfall rulings file (a JSON list of ruling objects, the rulings bulk file)"
HINT = (
    "download the oracle-cards and rulings files listed at https://api.scryfall.com/bulk-data "
    "(or run 'mtgkb fetch cards'); MTGJSON files are imported with 'mtgkb import mtgjson FILE'"
)
# Objects in Scryfall's dumps that are not cards a deck can hold.
SKIPPED_LAYOUTS = frozenset({"token", "double_faced_token", "emblem", "art_series"})


def import_scryfall(
    path: Path, rulings_path: Path | None = None, progress: Progress | None = None
) -> CardImportSummary:
    """Import a Scryfall card file (and optionally a rulings file), then update the store. Raises
    :class:`ImportFileError` (before writing anything) for a file of another kind."""
    started = time.perf_counter()
    path = Path(path)
    if progress:
        progress(f"reading {path}")
    with collector_paused():
        cards, skipped, unreadable = read_cards(read_json(path, EXPECTED_CARDS, HINT), path, progress)
        parts = [GraphFile("scryfall-cards", "Scryfall card import", path, cards=cards)]
        without_card = 0
        if rulings_path is not None:
            rulings_path = Path(rulings_path)
            if progress:
                progress(f"reading {rulings_path}")
            raw = read_rulings(read_json(rulings_path, EXPECTED_RULINGS, HINT), rulings_path)
            rulings, without_card = match_rulings(raw, cards)
            parts.append(
                GraphFile("scryfall-rulings", "Scryfall rulings import", rulings_path, rulings=rulings)
            )
            del raw, rulings
    del cards  # finish_import lets the records go once they are written
    return finish_import("scryfall", parts, started, progress, skipped, without_card, unreadable)


# What to do with a file of another kind than the one expected where it was given.
_ADVICE = {
    "a Scryfall rulings file": (
        "pass a rulings file with --rulings: 'mtgkb import scryfall CARDS --rulings FILE'"
    ),
    "a Scryfall card file": "pass the card file first: 'mtgkb import scryfall CARDS --rulings FILE'",
    "an MTGJSON": "MTGJSON AtomicCards files are imported with 'mtgkb import mtgjson FILE'",
}


def _objects(document: Any, path: Path, expected: str, wanted: str) -> list[Any]:
    require_kind(document, path, wanted, expected, HINT, _ADVICE)
    # Both Scryfall kinds are a JSON list, bare or as the "data" of a list object.
    return document["data"] if isinstance(document, dict) else document


def read_cards(
    document: Any, path: Path, progress: Progress | None = None
) -> tuple[list[CardRecord], int, dict[str, str]]:
    """Card records from a parsed Scryfall card file, each name once, how many objects were skipped
    (tokens, emblems, art cards, repeated names), and the objects that could not be read (label ->
    why): those are left out and reported, unless most of the file is unreadable."""
    objects = _objects(document, path, EXPECTED_CARDS, "a Scryfall card file")
    if progress:
        progress(f"checking {len(objects):,} card objects")
    cards: list[CardRecord] = []
    seen: set[str] = set()
    skipped = 0
    unreadable: dict[str, str] = {}
    for number, obj in enumerate(objects, 1):
        try:
            obj = fields.record(obj, "a card")
            if fields.text(obj, "layout") in SKIPPED_LAYOUTS:
                skipped += 1
                continue
            card = _card(obj)
        except UNREADABLE as error:
            label = obj.get("name") if isinstance(obj, dict) else None
            which = label if isinstance(label, str) and label else f"card object number {number}"
            unreadable[which] = f"not a Scryfall card: {error}"
            continue
        if card.name in seen:
            skipped += 1
            continue
        seen.add(card.name)
        cards.append(card)
    if not cards:
        raise ImportFileError(f"{path} holds no cards; expected {EXPECTED_CARDS}", HINT)
    refuse_mostly_unreadable(path, unreadable, len(objects), EXPECTED_CARDS, HINT)
    return cards, skipped, unreadable


def _card(obj: dict[str, Any]) -> CardRecord:
    name = fields.text(obj, "name", required=True)
    raw_faces = obj.get("card_faces")
    if raw_faces is not None and not (isinstance(raw_faces, list) and raw_faces):
        raise fields.BadRecord("'card_faces' should be a non-empty list")
    faces = [_face(fields.record(face, "a card face")) for face in raw_faces or ()]
    type_line = fields.text(obj, "type_line") or fields.card_type_line(faces)
    if not type_line:
        raise fields.BadRecord("it has no 'type_line'")
    mana_cost = fields.text(obj, "mana_cost") or fields.card_mana_cost(
        fields.text(obj, "layout"), [face.mana_cost for face in faces]
    )
    if not faces and " // " in name:
        faces = _faces_from_names(name, type_line, mana_cost)
    oracle_text = fields.text(obj, "oracle_text") or fields.card_oracle_text(faces)
    front = faces[0] if faces else None
    oracle_id = fields.text(obj, "oracle_id")
    if oracle_id is None and raw_faces:
        oracle_id = fields.text(raw_faces[0], "oracle_id")
    legalities = obj.get("legalities")
    if legalities is not None and not isinstance(legalities, dict):
        raise fields.BadRecord("'legalities' should be a JSON object")
    parsed = [parse_type_line(face) for face in face_type_lines(type_line)]
    return CardRecord(
        name=name,
        oracle_id=oracle_id,
        layout=fields.text(obj, "layout"),
        mana_cost=mana_cost,
        mana_value=fields.number(obj, "cmc"),
        type_line=type_line,
        supertypes=fields.union([list(p.supertypes) for p in parsed]),
        types=fields.union([list(p.types) for p in parsed]),
        subtypes=fields.union([list(p.subtypes) for p in parsed]),
        oracle_text=oracle_text,
        power=fields.text(obj, "power") or (front.power if front else None),
        toughness=fields.text(obj, "toughness") or (front.toughness if front else None),
        loyalty=fields.text(obj, "loyalty") or (front.loyalty if front else None),
        defense=fields.text(obj, "defense") or (front.defense if front else None),
        color_identity=fields.texts(obj, "color_identity"),
        colors=fields.texts(obj, "colors") or fields.union([face.colors for face in faces]) or None,
        color_indicator=fields.texts(obj, "color_indicator"),
        commander_legality=fields.legality(fields.text(legalities, "commander")) if legalities else None,
        legalities={
            game_format: value
            for game_format, status in (legalities or {}).items()
            if isinstance(status, str) and (value := fields.legality(status))
        },
        faces=faces,
        funny=obj.get("set_type") == "funny",
    )


def _face(face: dict[str, Any]) -> FaceRecord:
    return _typed(
        FaceRecord(
            name=fields.text(face, "name", required=True),
            mana_cost=fields.text(face, "mana_cost") or None,
            type_line=fields.text(face, "type_line"),
            oracle_text=fields.text(face, "oracle_text") or None,
            power=fields.text(face, "power"),
            toughness=fields.text(face, "toughness"),
            loyalty=fields.text(face, "loyalty"),
            defense=fields.text(face, "defense"),
            colors=fields.texts(face, "colors"),
            color_indicator=fields.texts(face, "color_indicator"),
        )
    )


def _typed(face: FaceRecord) -> FaceRecord:
    """The face's types read from its type line, and the mana value of its own mana cost."""
    if face.type_line:
        parsed = parse_type_line(face.type_line)
        face.supertypes, face.types = list(parsed.supertypes), list(parsed.types)
        face.subtypes = list(parsed.subtypes)
    if face.mana_cost:
        face.mana_value = mana_value(face.mana_cost)
    return face


def _faces_from_names(name: str, type_line: str, mana_cost: str | None) -> list[FaceRecord]:
    """Card lists without ``card_faces`` still say "A // B" in the name, type line and (for split
    and adventure cards) the mana cost; when a part is not split per face it belongs to the front."""
    names = name.split(" // ")
    types = type_line.split(" // ")
    costs = mana_cost.split(" // ") if mana_cost else []
    faces = []
    for index, face_name in enumerate(names):
        faces.append(
            _typed(
                FaceRecord(
                    name=face_name,
                    type_line=types[index] if len(types) == len(names) else None,
                    mana_cost=(
                        costs[index]
                        if len(costs) == len(names)
                        else (costs[0] if costs and index == 0 else None)
                    )
                    or None,
                )
            )
        )
    return faces


def read_rulings(document: Any, path: Path) -> list[tuple[str, str, str, str]]:
    """(oracle id, date, text, source) of every ruling in a parsed Scryfall rulings file."""
    objects = _objects(document, path, EXPECTED_RULINGS, "a Scryfall rulings file")
    rulings = []
    for number, obj in enumerate(objects, 1):
        try:
            obj = fields.record(obj, "a ruling")
            rulings.append(
                (
                    fields.text(obj, "oracle_id", required=True),
                    fields.date(obj, "published_at"),
                    fields.text(obj, "comment", required=True),
                    fields.text(obj, "source") or "scryfall",
                )
            )
        except fields.BadRecord as error:
            raise ImportFileError(
                f"{path}: ruling number {number} is not a Scryfall ruling: {error}; "
                f"expected {EXPECTED_RULINGS}",
                HINT,
            ) from None
    return rulings


def match_rulings(
    rulings: list[tuple[str, str, str, str]], cards: list[CardRecord]
) -> tuple[list[RulingRecord], int]:
    """Rulings whose Oracle id is a card of ``cards``, and how many name no such card. A reversible
    reprint shares its Oracle id with the ordinary card; the ruling goes to the ordinary one."""
    by_oracle_id: dict[str, str] = {}
    for card in sorted(cards, key=lambda card: card.layout == "reversible_card"):
        if card.oracle_id:
            by_oracle_id.setdefault(card.oracle_id, card.name)
    matched = []
    without_card = 0
    for oracle_id, date, text, source in rulings:
        name = by_oracle_id.get(oracle_id)
        if name is None:
            without_card += 1
        else:
            matched.append(RulingRecord(name, date, text, source))
    return matched, without_card
