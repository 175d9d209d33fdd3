"""Text for the faces of a card in a card report: the layout and its rule, each face with its own cost,
type line, mana value, colours and size, a prototype's second set, a meld pair, and the report on a
name that is the combined back face of a meld pair (no card)."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mtgkb.lookups.card import CardReport
    from mtgkb.lookups.card_faces import FaceInfo, LayoutInfo, MeldInfo, PrototypeInfo

WIDTH = 100


def wrap(text: str, indent: int) -> list[str]:
    """Each paragraph wrapped, indented; the official text keeps its own line breaks."""
    pad = " " * indent
    lines = []
    for paragraph in text.splitlines() or [""]:
        lines += textwrap.wrap(paragraph, WIDTH, initial_indent=pad, subsequent_indent=pad) or [""]
    return lines


def stats(power: str | None, toughness: str | None, loyalty: str | None, defense: str | None) -> str:
    if power is not None or toughness is not None:
        return f"{power or '?'}/{toughness or '?'}"
    if loyalty is not None:
        return f"loyalty {loyalty}"
    return f"defense {defense}" if defense is not None else ""


def _colours(colors: list[str]) -> str:
    return " ".join(colors) or "colourless"


def layout_lines(layout: LayoutInfo | None) -> list[str]:
    """The layout and, where the data describes it, the rule by which the faces give the card its
    characteristics, with its citations."""
    if layout is None or layout.name == "normal":
        return []
    if layout.iri is None:
        return wrap(f"layout: {layout.name} (no rule for it in the data)", 0)
    rule = f"; outside the stack and the battlefield: {layout.rule}" if layout.rule else ""
    cites = f"  [CR {', '.join(layout.cites)}]" if layout.cites else ""
    return wrap(f"layout: {layout.label or layout.name} ({layout.name}){rule}{cites}", 0)


def face_heading(face: FaceInfo, count: int) -> list[str]:
    """The face's name and cost, then its type line and size, then its mana value and colours."""
    position = f"Face {face.index + 1} of {count}: " if face.index is not None else "Face: "
    lines = [position + "   ".join(p for p in (face.name or face.iri, face.mana_cost) if p)]
    if face.known_only_by_name:
        return [*lines, "  (the imported card data names this face but gives none of its characteristics)"]
    size = stats(face.power, face.toughness, face.loyalty, face.defense)
    lines.append("  " + "   ".join(p for p in (face.type_line, size) if p))
    facts = []
    if face.mana_cost is None:
        # A back face's permanent takes the front face's mana value (712.8e), a flipped one the card's.
        facts.append("no mana cost of its own")
    elif face.mana_value is not None:
        facts.append(f"mana value {face.mana_value:g}")
    facts.append("colours " + _colours(face.colors))
    if face.color_indicator:
        facts.append("colour indicator " + " ".join(face.color_indicator))
    lines.append("  " + " · ".join(facts))
    return lines


def prototype_lines(prototype: PrototypeInfo | None) -> list[str]:
    if prototype is None:
        return []
    size = stats(prototype.power, prototype.toughness, None, None)
    facts = [f"mana value {prototype.mana_value:g}"] if prototype.mana_value is not None else []
    facts.append("colours " + _colours(prototype.colors))
    cites = f"  [CR {', '.join(prototype.cites)}]" if prototype.cites else ""
    return wrap(
        f"prototype: {prototype.mana_cost} {size} ({' · '.join(facts)}), when cast prototyped{cites}", 0
    )


def meld_lines(meld: MeldInfo | None, card_name: str) -> list[str]:
    """For a meld card: the card it melds with and what they become (no card)."""
    if meld is None:
        return []
    others = [card.name for card in meld.cards if card.name != card_name]
    partner = f" with {' and '.join(n for n in others if n)}" if others else ""
    cites = f"  [CR {', '.join(meld.cites)}]" if meld.cites else ""
    return wrap(
        f"melds{partner} into {meld.name}, the combined back face of the pair (not a card of its own){cites}",
        0,
    )


def render_melded_face(report: CardReport) -> str:
    """A name that is the combined back face of a meld pair: what it is and what it has."""
    meld = report.meld
    assert meld is not None
    lines = [report.name, "=" * len(report.name)]
    pair = " with ".join(card.name or card.iri for card in meld.cards)
    lines += wrap(
        f"Not a card: the combined back face of the meld pair {pair}. It exists only as the one "
        "permanent those two cards become when melded on the battlefield; no deck holds it, so it "
        "cannot be a commander." + (f"  [CR {', '.join(meld.cites)}]" if meld.cites else ""),
        0,
    )
    face = meld.face
    if face.type_line:
        size = stats(face.power, face.toughness, face.loyalty, face.defense)
        lines += ["", "   ".join(p for p in (face.type_line, size) if p)]
        facts = []
        if face.mana_value is not None:
            facts.append(f"mana value {face.mana_value:g} (its two front faces' mana values added up)")
        facts.append("colours " + _colours(face.colors))
        lines.append(" · ".join(facts))
    else:
        lines += ["", "(the imported card data gives none of its characteristics)"]
    if face.oracle_text:
        lines += ["", *wrap(face.oracle_text, 2)]
    return "\n".join(lines)
