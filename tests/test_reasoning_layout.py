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


def _modules() -> list[Path]:
    return sorted(REASONING.rglob("*.py"))


def test_no_module_of_the_reasoning_layer_is_over_600_lines() -> None:
    long = {
        str(p.relative_to(REASONING)): n
        for p in _modules()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600
    }
    assert not long, f"split these by topic: {long}"


def test_no_two_public_names_of_the_reasoning_layer_are_the_same() -> None:
    # Two Situation classes or two resolve_card functions doing different things confuse a reader.
    seen: dict[str, list[str]] = {}
    for path in _modules():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef | ast.FunctionDef) and not node.name.startswith("_"):
                seen.setdefault(node.name, []).append(str(path.relative_to(REASONING)))
    assert {name: where for name, where in seen.items() if len(where) > 1} == {}


def test_one_room_per_question_with_the_shared_pieces_beside() -> None:
    rooms = {p.name for p in REASONING.iterdir() if p.is_dir() and (p / "__init__.py").is_file()}
    assert rooms == {"actions", "copy", "commanders", "requirements"}
    for shared in ("contract.py", "situation.py", "mana.py", "game_graph.py", "knowledge.py"):
        assert (REASONING / shared).is_file(), shared


def test_no_layer_below_the_cli_imports_it() -> None:
    package = REASONING.parent
    offenders = []
    for folder in ("core", "kb", "lookups", "reasoning", "serve", "exporters", "importers"):
        for path in sorted((package / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = (
                    [node.module or ""]
                    if isinstance(node, ast.ImportFrom)
                    else [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else []
                )
                if any(n == "mtgkb.cli" or n.startswith("mtgkb.cli.") for n in names):
                    offenders.append(str(path.relative_to(package)))
    assert offenders == []
