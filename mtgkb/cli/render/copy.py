"""Human text for ``mtgkb copy``."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from mtgkb.cli.render.verdicts import WIDTH, cites_line, verdict_lines

if TYPE_CHECKING:
    from mtgkb.reasoning.copy.verdict import CopiedObject, CopyVerdict


def render_copy(verdict: CopyVerdict) -> str:
    lines = verdict_lines(verdict, f"Can {verdict.card} copy {verdict.target}?")
    if verdict.result is not None:
        lines += ["", "The copy", *_object_lines(verdict.result)]
    if verdict.exceptions:
        lines += ["", "Exceptions"]
        for exception in verdict.exceptions:
            kept = "copiable" if exception.copiable else "this copy only"
            values = ", ".join(v for v in exception.values if v) or exception.characteristic
            lines.append(
                f"  {exception.kind}: {values}  ({kept}; {exception.source})"
                f"  [CR {', '.join(exception.cites)}]"
            )
    if verdict.copied:
        lines += ["", "Copied"]
        lines += [f"  {c.characteristic}: {c.value}  [CR {', '.join(c.cites)}]" for c in verdict.copied]
    if verdict.not_copied:
        lines += ["", "Not copied"]
        lines += [f"  {c.characteristic}: {c.value}  [CR {', '.join(c.cites)}]" for c in verdict.not_copied]
    if verdict.rulings:
        lines += ["", f"Rulings on {verdict.card}"]
        for ruling in verdict.rulings:
            text = ruling.text or f"{ruling.summary} (our summary)"
            lines += textwrap.wrap(
                f"{ruling.date}  {text}", WIDTH, initial_indent="  ", subsequent_indent="    "
            )
    lines += ["", cites_line(verdict)]
    return "\n".join(lines)


def _object_lines(copy: CopiedObject) -> list[str]:
    types = " ".join([*copy.supertypes, *copy.types])
    if copy.subtypes:
        types += " — " + " ".join(copy.subtypes)
    pt = f"   {copy.power}/{copy.toughness}" if copy.power is not None else ""
    lines = [f"  {copy.name or '(no name)'}   {copy.mana_cost or '(no mana cost)'}", f"  {types}{pt}"]
    status = [
        word
        for word, on in (("token", copy.token), ("tapped", copy.tapped), ("attacking", copy.attacking))
        if on
    ]
    lines.append(
        f"  mana value {copy.mana_value:g} · colors {' '.join(copy.colors) or 'colorless'}"
        + (f" · {', '.join(status)}" if status else "")
        + f" · commander: {'yes' if copy.commander else 'no'}"
    )
    if copy.counters:
        lines.append("  counters: " + ", ".join(f"{n} {k}" for k, n in copy.counters.items()))
    for ability in copy.abilities:
        lines += textwrap.wrap(ability, WIDTH, initial_indent="    ", subsequent_indent="      ")
    return lines
