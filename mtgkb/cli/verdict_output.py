"""Output shared by the verdict commands: the result on stdout, and the exit status the contract
fixes (0 yes, 1 no; input errors exit 2 through MtgkbError)."""

from __future__ import annotations

import click

from mtgkb.output import emit
from mtgkb.reasoning.verdict import Verdict


def emit_verdict(verdict: Verdict, as_json: bool) -> None:
    emit(verdict, as_json)
    if not verdict.answer:
        raise click.exceptions.Exit(1)
