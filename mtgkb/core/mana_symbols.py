"""What a printed mana cost says by itself: its mana value (202.3) and its colours (202.2), for the
importers, which meet costs with no mana value beside them (a prototype's inset cost, a Scryfall
face). Arithmetic on costs (paying, adding tax) is mtgkb.reasoning.mana's."""

from __future__ import annotations

import re

_SYMBOL = re.compile(r"\{([^{}]+)\}")
COLOURS = "WUBRG"


def mana_value(cost: str) -> float:
    """The total mana of the symbols of ``cost``: a number its amount, X nothing (202.3e), a half
    symbol ({HW}) one half, a hybrid symbol its larger half ({2/W} two), any other symbol one."""
    total = 0.0
    for symbol in _SYMBOL.findall(cost):
        halves = symbol.upper().split("/")
        if symbol.isdigit():
            total += int(symbol)
        elif symbol.upper() == "X":
            continue
        elif symbol.upper().startswith("H"):
            total += 0.5
        else:
            total += max((int(half) if half.isdigit() else 1) for half in halves)
    return total


def colours(cost: str) -> list[str]:
    """The colours of the coloured symbols of ``cost`` (202.2), in WUBRG order."""
    found = {letter for symbol in _SYMBOL.findall(cost.upper()) for letter in symbol if letter in COLOURS}
    return [letter for letter in COLOURS if letter in found]
