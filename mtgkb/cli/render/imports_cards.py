"""Text for card imports (MTGJSON, Scryfall): what was read, what was recognised, what was left out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgkb.cli.output import table

if TYPE_CHECKING:
    from mtgkb.importers.card_model import CardImportSummary

_SHOWN = 10


def render_card_import(summary: CardImportSummary) -> str:
    lines = [
        f"Imported {summary.source} from {', '.join(summary.files)}",
        f"  {summary.cards:,} cards, {summary.faces:,} faces, {summary.rulings:,} rulings",
        f"  {summary.quads:,} quads in {', '.join(summary.outputs)}",
        f"  store rebuilt: {summary.store_triples:,} triples; {summary.seconds:.1f} s in all",
    ]
    rows = [[mechanic, count, ""] for mechanic, count in summary.abilities.items()]
    rows += [
        [mechanic, count, "granted to other cards"] for mechanic, count in summary.granted_abilities.items()
    ]
    rows += [
        [mechanic, count, "changes abilities of this mechanic (their cost)"]
        for mechanic, count in summary.changing_abilities.items()
    ]
    if rows:
        lines += ["", "Abilities read from the Oracle text:", table(["mechanic", "abilities", "note"], rows)]
    notes = []
    if summary.skipped_records:
        why = "tokens, repeated, unnameable or unreadable records, meld back faces"
        notes.append(f"{summary.skipped_records:,} records left out ({why})")
        notes += [f"  {name!r}: {why}" for name, why in list(summary.skipped_names.items())[:_SHOWN]]
    if summary.faces_known_only_by_name:
        notes.append(
            f"{summary.faces_known_only_by_name:,} faces are known only by the card's name: "
            "the file gives none of their characteristics"
        )
    if summary.melded_faces:
        notes.append(
            f"{summary.melded_faces:,} records are the combined back face of a meld pair, read as "
            "that face, not as a card (CR 712.4b)"
        )
    if summary.rulings_without_card:
        notes.append(f"{summary.rulings_without_card:,} rulings name a card that is not in the card file")
    if summary.unresolved_partners:
        notes.append("'partner with' names that match no imported card:")
        notes += [f"  {pair}" for pair in summary.unresolved_partners[:_SHOWN]]
        if len(summary.unresolved_partners) > _SHOWN:
            notes.append(f"  and {len(summary.unresolved_partners) - _SHOWN} more")
    if notes:
        lines += ["", *notes]
    return "\n".join(lines)
