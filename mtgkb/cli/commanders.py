"""Deck questions: can these cards lead a deck together, and who can this one partner with."""

from __future__ import annotations

import click

from mtgkb.cli import cli, completion, json_option, progress_reporter
from mtgkb.core.errors import MtgkbError


@cli.command()
@click.argument("names", nargs=-1, required=True, metavar="CARD [CARD ...]", shell_complete=completion.CARDS)
@json_option
def commanders(names: tuple[str, ...], as_json: bool) -> None:
    """Can these cards be a deck's commanders, alone or as a pair? Exit 0 yes, 1 no, 2 bad input,
    3 cannot tell (CANNOT TELL: a commander rule the card meets only in part is not modelled).

    Each CARD ignores case, accents and punctuation; a unique start of the name will do. Quote a
    name that has spaces. The answer checks each card may be a commander, the partner ability that
    pairs two of them, and gives the combined colour identity, citing the rules.

    \b
    Examples:
      mtgkb commanders "Thrasios, Triton Hero" "Tymna the Weaver"
      mtgkb commanders "Wilson, Refined Grizzly" "Folk Hero"
      mtgkb commanders "Rose Tyler" --json
    """
    from mtgkb.app import open_kb
    from mtgkb.cli.verdict_output import emit_verdict
    from mtgkb.reasoning.commanders.verdict import commanders_verdict

    if any(not name.strip() for name in names):
        raise MtgkbError(
            "a card name is empty", 'quote each full name: mtgkb commanders "Pir, Imaginative Rascal" Toothy'
        )
    from mtgkb.cli.render.commanders import commanders_text

    emit_verdict(commanders_verdict(open_kb(progress_reporter()), list(names)), as_json, commanders_text)


@cli.command()
@click.argument("name", nargs=-1, required=True, metavar="CARD", shell_complete=completion.CARDS)
@click.option(
    "--limit", type=click.IntRange(min=1), default=None, help="Names shown per group (counts stay whole)."
)
@json_option
def partners(name: tuple[str, ...], limit: int | None, as_json: bool) -> None:
    """Every card that can be CARD's second commander, grouped by the ability that allows it.

    Read from the partner graph of the whole knowledge base: each pair there passed the same checks
    as 'mtgkb commanders'. Groups and names are sorted by name. A pair those checks cannot tell
    (something it rests on is not modelled) is listed apart with what is not modelled ("answer":
    null in --json), and the command exits 3.

    \b
    Examples:
      mtgkb partners "Thrasios, Triton Hero"
      mtgkb partners "Folk Hero" --limit 5
      mtgkb partners "Rose Tyler" --json
    """
    from mtgkb.app import open_kb
    from mtgkb.cli.output import emit
    from mtgkb.cli.render.commanders import partners_text
    from mtgkb.reasoning.commanders.partner_graph import partners_report
    from mtgkb.reasoning.contract import EXIT_STATUS

    report = partners_report(open_kb(progress_reporter()), " ".join(name), limit)
    emit(report, as_json, partners_text)
    if report.answer is None:
        raise click.exceptions.Exit(EXIT_STATUS[None])
