"""Which of a check's rules its line prints: the few that decide it, the specific rule first.

A check keeps every rule it rests on in ``cites`` (the JSON and the details view show them all); its
line shows at most :data:`SHOWN` of them. Which ones is data: the evaluated node's
``mtgkb:decidingRule`` first (the specific rule), then the rules the node cites itself (a
requirement's own rules before those of the timing and step it draws in), then the rest, each group
in book order. No number is shown twice.
"""

from __future__ import annotations

from collections.abc import Iterable

from mtgkb.core.rule_numbers import rule_sort_key
from mtgkb.kb.vocab import V
from mtgkb.lookups.common import rule_number

#: The most rule numbers a check's line prints.
SHOWN = 4


def deciding_rules(node) -> list[str]:
    """The rules a node says decide a check on it (``mtgkb:decidingRule``), in book order."""
    return sorted({rule_number(iri) for iri in node.all(V.decidingRule)}, key=rule_sort_key)


def _in_book_order(numbers: Iterable[str]) -> list[str]:
    return sorted(set(numbers), key=rule_sort_key)


def key_cites(
    cites: Iterable[str], own: Iterable[str] = (), deciding: Iterable[str] = (), limit: int = SHOWN
) -> list[str]:
    """At most ``limit`` of ``cites``: ``deciding`` first, then ``own``, then the others (each group
    in book order); each once. A deciding or own rule not in ``cites`` is not added."""
    everything = list(dict.fromkeys(cites))
    present = set(everything)
    ordered: list[str] = []
    for group in (
        [n for n in deciding if n in present],
        _in_book_order(n for n in own if n in present),
        _in_book_order(everything),
    ):
        ordered += [n for n in group if n not in ordered]
    return ordered[:limit]


def shown_cites(check) -> tuple[list[str], int]:
    """The rules a check's line prints, and how many more it rests on (see ``--all-cites``)."""
    everything = list(dict.fromkeys(check.cites))
    shown = [n for n in (getattr(check, "key_cites", None) or []) if n in everything][:SHOWN]
    if not shown:
        shown = key_cites(everything)
    return shown, len(everything) - len(shown)


def rank_checks(checks, rules) -> None:
    """Fill each check's ``key_cites`` from the node it evaluates (see the module docstring)."""
    for check in checks:
        node = rules.node(check.evaluates) if check.evaluates else None
        own = node.cites if node is not None else []
        deciding = deciding_rules(node) if node is not None else []
        check.key_cites = key_cites(check.cites, own, deciding)
