"""Option types the commands share: seconds that are a real number, and the memory bound."""

from __future__ import annotations

import math
from typing import Any

import click


class Seconds(click.ParamType):
    """A number of seconds, at least ``minimum``: ``nan``, ``inf`` and negative numbers are refused
    (click's FloatRange lets ``nan`` through, since ``nan < 0`` is false), as is anything else that is
    not a number."""

    name = "seconds"

    def __init__(self, minimum: float = 0.0) -> None:
        self.minimum = minimum

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, float) and math.isfinite(value) and value >= self.minimum:
            return value
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"{str(value)[:40]!r} is not a number of seconds; give e.g. 30", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{str(value)[:40]!r} is not a number of seconds; give e.g. 30", param, ctx)
        if number < self.minimum:
            self.fail(f"{number:g} is below the smallest value, {self.minimum:g} s", param, ctx)
        return number


def memory_option(help_text: str) -> Any:
    """``--max-memory-mb``: the bound on a query's resident size (default: MTGKB_MAX_MEMORY_MB, else a
    quarter of the machine's RAM); the cgroup's limit and RLIMIT_AS hold as well (see
    :mod:`mtgkb.core.memory`)."""
    from mtgkb.core.memory import ENV, MIN_MB

    return click.option(
        "--max-memory-mb",
        "max_memory_mb",
        type=click.IntRange(min=MIN_MB),
        default=None,
        metavar="MB",
        help=f"{help_text} (resident size; default: ${ENV}, else a quarter of the machine's RAM). "
        "A container's memory limit (cgroup) and the address-space limit ('ulimit -v') always hold "
        "as well, each compared with what it counts and kept a fifth (at least 256 MB) short of.",
    )
