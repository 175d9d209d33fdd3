"""Which rule of one edition each rule of the next comes from, and the versions that makes.

Pure functions over rule texts, nothing is read or written. Rules are renumbered, split and retitled
between editions (ninjutsu is 502.43 in 2005, 702.46 in 2009, 702.49 today), so a rule's predecessor
is found in steps, surest first, each only among the rules no earlier step has matched:

1. the same number and the same text;
2. the same text (for headings: the same title) under another number, when only one rule has it;
3. the same number and similar text (a rule reworded in place);
4. for a subrule, the most similar subrule of the rule its parent came from (subrules move with
   their rule, and keyword subrules share so much wording that matching them anywhere else would
   mix keywords up);
5. the most similar unmatched rule of the same kind anywhere (a rule moved and reworded);
6. a rule still unmatched whose words are those an already matched rule lost was split from it.

A *version* is one text of one rule number over the run of editions it holds in: a text that stays
the same is stored once, so the history grows with the changes, not with editions x rules.
"""

from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from dataclasses import dataclass

#: The kinds of change a version records against the version before it.
CHANGES = ("added", "changed", "renumbered", "renumbered-changed", "split")

_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
_SAME_NUMBER = 0.5  # Jaccard of word sets: reworded in place
_PARENT_GUIDED = 0.45
_ANYWHERE = 0.6
_SPLIT_COVERAGE = 0.85
_MIN_WORDS = 8  # shorter texts ("Reserved.") match too much to be moved or split on words alone
_COMMON = 150  # a word in more rules than this says nothing about which rule a text came from


@dataclass(frozen=True)
class Entry:
    """One numbered line of one edition."""

    kind: str  # "section", "chapter", "rule" or "subrule"
    title: str | None
    text: str


Edition = dict[str, Entry]  # rule number -> entry


@dataclass
class Version:
    number: str
    kind: str
    title: str | None
    text: str
    first: int  # index of the first edition holding it
    last: int  # and of the last
    previous: int | None  # the version it came from (an index into the version list)
    change: str  # one of CHANGES


@functools.lru_cache(maxsize=1 << 16)
def words(text: str) -> frozenset[str]:
    # Cached: most texts come back edition after edition, and a pair of editions reads each twice.
    return frozenset(_WORD.findall(text.lower()))


def similarity(first: frozenset[str], second: frozenset[str]) -> float:
    if not first or not second:
        return 0.0
    return len(first & second) / len(first | second)


def parent_number(number: str) -> str | None:
    if number[-1].isalpha():
        return number[:-1]
    if "." in number:
        return number.split(".")[0]
    return number[0] if len(number) == 3 else None


def match_editions(old: Edition, new: Edition) -> dict[str, tuple[str, str]]:
    """New rule number -> (old rule number, change) for every new rule with a predecessor."""
    matched: dict[str, tuple[str, str]] = {}
    taken: set[str] = set()
    bags = {("old", n): words(e.text) for n, e in old.items()}
    bags.update({("new", n): words(e.text) for n, e in new.items()})

    def take(number: str, previous: str) -> None:
        same_text = old[previous].text == new[number].text
        if previous == number:
            change = "unchanged" if same_text else "changed"
        else:
            change = "renumbered" if same_text else "renumbered-changed"
        matched[number] = (previous, change)
        taken.add(previous)

    for subrules in (False, True):
        group = [n for n, e in new.items() if (e.kind == "subrule") == subrules]
        for number in group:  # 1
            if number in old and old[number].text == new[number].text:
                take(number, number)
        by_text: dict[tuple[str, str], list[str]] = defaultdict(list)
        for number, entry in old.items():
            if number not in taken and (entry.kind == "subrule") == subrules:
                by_text[(entry.kind, entry.title or entry.text)].append(number)
        for number in group:  # 2
            if number in matched:
                continue
            entry = new[number]
            candidates = [
                n for n in by_text.get((entry.kind, entry.title or entry.text), ()) if n not in taken
            ]
            if len(candidates) == 1:
                take(number, candidates[0])
        for number in group:  # 3
            if number in matched or number not in old or number in taken:
                continue
            if old[number].kind != new[number].kind:
                continue
            if subrules and not _same_family(number, number, matched):
                continue
            if similarity(bags[("old", number)], bags[("new", number)]) >= _SAME_NUMBER:
                take(number, number)
        if subrules:
            _match_by_parent(old, new, group, matched, taken, bags, take)
        _match_anywhere(old, new, group, matched, taken, bags, take, subrules)
    _find_splits(old, new, matched, bags)
    return matched


