"""The judge scenarios of tests/scenarios/: reading them against a closed schema, and checking an
answer of the command line against what a case expects. The schema is described in
tests/scenarios/README.md; tests/test_scenarios.py runs every case, and the situation fuzzer
(tests/test_fuzz_situation.py) mutates their game states.

Nothing here raises an assertion: a malformed file is a :class:`ScenarioError` naming the file, and
an answer that differs from the expected one is a list of sentences, one per difference, that
:func:`failure_message` turns into "file: case: what differs"."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import Result

SCENARIOS = Path(__file__).parent / "scenarios"
REPO_ROOT = Path(__file__).resolve().parents[1]

#: Keys of one case; a file that is one case holds exactly these.
CASE_KEYS = frozenset(
    {"scenario", "source", "situation", "exit_code", "error_includes", "expect", "cites", "why", "xfail"}
)
#: Keys of a file holding several cases, which share its ``source`` and ``situation``.
GROUP_KEYS = frozenset({"source", "situation", "cases"})
SITUATION_KEYS = frozenset({"command", "game", "knowledge_base"})
#: The knowledge bases a case can run on: the bundled files, or the whole imported card pool.
KNOWLEDGE_BASES = ("starter", "pool")
COMPARISONS = ("equals", "set", "includes", "excludes", "includes_rows", "excludes_rows")
EXPECTATION_KEYS = frozenset({"path", *COMPARISONS})
RULE_NUMBER = re.compile(r"\d{3}(\.\d+[a-z]?)?")


class ScenarioError(Exception):
    """A scenario file that does not follow the schema; the message names the file."""


@dataclass(frozen=True)
class Case:
    """One question put to the command line and what its answer must say."""

    file: Path
    index: int | None  # the position in a file of several cases (from 1); None for a one-case file
    name: str
    source: str
    command: tuple[str, ...]
    game: dict[str, Any] | None
    knowledge_base: str
    exit_code: int
    error_includes: tuple[str, ...]
    expect: tuple[dict[str, Any], ...]
    cites: tuple[str, ...]
    why: str | None
    xfail: str | None

    @property
    def id(self) -> str:
        """The pytest id: the file's name, and the case's number in a file of several."""
        return self.file.stem if self.index is None else f"{self.file.stem}/{self.index}"

    @property
    def label(self) -> str:
        """ "file: case", how a failure names the case."""
        number = "" if self.index is None else f"case {self.index}, "
        return f"{_shown(self.file)}: {number}{self.name}"

    @property
    def arguments(self) -> list[str]:
        """The command line: the case's command, --json, and the game state on standard input."""
        return [*self.command, "--json", *(["--situation", "-"] if self.game is not None else [])]

    @property
    def stdin(self) -> str | None:
        return None if self.game is None else json.dumps(self.game)


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


# --- reading -------------------------------------------------------------------------------------


def scenario_files(folder: Path = SCENARIOS) -> list[Path]:
    return sorted(folder.glob("*.json"))


