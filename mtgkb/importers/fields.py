"""Typed reads from one JSON record, so a malformed dump fails with the field that is wrong instead of
a traceback halfway through writing."""

from __future__ import annotations

import re
from typing import Any

from mtgkb.importers.card_model import FaceRecord

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class BadRecord(Exception):
    """A record lacks a field or has one of the wrong kind; the message names the field."""


def record(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadRecord(f"{what} should be a JSON object, not {type(value).__name__}")
    return value


def check(
    obj: Any, what: str, required: tuple[str, ...], texts: tuple[str, ...], lists: tuple[str, ...]
) -> dict[str, Any]:
    """``obj`` as a dict whose ``required`` keys are text, whose ``texts`` keys are text when present
    and whose ``lists`` keys are lists of text when present. One call per record keeps the check
    cheap on a full card pool."""
    if obj.__class__ is not dict:
        raise BadRecord(f"{what} should be a JSON object, not {type(obj).__name__}")
    for key in required:
        if obj.get(key).__class__ is not str:
            raise BadRecord(f"{what} has no text '{key}'")
    for key in texts:
        value = obj.get(key)
        if value is not None and value.__class__ is not str:
            raise BadRecord(f"'{key}' of {what} should be text, not {type(value).__name__}")
    for key in lists:
        value = obj.get(key)
        if value is None:
            continue
        if value.__class__ is not list:
            raise BadRecord(f"'{key}' of {what} should be a list of text, not {type(value).__name__}")
        for item in value:
            if item.__class__ is not str:
                raise BadRecord(f"'{key}' of {what} should be a list of text")
    return obj


def text(obj: dict[str, Any], key: str, required: bool = False) -> str | None:
    value = obj.get(key)
    if isinstance(value, str):
        return value
    if value is None and not required:
        return None
    if value is None:
        raise BadRecord(f"it has no '{key}'")
    raise BadRecord(f"'{key}' should be text, not {type(value).__name__}")


def texts(obj: dict[str, Any], key: str) -> list[str] | None:
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    raise BadRecord(f"'{key}' should be a list of text")


def number(obj: dict[str, Any], key: str) -> float | None:
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise BadRecord(f"'{key}' should be a number, not {type(value).__name__}")


def date(obj: dict[str, Any], key: str) -> str:
    value = text(obj, key, required=True)
    if not _DATE.fullmatch(value):
        raise BadRecord(f"'{key}' should be a date written YYYY-MM-DD, not {value!r}")
    return value


def union(lists: list[list[str] | None]) -> list[str]:
    """Values of several faces' lists, each once, in first-seen order."""
    seen: dict[str, None] = {}
    for values in lists:
        for value in values or ():
            seen.setdefault(value, None)
    return list(seen)


def legality(value: str | None) -> str | None:
    """ "Not Legal" (MTGJSON) and "not_legal" (Scryfall) -> "not_legal"."""
    return value.strip().lower().replace(" ", "_") if value else None


# Split cards (and adventurers and the like) show both halves' costs, "{1}{R} // {2}{U}", as card
# databases do; a double-faced card's mana cost is its front face's (CR 709.4b, 712.8).
JOINED_COST_LAYOUTS = frozenset({"split", "aftermath", "adventure", "omen"})


def card_mana_cost(layout: str | None, face_costs: list[str | None]) -> str | None:
    if layout in JOINED_COST_LAYOUTS:
        return " // ".join(cost for cost in face_costs if cost) or None
    return face_costs[0] if face_costs else None


def card_type_line(faces: list[FaceRecord]) -> str:
    """The type line of a card with several faces, as card databases write it: "Land // Creature"."""
    return " // ".join(face.type_line or "" for face in faces)


def card_oracle_text(faces: list[FaceRecord]) -> str | None:
    """The Oracle text of a card with several faces: each face's text, with a line "//" between."""
    return "\n//\n".join(face.oracle_text for face in faces if face.oracle_text) or None
