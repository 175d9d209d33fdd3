"""A rule's history across every imported edition: each text it had, under which number, from when.

Read from the rules history file (mtgkb.kb.cr_history) without opening the store, so that
``mtgkb rule 702.49 --history`` answers in the time it takes to start. A number that no longer
exists (ninjutsu's 502.43 of 2005) is followed forward to the rule it became, and the history shown
is that rule's, back to its first edition.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mtgkb.core.errors import MtgkbError, NotFoundError
from mtgkb.kb.cr_history import History, read_history
from mtgkb.lookups.rule import parse_rule_number
from mtgkb.lookups.word_diff import word_diff

_NO_HISTORY_HINT = (
    "import the editions first: mtgkb import rules ../shared/data/rules/history "
    "../shared/data/rules/MagicCompRules-20260417.txt"
)


@dataclass
class HistoryStep:
    edition: str  # the first edition with this number and text
    until: str  # the last one (inclusive)
    number: str
    change: str  # "added", "changed", "renumbered", "renumbered-changed", "split" or "removed"
    text: str
    title: str | None = None
    previous_number: str | None = None
    diff: str | None = None  # word diff against the text before, when the text changed
    editions: int = 0  # how many editions hold it


@dataclass
class SubruleHistory:
    number: str
    added: str  # the edition its line begins in
    history: list[HistoryStep]


@dataclass
class RuleHistory:
    number: str  # as asked
    current_number: str | None  # what it is now; None when it was removed
    removed_in: str | None  # the first edition without it
    first_edition: str  # the oldest imported edition
    last_edition: str  # and the newest
    history: list[HistoryStep]  # oldest first
    subrules: list[SubruleHistory] = field(default_factory=list)


# The columns of a history row (see mtgkb.kb.cr_history.History.rows).
_NUMBER, _KIND, _TITLE, _TEXT, _FIRST, _LAST, _PREVIOUS, _CHANGE = range(8)


def rule_history(
    number: str, edition: str | None = None, history: History | None = None, subrules: bool = True
) -> RuleHistory:
    """The history of rule ``number`` ("702.49", "502.43"): of the rule that has that number in
    ``edition`` (default: the newest edition that has it); :class:`NotFoundError` when no imported
    edition ever had it."""
    number = parse_rule_number(number)
    history = history or read_history()
    if history is None or not history.editions:
        raise MtgkbError("no Comprehensive Rules history has been imported", _NO_HISTORY_HINT)
    rows, texts = _rows(history)
    mine = [i for i, row in enumerate(rows) if row[_NUMBER] == number]
    if not mine:
        close = sorted({row[_NUMBER] for row in rows if row[_NUMBER].startswith(number[:5])})
        raise NotFoundError("rule", number, close[:4])
    successors: dict[int, list[int]] = {}
    for index, row in enumerate(rows):
        if row[_PREVIOUS] >= 0 and row[_CHANGE] != "split":
            successors.setdefault(row[_PREVIOUS], []).append(index)
    if edition is not None:
        from mtgkb.lookups.rules_diff import normalise_date

        wanted = normalise_date(edition)
        if wanted not in history.dates:
            raise NotFoundError("Comprehensive Rules edition", edition, history.dates[-3:])
        at = history.dates.index(wanted)
        mine = [i for i in mine if rows[i][_FIRST] <= at <= rows[i][_LAST]]
        if not mine:
            raise MtgkbError(f"rule {number} is not in the {wanted} edition", "see 'mtgkb rules editions'")
    latest = max(mine, key=lambda i: (rows[i][_LAST], i))
    end = _follow(latest, successors)
    final = len(history.editions) - 1
    steps = _chain(end, rows, texts, history)
    removed_in = None
    last = rows[end]
    if last[_LAST] < final:
        removed_in = history.editions[last[_LAST] + 1].date
        steps.append(HistoryStep(removed_in, removed_in, last[_NUMBER], "removed", "", last[_TITLE]))
    report = RuleHistory(
        number=number,
        current_number=None if removed_in else last[_NUMBER],
        removed_in=removed_in,
        first_edition=history.editions[0].date,
        last_edition=history.editions[final].date,
        history=steps,
    )
    stem = last[_NUMBER]
    if subrules and "." in stem and not stem[-1].isalpha():
        at = last[_LAST]
        children = [
            i
            for i, row in enumerate(rows)
            if row[_FIRST] <= at <= row[_LAST] and row[_NUMBER][:-1] == stem and row[_NUMBER][-1].isalpha()
        ]
        for child in sorted(children, key=lambda i: rows[i][_NUMBER]):
            chain = _chain(child, rows, texts, history)
            report.subrules.append(SubruleHistory(rows[child][_NUMBER], chain[0].edition, chain))
    return report


def _rows(history: History) -> tuple[list[list[Any]], list[str]]:
    if history.rows is not None and history.texts is not None:
        return history.rows, history.texts
    texts: dict[str, int] = {}
    rows = [
        [
            v.number,
            v.kind,
            v.title,
            texts.setdefault(v.text, len(texts)),
            v.first,
            v.last,
            -1 if v.previous is None else v.previous,
            v.change,
        ]
        for v in history.versions
    ]
    return rows, list(texts)


def _follow(index: int, successors: dict[int, list[int]]) -> int:
    """The newest version ``index`` leads to, through rewordings and renumberings (not splits)."""
    seen = {index}
    while onward := [i for i in successors.get(index, ()) if i not in seen]:
        index = onward[0]
        seen.add(index)
    return index


def _chain(index: int, rows: list[list[Any]], texts: list[str], history: History) -> list[HistoryStep]:
    chain: list[list[Any]] = []
    at = index
    while at >= 0:
        chain.append(rows[at])
        at = rows[at][_PREVIOUS]
    chain.reverse()
    steps = []
    for before, row in zip([None, *chain], chain, strict=False):
        text = texts[row[_TEXT]]
        changed = before is not None and before[_TEXT] != row[_TEXT]
        steps.append(
            HistoryStep(
                edition=history.editions[row[_FIRST]].date,
                until=history.editions[row[_LAST]].date,
                number=row[_NUMBER],
                change=row[_CHANGE],
                text=text,
                title=row[_TITLE],
                previous_number=before[_NUMBER] if before else None,
                diff=word_diff(texts[before[_TEXT]], text) if before is not None and changed else None,
                editions=row[_LAST] - row[_FIRST] + 1,
            )
        )
    return steps
