"""Comprehensive Rules editions side by side: which are loaded, and what changed between two.

Every imported edition is its own named graph (``graph/cr/<date>``); the newest is the default.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mtgkb.core.errors import MtgkbError, NotFoundError, shown
from mtgkb.core.rule_numbers import rule_sort_key
from mtgkb.kb.iris import mint
from mtgkb.kb.query_files import library_query

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

_NO_EDITION_HINT = "import one with 'mtgkb import rules FILE' or 'mtgkb fetch rules'"


@dataclass
class Edition:
    date: str
    source_file: str | None
    rules: int | None


@dataclass
class EditionList:
    editions: list[Edition]  # newest first
    default: str | None  # the edition lookups use when none is named


@dataclass
class RuleText:
    number: str
    text: str


@dataclass
class RuleChange:
    number: str
    old_text: str
    new_text: str


@dataclass
class RulesDiff:
    old: str
    new: str
    added: list[RuleText] = field(default_factory=list)
    removed: list[RuleText] = field(default_factory=list)
    changed: list[RuleChange] = field(default_factory=list)
    unchanged: int = 0


def list_editions(kb: KnowledgeBase) -> EditionList:
    by_date = {
        row["date"]: Edition(row["date"], row["source"], row["rules"])
        for row in kb.select(library_query("editions"))
    }
    editions = [by_date[date] for date in sorted(by_date, reverse=True)]
    return EditionList(editions, editions[0].date if editions else None)


def resolve_edition(kb: KnowledgeBase, date: str | None = None) -> str:
    """The effective date of an imported edition: ``date`` itself (``2026-04-17`` or ``20260417``) or,
    when ``date`` is None, the newest one."""
    loaded = [edition.date for edition in list_editions(kb).editions]
    if not loaded:
        raise MtgkbError("no Comprehensive Rules edition has been imported", _NO_EDITION_HINT)
    if date is None:
        return loaded[0]
    wanted = normalise_date(date)
    if wanted not in loaded:
        nearest = sorted(loaded, key=lambda loaded_date: _days_apart(loaded_date, wanted))
        raise NotFoundError("Comprehensive Rules edition", date, nearest[:3])
    return wanted


def edition_texts(kb: KnowledgeBase, date: str) -> dict[str, str]:
    """Rule number → official text in the edition effective on ``date``."""
    rows = kb.select(library_query("edition-rule-texts"), graph=mint("graph", "cr", date))
    if rows:
        return {row["number"]: row["text"] for row in rows}
    # An edition imported with others is kept only as rule versions: rebuild it from them.
    from mtgkb.kb.cr_history import read_history
    from mtgkb.kb.cr_lineage import edition_entries

    history = read_history()
    if history is None or date not in history.dates:
        return {}
    entries = edition_entries(history.versions, history.dates.index(date))
    return {number: entry.text for number, entry in entries.items()}


def diff_editions(kb: KnowledgeBase, old_date: str, new_date: str) -> RulesDiff:
    """Rules added, removed and changed (by text, headings included) from one edition to another."""
    old, new = resolve_edition(kb, old_date), resolve_edition(kb, new_date)
    before, after = edition_texts(kb, old), edition_texts(kb, new)
    diff = RulesDiff(old, new)
    for number in sorted(before.keys() | after.keys(), key=rule_sort_key):
        if number not in before:
            diff.added.append(RuleText(number, after[number]))
        elif number not in after:
            diff.removed.append(RuleText(number, before[number]))
        elif before[number] != after[number]:
            diff.changed.append(RuleChange(number, before[number], after[number]))
        else:
            diff.unchanged += 1
    return diff


def _days_apart(first: str, second: str) -> int:
    try:
        return abs((datetime.date.fromisoformat(first) - datetime.date.fromisoformat(second)).days)
    except ValueError:
        return 0


def normalise_date(date: str) -> str:
    """An edition's effective date as YYYY-MM-DD, from "2026-04-17" or "20260417"."""
    text = date.strip()
    if match := re.fullmatch(r"(\d{4})-?(\d{2})-?(\d{2})", text):
        return "-".join(match.groups())
    raise MtgkbError(
        f"'{shown(date)}' is not an edition date",
        "name an edition by its effective date, e.g. 2026-04-17 (see 'mtgkb rules editions')",
    )
