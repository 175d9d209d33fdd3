"""Binding ``--param VAR=VALUE`` into a SPARQL query: where the variable is used, and as what.

A value is bound by ``VALUES ?var { term }`` at the head of every group graph pattern that uses the
variable: the WHERE clause, and each subquery whose own pattern uses it (a VALUES block at the head
of the outer WHERE does not reach a variable that a subquery does not project). Stdlib only: the
query is scanned, not parsed, skipping strings, IRIs and comments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mtgkb.core.errors import MtgkbError

# Strings (long ones first), IRIs (no spaces inside, so "?x < 3" is not one), comments.
_SKIP = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n]|\\.)*"'
    r"|'(?:[^'\\\n]|\\.)*'"
    r"|<[^<>\"{}|^`\\\s]*>"
    r"|#[^\n]*"
)
_TOKEN = re.compile(r"[{}]|\b(?:SELECT|WHERE|ASK)\b|[?$][A-Za-z_][A-Za-z0-9_]*", re.IGNORECASE)


@dataclass
class _Group:
    start: int  # just after its "{"
    end: int = -1  # at its "}"
    query_level: bool = False  # the pattern of a WHERE clause or of a subquery


def variables(query: str) -> set[str]:
    """The names of the variables ``query`` uses (without ``?``)."""
    return {token[1:] for token, _ in _tokens(query) if token[0] in "?$"}


def _tokens(query: str) -> list[tuple[str, int]]:
    found = []
    at = 0
    for skipped in [*_SKIP.finditer(query), None]:
        stop = skipped.start() if skipped else len(query)
        found += [(m.group(), m.start()) for m in _TOKEN.finditer(query, at, stop)]
        at = skipped.end() if skipped else stop
    return found


def bind(query: str, terms: dict[str, str]) -> str:
    """``query`` with ``VALUES ?name { term }`` (``term`` already written as SPARQL) at the head of
    each query-level group that uses ``?name``; a variable used in no group is bound in the WHERE
    clause."""
    tokens = _tokens(query)
    groups: list[_Group] = []
    open_groups: list[_Group] = []
    uses: dict[str, list[int]] = {}
    wants_pattern = False  # the next "{" opens a WHERE clause or a subquery's pattern
    for token, at in tokens:
        word = token.upper()
        if word in ("WHERE", "SELECT", "ASK"):
            wants_pattern = True
        elif token == "{":
            group = _Group(at + 1, query_level=wants_pattern)
            wants_pattern = False
            groups.append(group)
            open_groups.append(group)
        elif token == "}":
            if open_groups:
                open_groups.pop().end = at
        else:
            uses.setdefault(token[1:], []).append(at)
    patterns = [g for g in groups if g.query_level and g.end >= 0] or [g for g in groups[:1]]
    inserts: dict[int, list[str]] = {}
    for name, term in terms.items():
        block = f"VALUES ?{name} {{ {term} }}"
        places = {_innermost(patterns, at) for at in uses.get(name, [])} - {None}
        if not places and patterns:
            places = {patterns[0].start}
        for place in places:
            inserts.setdefault(place, []).append(block)  # type: ignore[arg-type]
    if not inserts:
        raise MtgkbError("cannot bind parameters: the query has no pattern in braces")
    for place in sorted(inserts, reverse=True):
        query = f"{query[:place]} {' '.join(inserts[place])} {query[place:]}"
    return query


def _innermost(patterns: list[_Group], at: int) -> int | None:
    inside = [g for g in patterns if g.start <= at <= g.end]
    return max(inside, key=lambda g: g.start).start if inside else None
