"""The contract every verdict shares: an answer, one check per requirement evaluated, and the rules
the answer rests on. Commands add their own fields (cost, candidates, outcome, ...) by subclassing
:class:`Verdict`; the JSON shape of these three fields and the exit status never vary: 0 yes, 1 no,
3 cannot tell (``answer`` None: some check names what the knowledge base does not model)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from mtgkb.core.rule_numbers import rule_sort_key as rule_order


@dataclass
class Check:
    """One requirement evaluated against the situation."""

    check: str  # what was checked, in a few words
    holds: bool | None  # None: cannot tell, the requirement is not modelled (``because`` says what)
    because: str  # why it holds or fails, in terms of the situation
    cites: list[str] = field(default_factory=list)  # rule numbers, "702.49a"
    evaluates: str | None = None  # IRI of the requirement, mechanic or concept checked, when there is one
    # The rules the check's line prints (at most four, the deciding rule first; see
    # mtgkb.reasoning.citations); ``cites`` keeps them all. Empty: the line picks from ``cites``.
    key_cites: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.cites = list(dict.fromkeys(self.cites))  # no rule twice


@dataclass
class Verdict:
    answer: bool | None  # None: cannot tell
    checks: list[Check]
    cites: list[str]


def all_cites(checks: Iterable[Check], *more: Iterable[str]) -> list[str]:
    """Every rule number the checks and ``more`` cite, once each, in book order."""
    numbers = {n for c in checks for n in c.cites}
    for extra in more:
        numbers.update(extra)
    return sorted(numbers, key=rule_order)


def decide(checks: list[Check]) -> bool | None:
    """Yes only when there is something to check and every check holds; no when one fails; else
    (nothing fails, something cannot be told) None: an unknown is never a yes."""
    if not checks or any(c.holds is False for c in checks):
        return False
    if any(c.holds is None for c in checks):
        return None
    return True


#: The exit status of each answer, the same for every verdict command.
EXIT_STATUS = {True: 0, False: 1, None: 3}


def answer_word(answer: bool | None) -> str:
    return {True: "YES", False: "NO", None: "CANNOT TELL"}[answer]


def possessive(name: str) -> str:
    """ "Alice's", "Ninja of the Deep Hours'", and "my" for the player a situation calls "me"."""
    if name == "me":
        return "my"
    return f"{name}'" if name.endswith("s") else f"{name}'s"
