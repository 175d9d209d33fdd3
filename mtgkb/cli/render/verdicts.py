"""The part of every verdict's text that is the same across commands: the answer, then each check
with a mark, its reason and its rules, then every rule the verdict rests on."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from mtgkb.reasoning.contract import answer_word

if TYPE_CHECKING:
    from mtgkb.reasoning.contract import Verdict

WIDTH = 100


def verdict_lines(verdict: Verdict, question: str, all_cites: bool = False) -> list[str]:
    """``question`` ("Can Ninja of the Deep Hours be activated now?") answered, with its checks. Each
    check's line prints the few rules that decide it (``all_cites``: every rule it rests on)."""
    from mtgkb.reasoning.citations import shown_cites

    lines = [f"{question} {answer_word(verdict.answer)}", ""]
    hidden = 0
    for check in verdict.checks:
        mark = {True: "ok ", False: "NO ", None: "?? "}[check.holds]
        numbers, more = (list(dict.fromkeys(check.cites)), 0) if all_cites else shown_cites(check)
        hidden += more
        extra = f" +{more}" if more else ""
        cites = f"  [CR {', '.join(numbers)}{extra}]" if numbers else ""
        lines.append(f"  {mark} {check.check}{cites}")
        lines += textwrap.wrap(check.because, WIDTH, initial_indent=" " * 7, subsequent_indent=" " * 7)
    if hidden:
        lines += ["", "  (+N: more rules the check rests on; --all-cites lists them, --json has them all)"]
    return lines


def cites_line(verdict: Verdict) -> str:
    return "Cites CR " + ", ".join(verdict.cites) if verdict.cites else "Cites no rule"
