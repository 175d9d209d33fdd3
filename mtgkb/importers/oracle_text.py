"""What the Oracle-text readers share about a line of text: an ability word before it, whether it is
a trigger, its "[Cost]: [Effect]" split, and the card's name in it written as CARDNAME (so that a
phrase reads "Sacrifice CARDNAME" whatever the card)."""

from __future__ import annotations

import re

# "Channel — {1}{G}, Discard this card: ..." : an ability word (207.2c) before the ability.
ABILITY_WORD = re.compile(r"^[A-Z][A-Za-z' ]{2,30} \u2014 ")
TRIGGER = re.compile(r"^(?:when|whenever|at)\b", re.IGNORECASE)


def split_cost(body: str) -> tuple[str | None, str | None]:
    """("{2}, {T}", "Draw a card.") from "{2}, {T}: Draw a card."; (None, None) for a line that is no
    activated ability (a trigger, a quoted ability, a sentence with a colon in it)."""
    head, colon, effect = body.partition(": ")
    if not colon or not head or TRIGGER.match(head) or len(head) > 120:
        return None, None
    if any(mark in head for mark in ('"', ".", "\u201c", ";")):
        return None, None
    if not (head.startswith("{") or head[:1].isupper()):
        return None, None
    return head, effect.strip()


def named(text: str, name: str | None) -> str:
    if not name:
        return text
    text = text.replace(name, "CARDNAME")
    short = name.split(",")[0]
    return text.replace(short, "CARDNAME") if short != name and len(short) > 3 else text


def unnamed(text: str, name: str | None) -> str:
    return text.replace("CARDNAME", name or "this") if name else text
