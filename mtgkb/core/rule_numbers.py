"""Comprehensive Rules numbers: "702", "702.49", "702.49d", in book order."""

from __future__ import annotations

import re

RULE_NUMBER = re.compile(r"^(\d{1,3})(?:\.(\d+)([a-z]*))?\.?$")


def rule_sort_key(number: str) -> tuple[int, int, str]:
    """Rules in book order: section 7 before 700, 700 before 700.1, 702.9 before 702.49, 702.49
    before 702.49a. Anything that is not a rule number sorts last."""
    match = RULE_NUMBER.match(number)
    if not match:
        return (10**6, 0, number)
    chapter, rule, letters = match.groups()
    if rule is None:
        # A one-digit section heads its chapters: 7 -> just before 700.
        return (int(chapter) * 100, -2, "") if len(chapter) == 1 else (int(chapter), -1, "")
    return (int(chapter), int(rule), letters or "")


def sorted_numbers(numbers: set[str] | list[str]) -> list[str]:
    return sorted(set(numbers), key=rule_sort_key)
