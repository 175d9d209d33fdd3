"""Comprehensive Rules numbers: "702", "702.49", "702.49d", in book order."""

from __future__ import annotations

import re

RULE_NUMBER = re.compile(r"^(\d{1,3})(?:\.(\d+)([a-z]*))?\.?$")


def rule_sort_key(number: str) -> tuple[int, int, str]:
    """Rules in book order: 702.9 before 702.49, 702.49 before 702.49a."""
    match = RULE_NUMBER.match(number)
    if not match:
        return (10**6, 0, number)
    section, rule, letters = match.groups()
    return (int(section), int(rule) if rule is not None else -1, letters or "")


def sorted_numbers(numbers: set[str] | list[str]) -> list[str]:
    return sorted(set(numbers), key=rule_sort_key)