def _same_family(new_number: str, old_number: str, matched: dict[str, tuple[str, str]]) -> bool:
    """A subrule may keep its number only if its rule came from the rule the old subrule is under."""
    parent = parent_number(new_number)
    return parent is not None and matched.get(parent, ("",))[0] == parent_number(old_number)


def _match_by_parent(old, new, group, matched, taken, bags, take) -> None:
    children: dict[str, list[str]] = defaultdict(list)
    for number, entry in old.items():
        if entry.kind == "subrule":
            children[number[:-1]].append(number)
    for number in group:
        if number in matched:
            continue
        parent = matched.get(number[:-1])
        if parent is None:
            continue
        mine = bags[("new", number)]
        best, score = None, 0.0
        for candidate in children.get(parent[0], ()):
            if candidate in taken:
                continue
            value = similarity(bags[("old", candidate)], mine)
            if candidate[-1] == number[-1]:
                value += 0.05  # the same letter breaks near ties
            if value > score:
                best, score = candidate, value
        if best is not None and score >= _PARENT_GUIDED:
            take(number, best)


def _match_anywhere(old, new, group, matched, taken, bags, take, subrules: bool) -> None:
    pending = [n for n in group if n not in matched and len(bags[("new", n)]) >= _MIN_WORDS]
    if not pending:
        return
    pool = [
        n
        for n, e in old.items()
        if n not in taken and (e.kind == "subrule") == subrules and len(bags[("old", n)]) >= _MIN_WORDS
    ]
    index = _index(pool, lambda n: bags[("old", n)])
    for number in pending:
        mine = bags[("new", number)]
        best, score = None, 0.0
        for candidate in _candidates(index, mine):
            if candidate in taken or old[candidate].kind != new[number].kind:
                continue
            value = similarity(bags[("old", candidate)], mine)
            if value > score:
                best, score = candidate, value
        if best is not None and score >= _ANYWHERE:
            take(number, best)


def _find_splits(old: Edition, new: Edition, matched, bags) -> None:
    """A new rule still unmatched whose words come from the words an old rule lost (the old rule has
    a successor that no longer says them) was split off it: a long rule cut in two. A new rule that
    only copies an old one's template (battles' rules written like planeswalkers') is no split:
    the old rule lost nothing."""
    pending = [n for n in new if n not in matched and len(bags[("new", n)]) >= _MIN_WORDS]
    if not pending:
        return
    successor = {
        previous: number for number, (previous, change) in matched.items() if change.endswith("changed")
    }
    lost = {n: bags[("old", n)] - bags[("new", s)] for n, s in successor.items()}
    lost = {n: bag for n, bag in lost.items() if len(bag) >= _MIN_WORDS // 2}
    index = _index(sorted(lost), lambda n: lost[n])
    for number in pending:
        mine = bags[("new", number)]
        best, score = None, 0.0
        for candidate in _candidates(index, mine):
            theirs = bags[("old", candidate)]
            distinctive = mine - bags[("new", successor[candidate])]
            if len(distinctive) < _MIN_WORDS // 2:
                continue
            value = min(len(distinctive & theirs) / len(distinctive), len(mine & theirs) / len(mine))
            if value > score:
                best, score = candidate, value
        if best is not None and score >= _SPLIT_COVERAGE:
            matched[number] = (best, "split")


def _index(numbers, bag_of) -> dict[str, list[str]]:
    index: dict[str, list[str]] = defaultdict(list)
    for number in numbers:
        for word in bag_of(number):
            index[word].append(number)
    return {word: found for word, found in index.items() if len(found) <= _COMMON}


def _candidates(index: dict[str, list[str]], bag: frozenset[str], keep: int = 12) -> list[str]:
    counts: Counter[str] = Counter()
    for word in bag:
        counts.update(index.get(word, ()))
    return [number for number, _ in counts.most_common(keep)]


def build_versions(editions: list[Edition]) -> list[Version]:
    """The versions of every rule across ``editions`` (oldest first), each linked to the one before."""
    versions: list[Version] = []
    current: dict[str, int] = {}  # rule number -> its version in the edition before
    for index, edition in enumerate(editions):
        matched = match_editions(editions[index - 1], edition) if index else {}
        now: dict[str, int] = {}
        for number, entry in edition.items():
            previous, change = matched.get(number, (None, "added"))
            before = current.get(previous) if previous is not None else None
            if change == "unchanged" and before is not None:
                versions[before].last = index
                now[number] = before
                continue
            versions.append(
                Version(number, entry.kind, entry.title, entry.text, index, index, before, change)
            )
            now[number] = len(versions) - 1
        current = now
    return versions


def edition_entries(versions: list[Version], index: int) -> Edition:
    """The rules of edition ``index`` rebuilt from the versions."""
    return {v.number: Entry(v.kind, v.title, v.text) for v in versions if v.first <= index <= v.last}
