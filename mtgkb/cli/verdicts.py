"""The judge's verdicts on a game situation: can-activate, can-cast, options; and timing."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import Any

import click

from mtgkb.cli import cli, completion, json_option, progress_reporter
from mtgkb.cli.output import emit
from mtgkb.cli.verdict_output import emit_verdict, exit_for
from mtgkb.reasoning.situation_limits import MAX_COMMANDER_CASTS

_STEP_HELP = "The step or main phase, e.g. declare-blockers, precombat-main (instead of a file)."


def situation_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """--situation FILE, or the same situation from options for two players, me and opp."""
    cards = completion.CARDS
    decorators = [
        click.option(
            "--situation",
            "-s",
            "situation_file",
            metavar="FILE",
            help="Situation as JSON or YAML; - reads stdin.",
        ),
        click.option("--step", help=_STEP_HELP, shell_complete=completion.complete_steps),
        click.option(
            "--turn",
            type=click.Choice(["me", "opp"]),
            default="me",
            show_default=True,
            help="Whose turn it is.",
        ),
        click.option(
            "--priority",
            type=click.Choice(["me", "opp"]),
            help="Who holds priority (default: whose turn it is).",
        ),
        click.option(
            "--zone",
            type=click.Choice(["hand", "command", "graveyard", "exile", "library", "battlefield"]),
            default="hand",
            show_default=True,
            help="Where the card is.",
        ),
        click.option(
            "--unblocked",
            multiple=True,
            metavar="NAME",
            help="An unblocked attacker (token:NAME for a token).",
            shell_complete=cards,
        ),
        click.option(
            "--blocked", multiple=True, metavar="NAME", help="A blocked attacker.", shell_complete=cards
        ),
        click.option(
            "--attacking",
            multiple=True,
            metavar="NAME",
            help="An attacker before blockers are declared.",
            shell_complete=cards,
        ),
        click.option(
            "--tapped",
            multiple=True,
            metavar="NAME",
            help="A tapped creature of mine, not attacking.",
            shell_complete=cards,
        ),
        click.option(
            "--permanent",
            "battlefield",
            multiple=True,
            metavar="NAME",
            help="Another permanent of mine.",
            shell_complete=cards,
        ),
        click.option(
            "--stack",
            multiple=True,
            metavar="NAME",
            help="A spell of the opponent on the stack.",
            shell_complete=cards,
        ),
        click.option("--mana", metavar="SYMBOLS", help="Mana I can still produce, e.g. '{1}{U}{B}'."),
        click.option(
            "--commander-casts",
            type=click.IntRange(min=0, max=MAX_COMMANDER_CASTS),
            help="The card is my commander, cast this often from the command zone.",
        ),
    ]
    for decorator in reversed(decorators):
        function = decorator(function)
    return function


def format_option(function: Callable[..., Any]) -> Callable[..., Any]:
    function = click.option(
        "--all-cites",
        "--details",
        "all_cites",
        is_flag=True,
        help="List every rule each check rests on (the text shows the few that decide it).",
    )(function)
    function = click.option(
        "--format",
        "output_format",
        type=click.Choice(["text", "json", "ttl"]),
        default=None,
        help="text (default), json, or ttl: the situation and the verdict as RDF.",
    )(function)
    return json_option(function)


@contextlib.contextmanager
def _in_options_terms(origins: dict[str, str]) -> Iterator[None]:
    """A mistake in a situation written from options is reported against the option used."""
    from mtgkb.reasoning.situation import SituationError
    from mtgkb.reasoning.situation_options import option_error

    try:
        yield
    except SituationError as error:
        translated = option_error(error, origins)
        if translated is error:
            raise
        raise translated from error


def _situation(kb: Any, card: str | None, options: dict[str, Any]) -> dict[str, Any]:
    from mtgkb.core.errors import MtgkbError
    from mtgkb.reasoning.situation import load_situation
    from mtgkb.reasoning.situation_options import TableOptions, situation_and_origins

    file = options.pop("situation_file")
    table = {k: v for k, v in options.items() if v not in (None, (), "me", "hand")}
    if file is not None:
        if table:
            raise MtgkbError(
                "give either --situation FILE or options such as --step, not both",
                "put everything in the file",
            )
        return load_situation(file)
    if options.get("step") is None:
        raise MtgkbError(
            "describe the situation: --situation FILE, or at least --step",
            "e.g. --step declare-blockers --unblocked 'Goblin Guide'",
        )
    if card is not None:
        from mtgkb.reasoning.situation import resolve_card

        resolve_card(kb, card, "CARD")  # a misspelt CARD is reported as such, not as a situation field
    game, origins = situation_and_origins(card, TableOptions(**options))
    _ORIGINS[id(game)] = origins
    return game


#: The options each situation built from options came from, by the situation's id (one command each).
_ORIGINS: dict[int, dict[str, str]] = {}


def _origins(game: dict[str, Any]) -> dict[str, str]:
    return _ORIGINS.get(id(game), {})


def _emit(
    kb: Any,
    verdict: Any,
    text: Callable[[Any], str],
    situation: dict[str, Any],
    as_json: bool,
    output_format: str | None,
) -> None:
    if output_format == "ttl":
        from mtgkb.reasoning.verdict_rdf import verdict_turtle

        click.echo(verdict_turtle(kb, verdict, situation), nl=False)
        exit_for(verdict)
        return
    emit_verdict(verdict, as_json or output_format == "json", text)


@cli.command("can-activate")
@click.argument("card", shell_complete=completion.CARDS)
@situation_options
@click.option(
    "--ability",
    metavar="NAME",
    help=(
        "Which ability: a keyword (equip, cycling, ninjutsu), a loyalty cost (+1, -2), a position "
        "(1, 2, ...) or a fragment of its text."
    ),
    shell_complete=completion.MECHANICS,
)
@click.option("--player", metavar="NAME", help="Who activates it (default: whoever holds the card).")
@format_option
def can_activate(
    card: str,
    ability: str | None,
    player: str | None,
    as_json: bool,
    output_format: str | None,
    all_cites: bool,
    **situation: Any,
) -> None:
    """Can CARD's activated ability (ninjutsu, equip, cycling, loyalty, any "[Cost]: [Effect]") be used now?

    Answers yes or no with one check per requirement, each with its rules, the cost (with
    reductions), the creatures it could return and what follows. Exit 0 yes, 1 no, 2 bad input,
    3 cannot tell (CANNOT TELL: a requirement, or the card's ability, is not modelled).

    \b
    Examples:
      mtgkb can-activate "Ninja of the Deep Hours" --situation combat.yaml
      mtgkb can-activate "Ninja of the Deep Hours" --step declare-blockers \\
          --unblocked "Goblin Guide" --mana "{1}{U}"
      mtgkb can-activate "Yuriko, the Tiger's Shadow" --zone command --commander-casts 2 \\
          --step combat-damage --unblocked token:Goblin --json
    """
    from mtgkb.app import open_kb
    from mtgkb.reasoning.actions.questions import can_activate as run

    kb = open_kb(progress_reporter())
    game = _situation(kb, card, situation)
    from mtgkb.cli.render.verdict_reports import render_action

    text = functools.partial(render_action, all_cites=all_cites)
    with _in_options_terms(_origins(game)):
        verdict = run(kb, game, card, ability, player)
    _emit(kb, verdict, text, game, as_json, output_format)


@cli.command("can-cast")
@click.argument("card", shell_complete=completion.CARDS)
@situation_options
@click.option(
    "--via",
    metavar="WAY",
    help="normal, or another way the card has (sneak, web-slinging, flashback, jump-start, retrace).",
)
@click.option("--player", metavar="NAME", help="Who casts it (default: whoever holds the card).")
@click.option(
    "--face",
    metavar="NAME",
    help="The face to cast: a split card's half, an Adventure, a modal DFC's back face (CARD may name it).",
)
@format_option
def can_cast(
    card: str,
    via: str | None,
    player: str | None,
    face: str | None,
    as_json: bool,
    output_format: str | None,
    all_cites: bool,
    **situation: Any,
) -> None:
    """Can CARD be cast now, and for what? Timing by card type (instant or flash, else sorcery
    timing), sneak, web-slinging, split second on the stack and commander tax.

    Without --via the answer is for the cheapest way that works. Exit 0 yes, 1 no, 2 bad input,
    3 cannot tell (CANNOT TELL: a requirement is not modelled).

    \b
    Examples:
      mtgkb can-cast "Lightning Bolt" --step upkeep --turn opp --priority me
      mtgkb can-cast "Splinter, Hamato Yoshi" --via sneak --step declare-blockers --unblocked "Grizzly Bears"
      mtgkb can-cast "Yuriko, the Tiger's Shadow" --zone command --commander-casts 2 \\
          --step precombat-main --json
      mtgkb can-cast "Fire // Ice" --face Ice --mana "{1}{U}"
    """
    from mtgkb.app import open_kb
    from mtgkb.reasoning.actions.questions import can_cast as run

    kb = open_kb(progress_reporter())
    game = _situation(kb, card, situation)
    from mtgkb.cli.render.verdict_reports import render_action

    text = functools.partial(render_action, all_cites=all_cites)
    with _in_options_terms(_origins(game)):
        verdict = run(kb, game, card, via, player, face)
    _emit(kb, verdict, text, game, as_json, output_format)


@cli.command("options")
@situation_options
@click.option("--player", metavar="NAME", help="Whose options (default: who holds priority).")
@format_option
def options_command(
    player: str | None, as_json: bool, output_format: str | None, all_cites: bool, **situation: Any
) -> None:
    """Every ninjutsu-family activation or cast a player can make now, with cost and candidates.

    Exit 0 when there is at least one, 1 when there is none, 2 on bad input, 3 when there is none
    but some way cannot be told (a requirement is not modelled).

    \b
    Examples:
      mtgkb options --situation combat.yaml
      mtgkb options --situation combat.yaml --player me --json
    """
    from mtgkb.app import open_kb
    from mtgkb.reasoning.actions.questions import options as run

    kb = open_kb(progress_reporter())
    game = _situation(kb, None, situation)
    from mtgkb.cli.render.verdict_reports import render_options

    text = functools.partial(render_options, all_cites=all_cites)
    with _in_options_terms(_origins(game)):
        verdict = run(kb, game, player)
    _emit(kb, verdict, text, game, as_json, output_format)


@cli.command()
@click.argument("card", shell_complete=completion.CARDS)
@json_option
def timing(card: str, as_json: bool) -> None:
    """The steps in which CARD's ninjutsu-family abilities, and casting it, can be used.

    Derived by walking the turn graph with each mechanic's requirements, never from a list of steps.

    \b
    Examples:
      mtgkb timing "Ninja of the Deep Hours"
      mtgkb timing "Lightning Bolt" --json
    """
    from mtgkb.app import open_kb
    from mtgkb.cli.render.verdict_reports import render_timing
    from mtgkb.reasoning.actions.timing import timing_report

    emit(timing_report(open_kb(progress_reporter()), card), as_json, render_timing)
