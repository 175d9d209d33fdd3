"""``mtgkb copy``: what a card's copy effect makes of a target, with the CR 707 rules."""

from __future__ import annotations

import click

from mtgkb.cli import cli, completion, json_option, progress_reporter
from mtgkb.cli.verdict_output import emit_verdict


@cli.command(name="copy")
@click.argument("card", nargs=-1, required=True, shell_complete=completion.CARDS)
@click.option(
    "--target",
    "-t",
    required=True,
    metavar="TARGET",
    help="The card, or object of the situation, to copy.",
    shell_complete=completion.CARDS,
)
@click.option(
    "--situation",
    metavar="FILE",
    default=None,
    help="Game situation (JSON or YAML, '-' for stdin) in the shared format, plus copy fields such as "
    "face_down, transformed, counters, attached, entered_from.",
)
@json_option
def copy_command(card: tuple[str, ...], target: str, situation: str | None, as_json: bool) -> None:
    """Can CARD's copy effect copy TARGET, and what does the copy become?

    Answers with the resulting object (name, cost, types, P/T, abilities, token, tapped,
    attacking, commander), what was and was not copied, each exception applied, the checks and
    their rules (CR 707), and the rulings on CARD. Without --situation the target is a card
    taken as printed, on the battlefield, and game-state conditions are assumed to hold. Exit
    status 0 when the copy can be made, 1 when it cannot, 2 on bad input, 3 when it cannot tell
    (CANNOT TELL: a requirement of the copy effect is not modelled).

    \b
    Examples:
      mtgkb copy "Sakashima's Student" --target "Grizzly Bears"
      mtgkb copy "Spark Double" --target "Yuriko, the Tiger's Shadow" --json
      mtgkb copy Clone --target "Sakashima's Student" --situation board.yaml
    """
    from mtgkb.app import open_kb
    from mtgkb.reasoning.copy.verdict import copy_verdict

    kb = open_kb(progress_reporter())
    game = None
    if situation is not None:
        from mtgkb.reasoning.copy.situation import read_copy_situation
        from mtgkb.reasoning.situation import load_situation

        game = read_copy_situation(kb, load_situation(situation))
    from mtgkb.cli.render.copy import render_copy

    emit_verdict(copy_verdict(kb, " ".join(card), target, game), as_json, render_copy)
