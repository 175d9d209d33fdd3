"""The reasoning layer's layout (issue 19): its rule numbers come from the graph, so that the test that
checks every cited rule against the Comprehensive Rules covers every citation a verdict can print.
No string in the code of mtgkb/reasoning/ (docstrings aside, which explain) is a rule number."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REASONING = Path(__file__).resolve().parents[1] / "mtgkb" / "reasoning"
RULE_NUMBER = re.compile(r"(?<![\d.])\d{3}\.(?:\d+[a-z]?)?(?![\d])")


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def rule_literals(source: str) -> list[tuple[int, str]]:
    """(line, text) of every string constant of ``source`` that holds a rule number."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and RULE_NUMBER.search(node.value)
    ]


def test_no_rule_number_literal_is_left_in_the_reasoning_layer() -> None:
    found = [
        f"{path.relative_to(REASONING.parent.parent)}:{line}: {text!r}"
        for path in sorted(REASONING.rglob("*.py"))
        for line, text in rule_literals(path.read_text(encoding="utf-8"))
    ]
    assert not found, "rule numbers belong to the graph (a concept node's mtgkb:citesRule):\n" + "\n".join(
        found
    )


def test_the_check_finds_a_rule_number_wherever_it_is_written() -> None:
    source = 'CITES = ["702.49a"]\nHINT = f"blocked (CR {x}509.1h)"\nSECTION = "702."\n'
    assert sorted(line for line, _ in rule_literals(source)) == [1, 2, 3]
    assert rule_literals('"""Docstring citing 702.49a."""\nMANA = "{2}{U}"\nX = "1.5"\n') == []
