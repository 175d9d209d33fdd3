"""Output shared by the verdict commands: the result on stdout, and the exit status the contract
fixes (0 yes, 1 no, 3 cannot tell; input errors exit 2 through MtgkbError)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

from mtgkb.cli.output import emit
from mtgkb.reasoning.contract import EXIT_STATUS, Verdict

V = TypeVar("V", bound=Verdict)


def emit_verdict(verdict: V, as_json: bool, text: Callable[[V], str]) -> None:
    emit(verdict, as_json, text)
    exit_for(verdict)


def exit_for(verdict: Verdict) -> None:
    """Exit with the status of the verdict's answer: 0 yes, 1 no, 3 cannot tell."""
    status = EXIT_STATUS[verdict.answer]
    if status:
        raise click.exceptions.Exit(status)
