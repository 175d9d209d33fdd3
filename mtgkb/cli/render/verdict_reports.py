"""Text for the verdicts on a situation (can-activate, can-cast, options) and for timing."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from mtgkb.cli.render.verdicts import WIDTH, cites_line, verdict_lines
from mtgkb.reasoning import phrases
from mtgkb.reasoning.contract import answer_word

if TYPE_CHECKING:
    from mtgkb.reasoning.actions.questions import OptionsVerdict
    from mtgkb.reasoning.actions.timing import TimingReport
    from mtgkb.reasoning.actions.ways import ActionVerdict


def render_action(verdict: ActionVerdict, all_cites: bool = False) -> str:
    lines = verdict_lines(verdict, verdict.question, all_cites)
    if verdict.cost:
        life = f" and {verdict.life} life" if verdict.life else ""
        lines += ["", f"Cost: {verdict.cost}{life}"]
    if verdict.candidates:
        lines += ["", "Could return:"]
        for c in verdict.candidates:
            target = phrases.person(c.attacking, verdict.player) if c.attacking else None
            what = f"attacking {target}, {c.blocked}" if c.attacking else "not attacking"
            extra = " (token)" if c.token else " (a commander)" if c.commander else ""
            whose = phrases.possessive(c.owner, verdict.player)
            lines.append(f"  {c.name}{extra}: {what}; goes to {whose} hand")
    if verdict.outcome:
        lines += ["", "What follows:"]
        for entry in verdict.outcome:
            lines += textwrap.wrap(
                f"{entry.outcome}. {entry.summary} [CR {', '.join(entry.cites)}]",
                WIDTH,
                initial_indent="  - ",
                subsequent_indent="    ",
            )
    if verdict.rulings:
        lines += ["", "Rulings:"]
        for ruling in verdict.rulings[:8]:
            text = ruling.text or f"(our summary) {ruling.summary}"
            lines += textwrap.wrap(
                f"{ruling.date or '????-??-??'}  {text}",
                WIDTH,
                initial_indent="  ",
                subsequent_indent="              ",
            )
        if len(verdict.rulings) > 8:
            lines.append(f"  ... {len(verdict.rulings) - 8} more with --json")
    if verdict.alternatives:
        lines += ["", "Other ways:"]
        for way in verdict.alternatives:
            lines.append(
                f"  {way.ability}: {answer_word(way.answer).lower()}" + (f", {way.cost}" if way.cost else "")
            )
    lines += ["", cites_line(verdict)]
    return "\n".join(lines)


def render_options(verdict: OptionsVerdict, all_cites: bool = False) -> str:
    lines = verdict_lines(
        verdict, f"Can you use a ninjutsu-family ability in the {verdict.step} step?", all_cites
    )
    if verdict.options:
        lines += ["", "Options:"]
        for option in verdict.options:
            returns = (
                f"; returns {' or '.join(c.name for c in option.candidates)}" if option.candidates else ""
            )
            lines.append(f"  {option.card}: {option.ability} for {option.cost}{returns}")
    lines += ["", cites_line(verdict)]
    return "\n".join(lines)


def render_timing(report: TimingReport) -> str:
    lines = [f"When {report.card} can be used (derived from the turn graph)", ""]
    if not report.abilities:
        lines.append("  nothing of the modelled mechanics")
    for ability in report.abilities:
        when = ", ".join(ability.steps) or "no step"
        limits = [
            text
            for flag, text in (
                (ability.your_turn_only, "your turn only"),
                (ability.needs_empty_stack, "empty stack"),
            )
            if flag
        ]
        lines.append(f"  {ability.ability}: {when}" + (f" ({', '.join(limits)})" if limits else ""))
        lines.append(f"      CR {', '.join(ability.cites)}")
    return "\n".join(lines)
