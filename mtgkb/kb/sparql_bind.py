"""Binding parameters into a SPARQL query: where each variable is used, and as what.

A value is bound by ``VALUES ?var { term … }``, placed so that the parameter acts as if its value
were written wherever the variable is: at the head of the innermost group around each use (the WHERE
clause, a UNION branch, an OPTIONAL, MINUS or GRAPH group, a subquery's pattern). The store then
plans each branch from the bound value: a VALUES block only outside a UNION made it evaluate the
branches unbound and join afterwards (seconds instead of milliseconds at full card-pool scale), and
a BIND or FILTER inside a branch does not see a value bound outside it. A use inside a FILTER [NOT]
EXISTS pattern is bound where the filter is. A variable the query returns (in its SELECT, GROUP BY
or ORDER BY clause, or a CONSTRUCT template) is bound at the head of that query's WHERE clause too,
so that every answer carries it; a variable the query does not use at all is bound there as well.

Stdlib only: the query is scanned, not parsed, skipping strings, IRIs and comments.
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
# Keywords are whole words that are not part of a prefixed name (mtgkb:values) or a variable.
_KEYWORDS = ("SELECT", "WHERE", "ASK", "CONSTRUCT", "EXISTS", "VALUES")
_TOKEN = re.compile(
    r"[{}]|(?<![\w:?$])(?:" + "|".join(_KEYWORDS) + r")\b|[?$][A-Za-z_][A-Za-z0-9_]*", re.IGNORECASE
)


@dataclass(eq=False)
class _Group:
    start: int  # just after its "{"
    # "pattern" (a group graph pattern), "where" (the pattern of a WHERE clause or a subquery),
    # "subquery" (the braces around one: "{ SELECT …"), "exists" (a FILTER [NOT] EXISTS pattern),
    # "template" (of a CONSTRUCT) or "data" (of a VALUES block).
    kind: str
    end: int = -1  # at its "}"


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


_KIND_AFTER = {"WHERE": "where", "SELECT": "where", "ASK": "where", "CONSTRUCT": "template"}
_KIND_AFTER |= {"EXISTS": "exists", "VALUES": "data"}


def _scan(query: str) -> tuple[list[_Group], dict[str, list[int]]]:
    """Every closed brace pair of ``query`` in order, and where each variable occurs."""
    groups: list[_Group] = []
    open_groups: list[_Group] = []
    uses: dict[str, list[int]] = {}
    opener = ""  # the keyword whose block the next "{" opens
    previous = ""
    for token, at in _tokens(query):
        word = token.upper()
        if word in _KEYWORDS:
            if word == "SELECT" and previous == "{":
                open_groups[-1].kind = "subquery"  # "{ SELECT …": the braces around a subquery
            opener = word  # "SELECT … WHERE {" and "CONSTRUCT WHERE {" open one pattern each
        elif token == "{":
            group = _Group(at + 1, _KIND_AFTER.get(opener, "pattern"))
            opener = ""
            groups.append(group)
            open_groups.append(group)
        elif token == "}":
            if open_groups:
                open_groups.pop().end = at
        else:
            uses.setdefault(token[1:], []).append(at)
        previous = token
    return [g for g in groups if g.end >= 0], uses


def _place(groups: list[_Group], at: int) -> _Group | None:
    """The group whose head binds a variable used at ``at``."""
    inside = [g for g in groups if g.start <= at <= g.end]  # outermost first
    innermost = inside[-1] if inside else None
    if innermost is None or innermost.kind == "template":
        return next((g for g in groups if g.kind == "where"), None)
    if innermost.kind == "subquery":
        return next(
            (g for g in groups if g.kind == "where" and innermost.start < g.start < innermost.end), None
        )
    return next((g for g in reversed(inside) if g.kind in ("pattern", "where")), None)


def bind(query: str, terms: dict[str, list[str]]) -> str:
    """``query`` with ``VALUES ?name { term … }`` (each term already written as SPARQL) where the
    module docstring says."""
    groups, uses = _scan(query)
    inserts: dict[int, list[str]] = {}
    for name, written in terms.items():
        block = f"VALUES ?{name} {{ {' '.join(written)} }}"
        places = {_place(groups, at) for at in uses.get(name, [-1])} - {None}
        for place in places:
            inserts.setdefault(place.start, []).append(block)  # type: ignore[union-attr]
    if terms and not inserts:
        raise MtgkbError("cannot bind parameters: the query has no pattern in braces")
    for place in sorted(inserts, reverse=True):
        query = f"{query[:place]} {' '.join(inserts[place])} {query[place:]}"
    return query
