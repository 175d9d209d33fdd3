"""What the situation readers share: the error that names a field, field paths, and the bounds
the JSON and YAML readers of :mod:`mtgkb.reasoning.situation_text` and
:mod:`mtgkb.reasoning.situation_yaml` both apply."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mtgkb.core.errors import MtgkbError
from mtgkb.core.errors import shown as cut
from mtgkb.reasoning.situation_limits import MAX_AMOUNT, MAX_DEPTH

MERGE_TAG = "tag:yaml.org,2002:merge"
#: More digits than this is no number of a game, whatever it spells.
MAX_DIGITS = len(str(MAX_AMOUNT)) + 2


class SituationError(MtgkbError):
    """A situation that cannot be read; the message names the field."""

    def __init__(self, where: str, message: str, hint: str | None = None) -> None:
        super().__init__(f"situation {where}: {message}" if where else f"situation: {message}", hint)
        self.where = where
        self.detail = message  # the message without the field it is about


def field_path(parent: str, key: Any) -> str:
    """``players.me`` + ``hand`` -> ``players.me.hand``, a long key cut short."""
    text = cut(key if isinstance(key, str) else repr(key), 40)
    return f"{parent}.{text}" if parent else text


def item_path(parent: str, index: int) -> str:
    return f"{parent}[{index}]"


def situation_error(where: str, message: str) -> SituationError:
    return SituationError(where, message)


@dataclass(frozen=True)
class HugeNumber:
    """A number written with more digits than any game's number has; refused with its path."""

    digits: int


GIVEN_TWICE = "is given twice; each key is given once (the second would silently replace the first)"
TOO_DEEP = f"nested more than {MAX_DEPTH} levels deep; no field of a situation is"