def load(path: Path) -> list[Case]:
    """The cases of one scenario file; a :class:`ScenarioError` naming the file if it breaks the schema."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ScenarioError(f"{_shown(path)}: not a JSON file: {error}") from None
    try:
        return list(_cases(document, path))
    except _Invalid as error:
        raise ScenarioError(f"{_shown(path)}: {error}") from None


def load_all(folder: Path = SCENARIOS) -> list[Case]:
    """Every case of every file; the first malformed file raises."""
    return [case for path in scenario_files(folder) for case in load(path)]


class _Invalid(Exception):
    pass


def _cases(document: Any, path: Path) -> Iterator[Case]:
    if not isinstance(document, dict):
        raise _Invalid("a scenario file holds one JSON object")
    if "cases" in document:
        _closed(document, GROUP_KEYS, "a file of several cases")
        cases = document["cases"]
        if not isinstance(cases, list) or not cases:
            raise _Invalid("'cases' must be a non-empty list of cases")
        shared_situation = document.get("situation", {})
        if not isinstance(shared_situation, dict):
            raise _Invalid("'situation' must be an object")
        _closed(shared_situation, SITUATION_KEYS, "situation")
        for index, case in enumerate(cases, start=1):
            if not isinstance(case, dict):
                raise _Invalid(f"case {index}: a case is a JSON object")
            try:
                yield _case(case, path, index, document.get("source"), shared_situation)
            except _Invalid as error:
                raise _Invalid(f"case {index}: {error}") from None
    else:
        yield _case(document, path, None, None, {})


def _closed(document: dict[str, Any], allowed: frozenset[str], what: str) -> None:
    unknown = sorted(set(document) - allowed)
    if unknown:
        raise _Invalid(
            f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} in {what} "
            f"(allowed: {', '.join(sorted(allowed))})"
        )


def _case(
    document: dict[str, Any], path: Path, index: int | None, source: Any, shared: dict[str, Any]
) -> Case:
    _closed(document, CASE_KEYS, "a case")
    situation = document.get("situation", {})
    if not isinstance(situation, dict):
        raise _Invalid("'situation' must be an object")
    _closed(situation, SITUATION_KEYS, "situation")
    situation = {**shared, **situation}
    name = _text(document, "scenario")
    source = document.get("source", source)
    if not isinstance(source, str) or not source.strip():
        raise _Invalid("'source' is required: where the expected answer comes from")
    command = situation.get("command")
    if not (isinstance(command, list) and command and all(isinstance(a, str) for a in command)):
        raise _Invalid("'situation.command' must be a non-empty list of strings (the mtgkb arguments)")
    game = situation.get("game")
    if game is not None and not isinstance(game, dict):
        raise _Invalid("'situation.game' must be an object (the game state)")
    knowledge_base = situation.get("knowledge_base", "starter")
    if knowledge_base not in KNOWLEDGE_BASES:
        raise _Invalid(f"'situation.knowledge_base' must be one of {', '.join(KNOWLEDGE_BASES)}")
    exit_code = document.get("exit_code", 0)
    if exit_code not in (0, 1, 2, 3) or isinstance(exit_code, bool):
        raise _Invalid("'exit_code' must be 0, 1, 2 or 3")
    error_includes = _strings(document, "error_includes")
    expect = document.get("expect", [])
    if not isinstance(expect, list):
        raise _Invalid("'expect' must be a list of checks")
    for number, expectation in enumerate(expect, start=1):
        _check_expectation(expectation, number)
    if not expect and not error_includes:
        raise _Invalid("a case must check its answer: give 'expect' or 'error_includes'")
    if "cites" not in document:
        raise _Invalid("'cites' is required: the rules the answer must cite (or [] with a 'why')")
    cites = _strings(document, "cites")
    for number in cites:
        if not RULE_NUMBER.fullmatch(number):
            raise _Invalid(f"'cites' holds {number!r}, which is not a rule number such as '702.49a'")
    why = document.get("why")
    if cites and why is not None:
        raise _Invalid("'why' explains an empty 'cites' list; this case cites rules")
    if not cites and (not isinstance(why, str) or not why.strip()):
        raise _Invalid("'cites' is empty: say in 'why' why the answer cites no rule")
    xfail = document.get("xfail")
    if xfail is not None and (not isinstance(xfail, str) or not xfail.strip()):
        raise _Invalid("'xfail' must be the reason the case is known to fail")
    return Case(
        file=path,
        index=index,
        name=name,
        source=source,
        command=tuple(command),
        game=game,
        knowledge_base=knowledge_base,
        exit_code=exit_code,
        error_includes=tuple(error_includes),
        expect=tuple(expect),
        cites=tuple(cites),
        why=why,
        xfail=xfail,
    )


def _text(document: dict[str, Any], key: str) -> str:
    value = document.get(key)
    if not isinstance(value, str) or not value.strip():
        raise _Invalid(f"'{key}' is required: a sentence saying what the case checks")
    return value


def _strings(document: dict[str, Any], key: str) -> list[str]:
    value = document.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise _Invalid(f"'{key}' must be a list of strings")
    return value


def _check_expectation(expectation: Any, number: int) -> None:
    where = f"expect[{number}]"
    if not isinstance(expectation, dict):
        raise _Invalid(f"{where} must be an object with a 'path' and a comparison")
    _closed(expectation, EXPECTATION_KEYS, where)
    if not isinstance(expectation.get("path"), str):
        raise _Invalid(f"{where} needs a 'path' (dot-separated, '*' for every item of a list)")
    if not any(key in expectation for key in COMPARISONS):
        raise _Invalid(f"{where} compares nothing: give one of {', '.join(COMPARISONS)}")
    for key in ("set", "includes", "excludes", "includes_rows", "excludes_rows"):
        if key in expectation and not isinstance(expectation[key], list):
            raise _Invalid(f"{where}: '{key}' must be a list")
    for key in ("includes_rows", "excludes_rows"):
        if not all(isinstance(row, dict) and row for row in expectation.get(key, [])):
            raise _Invalid(f"{where}: each of '{key}' maps sub-paths to values")


# --- checking ------------------------------------------------------------------------------------


def values_at(document: Any, path: str) -> list[Any]:
    """The values at a dot-separated path; ``*`` walks every item of a list, a number picks one."""
    found = [document]
    for part in path.split(".") if path else []:
        step: list[Any] = []
        for value in found:
            if part == "*" and isinstance(value, list):
                step.extend(value)
            elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
                step.append(value[int(part)])
            elif isinstance(value, dict) and part in value:
                step.append(value[part])
        found = step
    return found


def matches(item: Any, row: dict[str, Any]) -> bool:
    """``row`` maps sub-paths of ``item`` to the value each must hold."""
    return all(value in values_at(item, path) for path, value in row.items())


def _short(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def expectation_differences(document: Any, expectation: dict[str, Any]) -> list[str]:
    """What the answer says otherwise than ``expectation``: one sentence per difference."""
    path = expectation["path"]
    found = values_at(document, path)
    if not found:
        return [f"nothing at {path}"]
    differences = []
    if "equals" in expectation:
        wrong = [v for v in found if v != expectation["equals"]]
        if wrong:
            differences.append(
                f"{path} is {_short(wrong[0] if len(found) == 1 else found)}, "
                f"expected {_short(expectation['equals'])}"
            )
    if "set" in expectation:
        got, wanted = _as_set(found), _as_set(expectation["set"])
        if got != wanted:
            missing, extra = sorted(wanted - got, key=str), sorted(got - wanted, key=str)
            differences.append(
                f"{path} holds {_short(sorted(got, key=str))}, expected {_short(sorted(wanted, key=str))}"
                f" (missing {_short(missing)}, extra {_short(extra)})"
            )
    if "includes" in expectation:
        missing = [v for v in expectation["includes"] if v not in found]
        if missing:
            differences.append(f"{path} lacks {_short(missing)}; found {_short(found)}")
    if "excludes" in expectation:
        present = [v for v in expectation["excludes"] if v in found]
        if present:
            differences.append(f"{path} should not hold {_short(present)}")
    for row in expectation.get("includes_rows", []):
        if not any(matches(item, row) for item in found):
            differences.append(f"no item at {path} matches {_short(row)}; found {_short(found, 600)}")
    for row in expectation.get("excludes_rows", []):
        if any(matches(item, row) for item in found):
            differences.append(f"an item at {path} matches {_short(row)}, which it should not")
    return differences


def _as_set(values: list[Any]) -> set[Any]:
    """Values compared as a set; lists and objects by their JSON text, which is hashable."""
    return {
        v if isinstance(v, str | int | float | bool | None) else json.dumps(v, sort_keys=True) for v in values
    }


def strings_in(document: Any) -> set[str]:
    if isinstance(document, dict):
        return set().union(*(strings_in(v) for v in document.values())) if document else set()
    if isinstance(document, list):
        return set().union(*(strings_in(v) for v in document)) if document else set()
    return {document} if isinstance(document, str) else set()


_CR_IN_TEXT = re.compile(r"\bCR (\d{3}(?:\.\d+[a-z]?)?(?:, \d{3}(?:\.\d+[a-z]?)?)*)")


def cited_rules(answer: Any) -> set[str]:
    """The rule numbers an answer cites: a rule number as a value (``"cites": ["702.49a"]``), a rule's
    IRI (``…/cr/702.49a``), or "CR 702.49a" (or "CR 702.49a, 702.49b") in a text such as an error
    message."""
    cited = set()
    for text in strings_in(answer):
        if RULE_NUMBER.fullmatch(text):
            cited.add(text)
        elif "/cr/" in text:
            cited.add(text.rsplit("/cr/", 1)[1])
        for numbers in _CR_IN_TEXT.findall(text):
            cited.update(numbers.split(", "))
    return cited


def answer_differences(case: Case, result: Result) -> list[str]:
    """Everything in the command's answer that differs from what ``case`` expects."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        error = result.exception
        frame = error.__traceback__
        while frame is not None and frame.tb_next is not None:
            frame = frame.tb_next
        where = f" at {frame.tb_frame.f_code.co_filename}:{frame.tb_lineno}" if frame else ""
        return [f"the command raised {type(error).__name__}: {error}{where}"]
    differences = []
    if "Traceback" in result.stderr:
        differences.append(f"a traceback on stderr: {result.stderr[-500:]}")
    try:
        answer = json.loads(result.stdout)
    except json.JSONDecodeError:
        answer = None
        differences.append(f"the answer is not JSON: {result.stdout[:300]!r}")
    if result.exit_code != case.exit_code:
        differences.append(f"exit code {result.exit_code}, expected {case.exit_code}{_why(answer, result)}")
    message = result.stderr + result.stdout  # with --json an error is a JSON object on stdout
    for text in case.error_includes:
        if text not in message:
            differences.append(f"the message does not say {text!r}: {message.strip()[:400]}")
    if answer is None:
        return differences
    for expectation in case.expect:
        differences += expectation_differences(answer, expectation)
    cited = cited_rules(answer)
    uncited = [number for number in case.cites if number not in cited]
    if uncited:
        differences.append(f"the answer does not cite CR {', '.join(uncited)}")
    return differences


def _why(answer: Any, result: Result) -> str:
    """What the answer says about itself, to show beside a wrong exit code."""
    if isinstance(answer, dict) and answer.get("error"):
        return f" ({answer['error']})"
    if isinstance(answer, dict) and isinstance(answer.get("checks"), list):
        failing = [c.get("check") for c in answer["checks"] if isinstance(c, dict) and not c.get("holds")]
        return f" (failing checks: {_short(failing)})" if failing else " (every check holds)"
    return f" ({result.stderr.strip()[:300]})" if result.stderr.strip() else ""


def failure_message(case: Case, differences: list[str]) -> str:
    """ "file: case: what differs", one difference per line after the first."""
    return f"{case.label}: " + "\n    ".join(differences)


def run(case: Case, invoke: Callable[..., Result]) -> list[str]:
    """Run ``case`` through ``invoke(arguments, stdin)`` and return what differs (empty: all is well)."""
    return answer_differences(case, invoke(case.arguments, case.stdin))
