"""A situation's text (JSON or YAML) read into plain values, within the bounds of
:mod:`mtgkb.reasoning.situation_limits`, before the reader looks at a single field.

Every value is checked once, with the path it was read from, so that each refusal names the field:
a key given twice (JSON and YAML would both keep the last one silently), a number or text beyond any
game, nesting past the schema's depth, a value that is no JSON type (a YAML date or set), text that
is not Unicode. YAML is composed by PyYAML's safe loader with a count kept on the way: each node
knows how many values it stands for with its aliases expanded, so an alias bomb is refused while
it is composed, before anything is expanded; an alias that contains itself is refused too. What
comes back is a plain tree (no two places share a value), as the reader and the copy verdict expect.
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Container
from typing import Any

from mtgkb.core.errors import shown as cut
from mtgkb.reasoning.situation_errors import (
    GIVEN_TWICE,
    MAX_DIGITS,
    TOO_DEEP,
    HugeNumber,
    SituationError,
    field_path,
    item_path,
    situation_error,
)
from mtgkb.reasoning.situation_limits import (
    MAX_AMOUNT,
    MAX_DEPTH,
    MAX_ITEMS,
    MAX_OBJECTS,
    MAX_STRING,
    MAX_TEXT,
    MAX_VALUES,
)


def parse_situation_text(text: str, origin: str = "the situation") -> dict[str, Any]:
    """The situation in ``text`` (JSON, else YAML), checked value by value; ``origin`` names the text
    in messages ("standard input", a path)."""
    if len(text) > MAX_TEXT:
        raise SituationError(
            "", f"{origin} holds {len(text):,} characters; a situation is at most {MAX_TEXT:,}"
        )
    duplicates: dict[int, Any] = {}
    try:
        data = json.loads(text, object_pairs_hook=_pairs_hook(duplicates), parse_int=_json_int)
    except RecursionError:
        raise SituationError("", f"{origin} is nested too deeply") from None
    except ValueError:
        duplicates.clear()
        data = _yaml(text, origin)
    if not isinstance(data, dict):
        raise SituationError("", f"{origin} must be a mapping with 'turn', 'step' and 'players'")
    return checked_values(data, duplicates)


def checked_values(data: Any, duplicates: dict[int, Any] | None = None) -> Any:
    """A copy of ``data`` in which no two places share a value, every value checked against the bounds.
    ``duplicates`` maps the id of a parsed mapping to a key its text gave twice."""
    return _Walk(duplicates or {}).copy(data, "", 0)


def shown(value: Any) -> str:
    """``value`` for a message (quoted, as Python writes it), cut short: a hostile situation may hold
    a huge value, and a library caller a self-repeating one, whose full repr would never finish."""
    return cut(_REPR.repr(value))


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 80


def listed(names: list[str], at_most: int = 10) -> str:
    """``names`` for a message or hint: at most ``at_most`` of them, each cut short, then how many
    more there are."""
    text = ", ".join(cut(name, 40) for name in names[:at_most])
    return text + (f" and {len(names) - at_most:,} more" if len(names) > at_most else "")


def closed_fields(mapping: dict[str, Any], allowed: set[str], where: str) -> None:
    """Refuse a field of ``mapping`` that is not ``allowed``, with the closest known one."""
    unknown = sorted(str(k) for k in mapping if k not in allowed)
    if unknown:
        import difflib

        close = difflib.get_close_matches(unknown[0], sorted(allowed), n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        place = field_path(where, unknown[0])
        raise SituationError(place, "unknown field", hint + "known fields: " + ", ".join(sorted(allowed)))


def list_field(value: Any, where: str) -> list[Any]:
    """``value`` as a list field (left out: empty), at most ``MAX_ITEMS`` long."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise SituationError(where, "must be a list")
    if len(value) > MAX_ITEMS:
        raise SituationError(
            where, f"holds {len(value):,} items; a situation lists at most {MAX_ITEMS:,} per field"
        )
    return value


def count_objects(data: dict[str, Any], players: dict[str, Any], zones: Container[str]) -> None:
    """Refuse more objects than a situation may hold, before a single card name is looked up."""
    total = len(data["stack"]) if isinstance(data.get("stack"), list) else 0
    for section in players.values():
        if isinstance(section, dict):
            total += sum(len(v) for k, v in section.items() if k in zones and isinstance(v, list))
    if total > MAX_OBJECTS:
        raise SituationError(
            "players",
            f"{total:,} objects in the zones of the situation; a situation holds at most {MAX_OBJECTS:,}",
            "describe the objects the question is about",
        )


def _json_int(text: str) -> int | HugeNumber:
    return HugeNumber(len(text)) if len(text.lstrip("-")) > MAX_DIGITS else int(text)


def _pairs_hook(duplicates: dict[int, Any]):
    def mapping(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result and id(result) not in duplicates:
                duplicates[id(result)] = key
            result[key] = value
        return result

    return mapping


_JSON_TYPES = (str, int, float, bool, type(None), dict, list)


class _Walk:
    def __init__(self, duplicates: dict[int, Any]) -> None:
        self.duplicates = duplicates
        self.values = 0

    def copy(self, value: Any, path: str, depth: int) -> Any:
        self.values += 1
        if self.values > MAX_VALUES:
            raise situation_error(path, f"the situation holds more than {MAX_VALUES:,} values")
        if depth > MAX_DEPTH:
            raise situation_error(path, TOO_DEEP)
        if isinstance(value, str):
            self.text(value, path)
            return value
        if isinstance(value, HugeNumber):
            raise situation_error(
                path,
                f"a number of {value.digits:,} digits; a situation's numbers are at most {MAX_AMOUNT:,}",
            )
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_AMOUNT:
            number = f"{value:,}" if value.bit_length() < 50 else f"a number of {value.bit_length()} bits"
            raise situation_error(path, f"{number} is more than any game counts (at most {MAX_AMOUNT:,})")
        if isinstance(value, list):
            return [self.copy(item, item_path(path, index), depth + 1) for index, item in enumerate(value)]
        if isinstance(value, dict):
            if id(value) in self.duplicates:
                raise situation_error(field_path(path, self.duplicates[id(value)]), GIVEN_TWICE)
            copied = {}
            for key, item in value.items():
                if isinstance(key, str):
                    self.text(key, path)
                else:
                    self.copy(key, path, depth + 1)
                copied[key] = self.copy(item, field_path(path, key), depth + 1)
            return copied
        if not isinstance(value, _JSON_TYPES):
            what = f"a YAML {type(value).__name__} is no value of a situation; quote it as text"
            raise situation_error(path, what)
        return value

    def text(self, value: str, path: str) -> None:
        if len(value) > MAX_STRING:
            raise situation_error(
                path, f"a text of {len(value):,} characters; a situation's texts are at most {MAX_STRING:,}"
            )
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            what = "holds text that is not Unicode (a lone surrogate such as \\ud800)"
            raise situation_error(path, what) from None


def _yaml(text: str, origin: str) -> Any:
    from mtgkb.reasoning.situation_yaml import BoundedLoader  # PyYAML only when the text is no JSON

    loader = None
    try:
        loader = BoundedLoader(text)  # the reader refuses unprintable characters at once
        return loader.get_single_data()
    except SituationError:
        raise
    except RecursionError:
        raise SituationError("", f"{origin} is nested too deeply") from None
    except Exception as error:  # PyYAML's errors have no common public base beyond YAMLError
        raise SituationError("", f"{origin} is neither JSON nor YAML: {cut(str(error), 300)}") from error
    finally:
        if loader is not None:
            loader.dispose()
