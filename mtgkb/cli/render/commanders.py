"""Text for the commander verdict and the partners list."""

from __future__ import annotations

import textwrap
from typing import Any

from mtgkb.cli.render.verdicts import WIDTH, cites_line, verdict_lines


def commanders_text(verdict: Any) -> str:
    names = [card.name for card in verdict.cards]
    if len(names) == 1:
        question = f"Can {names[0]} be a deck's commander?"
    else:
        question = f"Can {', '.join(names[:-1])} and {names[-1]} be a deck's commanders together?"
    lines = verdict_lines(verdict, question)
    if verdict.via:
        lines += ["", f"Paired through: {verdict.via}"]
    if verdict.follows:
        lines += ["", "What follows in the game"]
        for item in verdict.follows:
            lines.append(f"  - {item.what}  [CR {', '.join(item.cites)}]")
            lines += textwrap.wrap(item.summary, WIDTH, initial_indent=" " * 4, subsequent_indent=" " * 4)
    lines += ["", cites_line(verdict)]
    return "\n".join(lines)


def partners_text(report: Any) -> str:
    identity = " ".join(report.color_identity) or "colourless"
    lines = [f"{report.name} (colour identity {identity}): {report.total} possible second commanders"]
    if not report.groups:
        lines.append("  none in this knowledge base")
    for group in report.groups:
        lines += ["", f"{group.via}: {group.count}  [CR {', '.join(group.cites)}]"]
        for partner in group.partners:
            together = " ".join(partner.combined_identity) or "colourless"
            lines.append(f"  {partner.name}  (together {together})")
        if group.count > len(group.partners):
            lines.append(f"  … and {group.count - len(group.partners)} more (--limit)")
    if report.answer is None:
        shown = ", ".join(f"mtgkb:{p.rsplit('/', 1)[-1]}" for p in report.not_modelled) or "something"
        lines += ["", f"CANNOT TELL for these cards: {shown} is not modelled (no evaluator)"]
        for group in report.cannot_tell:
            lines += [f"{group.via}: {group.count}  [CR {', '.join(group.cites)}]"]
            lines += [f"  ?? {partner.name}" for partner in group.partners]
            if group.count > len(group.partners):
                lines.append(f"  … and {group.count - len(group.partners)} more (--limit)")
    return "\n".join(lines)
