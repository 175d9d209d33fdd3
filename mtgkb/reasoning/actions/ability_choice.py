"""Which of a card's abilities a question asks about (``--ability``): a keyword or mechanic
("equip", "ninjutsu"), a loyalty cost ("+1", "-2" or "−2", "0"), a 1-based position among the
card's activated abilities in printed order, or a fragment of the ability's text that names exactly
one of them. A name that fits none, or a fragment that fits several, is an input error (exit 2) that
lists the card's abilities."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from mtgkb.core.errors import MtgkbError, shown
from mtgkb.kb.vocab import RDFS_LABEL, V

if TYPE_CHECKING:
    from mtgkb.reasoning.actions.ways import Context, Way
    from mtgkb.reasoning.situation import GameObject

_LOYALTY_COST = re.compile(r"^\[?([+\u2212-]?)(\d+|x)\]?$", re.IGNORECASE)


def check_ability_name(
    context: Context, source: GameObject, ways: list[Way], wanted: str | None
) -> list[Way]:
    """The ways whose ability is ``wanted``; every way when nothing is asked."""
    if wanted is None:
        return ways
    from mtgkb.kb.names import normalise

    ordered = sorted(ways, key=lambda w: w.position)
    text = wanted.strip()
    loyalty = _LOYALTY_COST.match(text)
    chosen: list[Way] = []
    if text.isdigit() and text != "0":
        # The card's N-th "[Cost]: [Effect]" ability, as `mtgkb card` numbers it; else the N-th way.
        index = int(text)
        chosen = [w for w in ways if w.position == index]
        if not chosen:
            chosen = [ordered[index - 1]] if 1 <= index <= len(ordered) else []
    elif loyalty:
        sign = "\u2212" if loyalty.group(1) in ("-", "\u2212") else loyalty.group(1)
        cost = (sign + loyalty.group(2)).upper()
        chosen = [w for w in ways if w.ability is not None and (w.ability.first(V.abilityCost) or "") == cost]
    if not chosen:
        key = normalise(text)
        chosen = [w for w in ways if key and any(normalise(t).startswith(key) for t in _names(context, w))]
    if not chosen:
        lowered = text.lower()
        chosen = [w for w in ways if lowered and any(lowered in t.lower() for t in _texts(w))]
        if len(chosen) > 1:
            raise MtgkbError(
                f"'{shown(wanted)}' fits {len(chosen)} abilities of {source.name}",
                "name one: " + _listing(ordered),
            )
    if not chosen:
        raise MtgkbError(
            f"{source.name} has no ability named '{shown(wanted)}'",
            f"its abilities here: {_listing(ordered)}"
            if ways
            else f"{source.name} has no ability of that kind here",
        )
    return chosen


def _names(context: Context, way: Way) -> list[str]:
    return [
        t
        for t in (
            way.ability.first(RDFS_LABEL) if way.ability is not None else "",
            context.rules.label(way.mechanic),
            context.rules.node(way.mechanic).first(V.keyword) or "",
            context.rules.node(way.mechanic).first(V.actionName) or "",  # "turn face up"
            *context.rules.node(way.mechanic).all(V.viaName),  # "plot": casting a plotted card
        )
        if t
    ]


def _texts(way: Way) -> list[str]:
    if way.ability is None:
        return []
    return [t for t in (way.ability.first(V.abilityText), way.ability.first(RDFS_LABEL)) if t]


def _listing(ordered: list[Way]) -> str:
    labels = [w.ability.first(RDFS_LABEL) or w.slug for w in ordered if w.ability is not None]
    return "; ".join(f"{n}. {label}" for n, label in enumerate(labels, 1)) or "none"
