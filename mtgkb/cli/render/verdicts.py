"""The part of every verdict's text that is the same across commands: the answer, then each check
with a mark, its reason and its rules, then every rule the verdict rests on."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from mtgkb.reasoning.contract import answer_word

if TYPE_CHECKING:
    from mtgkb.reasoning.contract import Verdict

WIDTH = 100


def verdict_lines(verdict: Verdict, question: str) -> list[str]:
    """``question`` ("Can Ninja of the Deep Hours be activated now?") answered, with its checks."""
    lines = [f"{question} {answer_word(verdict.answer)}", ""]
    for check in verdict.checks:
        mark = {True: "ok ", False: "NO ", None: "?? "}[check.holds]
        cites = f"  [CR {', '.join(check.cites)}]" if check.cites else ""
        lines.append(f"  {mark} {check.check}{cites}")
        lines += textwrap.wrap(check.because, WIDTH, initial_indent=" " * 7, subsequent_indent=" " * 7)
    return lines


def cites_line(verdict: Verdict) -> str:
    return "Cites CR " + ", ".join(verdict.cites) if verdict.cites else "Cites no rule"
