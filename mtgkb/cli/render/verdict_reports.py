"""Text for the verdicts on a situation (can-activate, can-cast, options) and for timing."""

from __future__ import annotations

import re
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
        returned = all(c.returned for c in verdict.candidates)
        lines += ["", "Could return:" if returned else "Could pay the cost:"]
        for c in verdict.candidates:
            extra = " (token)" if c.token else " (a commander)" if c.commander else ""
            if not returned:
                lines.append(f"  {c.name}{extra}: for “{c.pays}”")
                continue
            target = phrases.person(c.attacking, verdict.player) if c.attacking else None
            what = f"attacking {target}, {c.blocked}" if c.attacking else "not attacking"
            whose = phrases.players_possessive(c.owner, verdict.player)
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
        lines += _ruling_lines(verdict)
    if verdict.abilities:
        lines += ["", f"Its {len(verdict.abilities)} activated abilities (ask for one with --ability):"]
        for one in verdict.abilities:
            lines += textwrap.wrap(
                f"- {answer_word(one.answer)}: {one.ability}"
                + "".join(f" ({c.check}: {c.because})" for c in one.checks if c.holds is not True)[:200],
                WIDTH,
                initial_indent="  ",
                subsequent_indent="     ",
            )
    elif verdict.alternatives:
        lines += ["", "Other ways:"]
        for way in verdict.alternatives:
            name = f"{way.ability} (as {way.face})" if way.face else way.ability
            reason = (
                next((c.because for c in way.checks if c.holds is not True), None) if not way.answer else None
            )
            lines += textwrap.wrap(
                f"- {name}: {answer_word(way.answer).lower()}"
                + (f", {way.cost}" if way.cost else "")
                + (f" ({reason})" if reason else ""),
                WIDTH,
                initial_indent="  ",
                subsequent_indent="    ",
            )
    lines += ["", cites_line(verdict)]
    return "\n".join(lines)


#: How many of the card's own rulings the text shows (--json has every one the verdict carries).
OWN_RULINGS_SHOWN = 8


def _ruling_lines(verdict: ActionVerdict) -> list[str]:
    """The card's own rulings, then the mechanic's general rulings, each naming its card; then how
    many more there are and the commands that list them."""
    own = [r for r in verdict.rulings if not r.general]
    general = [r for r in verdict.rulings if r.general]
    lines: list[str] = []
    hidden = max(0, len(own) - OWN_RULINGS_SHOWN) + verdict.rulings_more
    for title, group in (
        (f"Rulings on {verdict.card}:", own[:OWN_RULINGS_SHOWN]),
        (f"General rulings on {_keyword(verdict)}, from other cards with it:", general),
    ):
        if not group:
            continue
        lines += ["", title]
        for ruling in group:
            text = ruling.text or f"(our summary) {ruling.summary}"
            about = f"{ruling.about}: " if ruling.general and ruling.about else ""
            lines += textwrap.wrap(
                f"{ruling.date or '????-??-??'}  {about}{text}",
                WIDTH,
                initial_indent="  ",
                subsequent_indent="              ",
            )
    if hidden:
        see = "; ".join(verdict.rulings_see) or "--json"
        lines.append(f"  … {hidden} more, listed by: {see}")
    return lines


def _keyword(verdict: ActionVerdict) -> str:
    """The ability's keyword without its cost or number: "Commander ninjutsu {U}{B}" -> "commander
    ninjutsu", "Suspend 4—{1}{U}" -> "suspend"."""
    name = re.sub(r"(?:\s+(?:\d+|X))?\s*[{—].*$", "", verdict.ability or verdict.via or "the mechanic")
    return name[:1].lower() + name[1:]


def render_options(verdict: OptionsVerdict, all_cites: bool = False) -> str:
    step = verdict.step.replace("-", " ")
    lines = verdict_lines(verdict, f"What can you activate, or cast another way, now ({step})?", all_cites)
    if verdict.options:
        lines += ["", "Options:"]
        for option in verdict.options:
            returned = [c.name for c in option.candidates if c.returned]
            returns = f"; returns {' or '.join(returned)}" if returned else ""
            cost = f" for {option.cost}" if option.cost else ""
            lines.append(f"  {option.card}: {option.ability}{cost}{returns}")
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
