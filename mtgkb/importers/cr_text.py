"""Parse the Comprehensive Rules text file that Wizards of the Coast publishes.

Pure functions, nothing is written: bytes or text in, a :class:`RulesDocument` out. The file holds an
introduction, a table of contents that repeats every section and chapter heading, the numbered rules,
the glossary and the credits; only the numbered rules and the glossary become records.

Numbers come in four kinds: sections ("7. Additional Rules"), chapters ("702. Keyword Abilities"), rules
("702.49. Ninjutsu", "100.1. These Magic rules …") and subrules ("702.49d Commander ninjutsu …").
Headings carry a title; a rule's text runs, examples and all, until the next numbered line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from mtgkb.core.bounded import read_file_bounded
from mtgkb.core.errors import ImportFileError
from mtgkb.importers.cr_decode import HINT, decode_edition, normalise_newlines, not_rules_error

#: Subrule letters in order: the CR skips "l" and "o", which read like "1" and "0".
SUBRULE_LETTERS = "abcdefghijkmnpqrstuvwxyz"

_MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_MONTHS = {name: number for number, name in enumerate(_MONTH_NAMES, 1)}
# "effective as of" since 2009, "current as of" before.
_EFFECTIVE = re.compile(r"These rules are (?:effective|current) as of\s+([A-Z][a-z]+)\s+(\d{1,2}),\s+(\d{4})")

# Matched against whole lines with trailing spaces removed. Rules tolerate the stray forms the file
# really has: "606.5 If …" (no dot after a rule number) and "119.1d. In …" (a dot after a subrule).
_NUMBERED = re.compile(r"(\d{3}\.\d+[a-z]?)\.?(?:\s+(\S.*))?")
_CHAPTER = re.compile(r"(\d{3})\.\s+(\S.*)")
_SECTION = re.compile(r"(\d)\.\s+(\S.*)")

_DASHES = "\\-\u2010\u2011\u2012\u2013"
# A rule number, optionally a range: "601.2f–h", "119.7–8", "903.6–903.11", "103.2a-c".
_REFERENCE = re.compile(
    r"(?<![\w.,$])(?P<start>\d{3}(?:\.\d+[a-z]?)?)"
    rf"(?:\s?[{_DASHES}]\s?(?P<end>\d{{3}}\.\d+[a-z]?|\d+[a-z]?|[a-z])(?![a-z]))?"
    r"(?!\w)"
)
_SECTION_REFERENCE = re.compile(r"\b[Ss]ections?\s+(\d)(?!\d)")
# A bare chapter number ("903") is only a reference after words that say so ("see rule 903") or as the
# next item of a list of references ("rules 614 and 615"); "a deck of exactly 100 cards" is not one.
_BARE_CONTEXT = re.compile(r"\b(?:[Rr]ules?|[Ss]ubrules?|[Ss]ee(?: also)?)\s+$")
_LIST_GAP = re.compile(r"\s*(?:,\s*“[^”]{0,80}”)?\s*,?\s*(?:(?:and/or|and|or)\s+)?")
_MAX_RANGE = 60


@dataclass
class RuleRecord:
    """One numbered section, chapter, rule or subrule. ``text`` is exact (examples included, one
    line per paragraph); for headings it is the heading, which is also the ``title``."""

    number: str
    kind: str  # "section", "chapter", "rule" or "subrule"
    text: str
    title: str | None = None
    parent: str | None = None
    references: list[str] = field(default_factory=list)


@dataclass
class GlossaryRecord:
    term: str
    text: str
    rules: list[str] = field(default_factory=list)


@dataclass
class RulesDocument:
    effective_date: str  # ISO date, "2026-04-17"
    rules: list[RuleRecord]
    glossary: list[GlossaryRecord]
    source: str = field(default="", compare=False)
    #: Numbers an edition gives twice (the 2005-2009 files have a few typos); the first one is kept.
    duplicates: list[str] = field(default_factory=list, compare=False)
    warnings: list[str] = field(default_factory=list, compare=False)
    encoding: str = field(default="", compare=False)
    line_endings: str = field(default="", compare=False)

    def rule(self, number: str) -> RuleRecord | None:
        return next((r for r in self.rules if r.number == number), None)

    @property
    def numbered(self) -> list[RuleRecord]:
        """Rules and subrules: the records with a dotted number."""
        return [r for r in self.rules if r.kind in ("rule", "subrule")]

    @property
    def reference_count(self) -> int:
        return sum(len(r.references) for r in self.rules)


def decode_rules_bytes(data: bytes, source: str) -> str:
    """The text of an edition's bytes in whichever encoding it has, line endings made ``\\n``."""
    return decode_edition(data, source).text


def load_rules_file(path: Path) -> RulesDocument:
    """Read and parse a Comprehensive Rules file; :class:`ImportFileError` names what is wrong."""
    try:
        data = read_file_bounded(path, "import")
    except OSError as error:
        raise ImportFileError(f"cannot read {path}: {error.strerror or error}", HINT) from error
    decoded = decode_edition(data, str(path))
    document = parse_comprehensive_rules(decoded.text, str(path))
    document.encoding, document.line_endings = decoded.encoding, decoded.line_endings
    return document


def parse_comprehensive_rules(text: str, source: str) -> RulesDocument:
    """The rules and glossary of a Comprehensive Rules text; ``source`` names it in error messages.

    References keep only numbers the document has, so a stray number ("exactly 100 cards") or a
    rule an older edition dropped never becomes an edge.
    """
    text = normalise_newlines(text)
    if text.lstrip()[:1] in ("{", "["):
        raise not_rules_error(source, "it looks like JSON")
    lines = [line.rstrip() for line in text.split("\n")]
    effective_date = _effective_date(text, source)
    start = _rules_start(lines, source)
    glossary_at = _line_index(lines, "Glossary", start)
    if glossary_at is None:
        raise not_rules_error(source, "it has no Glossary after the rules (is the file truncated?)")
    warnings: list[str] = []
    credits_at = _line_index(lines, "Credits", glossary_at + 1)
    if credits_at is None:
        # The contents list the Credits, so a file that lists them and ends without them is cut short.
        # The contents list the Credits, so a file that lists them and ends without them is cut short
        # in its glossary (the archived 2013-02-01 edition is): its rules are whole, so it is read,
        # with a warning; a file cut in its rules has no Glossary and is refused above.
        if _line_index(lines[:start], "Credits", 0) is not None:
            warnings.append("the file ends in its glossary, before the Credits: the glossary is incomplete")
        credits_at = len(lines)

    rules, duplicates = _read_rules(lines[start:glossary_at])
    known = {record.number for record in rules}
    for record in rules:
        record.parent = _parent(record, known)
        record.references = [
            number for number in rule_references(record.text) if number in known and number != record.number
        ]
    glossary = _read_glossary(lines[glossary_at + 1 : credits_at])
    for entry in glossary:
        entry.rules = [number for number in rule_references(entry.text) if number in known]
    if duplicates:
        warnings.append(f"numbers given twice, the first kept: {', '.join(duplicates[:5])}")
    return RulesDocument(effective_date, rules, glossary, source, duplicates, warnings)


def _effective_date(text: str, source: str) -> str:
    match = _EFFECTIVE.search(text)
    if match is None or match.group(1) not in _MONTHS:
        raise not_rules_error(
            source, "it has no line 'These rules are effective as of <Month> <day>, <year>.'"
        )
    month, day, year = _MONTHS[match.group(1)], int(match.group(2)), int(match.group(3))
    return f"{year:04d}-{month:02d}-{day:02d}"


def _rules_start(lines: list[str], source: str) -> int:
    """Index of the first heading of the rules proper. The contents list the same headings, so the
    rules start at the run of headings just above the first dotted rule number."""
    first_rule = next((i for i, line in enumerate(lines) if _NUMBERED.fullmatch(line)), None)
    if first_rule is None:
        raise not_rules_error(source, "it has no numbered rules such as '100.1. …'")
    start = first_rule
    for i in range(first_rule - 1, -1, -1):
        line = lines[i]
        if not line.strip():
            continue
        if not (_CHAPTER.fullmatch(line) or _SECTION.fullmatch(line)):
            break
        start = i
    return start


def _line_index(lines: list[str], wanted: str, start: int) -> int | None:
    return next((i for i in range(start, len(lines)) if lines[i].strip() == wanted), None)


def _read_rules(lines: list[str]) -> tuple[list[RuleRecord], list[str]]:
    records: list[RuleRecord] = []
    paragraphs: list[list[str]] = []
    for line in lines:
        heading = _classify(line)
        if heading is not None:
            records.append(heading)
            paragraphs.append([heading.text] if heading.text else [])
        elif line.strip() and paragraphs:
            paragraphs[-1].append(line.strip())
    kept: dict[str, RuleRecord] = {}
    duplicates = []
    for record, body in zip(records, paragraphs, strict=True):
        record.text = "\n".join(body)
        if record.kind == "rule" and len(body) == 1 and not body[0].endswith(tuple('.:?!”"’)')):
            record.title = body[0]
        if record.number in kept:
            duplicates.append(record.number)
        else:
            kept[record.number] = record
    return list(kept.values()), duplicates


def _classify(line: str) -> RuleRecord | None:
    if match := _NUMBERED.fullmatch(line):
        number, text = match.group(1), match.group(2) or ""
        return RuleRecord(number, "subrule" if number[-1].isalpha() else "rule", text)
    if match := _CHAPTER.fullmatch(line):
        return RuleRecord(match.group(1), "chapter", match.group(2), title=match.group(2))
    if match := _SECTION.fullmatch(line):
        return RuleRecord(match.group(1), "section", match.group(2), title=match.group(2))
    return None


def _parent(record: RuleRecord, known: set[str]) -> str | None:
    if record.kind == "subrule":
        parent = record.number[:-1]
    elif record.kind == "rule":
        parent = record.number.split(".")[0]
    elif record.kind == "chapter":
        parent = record.number[0]
    else:
        return None
    return parent if parent in known else None


def _read_glossary(lines: list[str]) -> list[GlossaryRecord]:
    entries: list[GlossaryRecord] = []
    block: list[str] = []
    for line in [*lines, ""]:
        if line.strip():
            block.append(line.strip())
            continue
        if len(block) > 1:
            entries.append(GlossaryRecord(block[0], "\n".join(block[1:])))
        elif block and entries:
            # A lone paragraph continues the entry above: no term goes without a definition.
            entries[-1].text += "\n" + block[0]
        block = []
    return entries


def rule_references(text: str) -> list[str]:
    """Rule, chapter and section numbers ``text`` points to, ranges expanded, in order, deduplicated.

    Numbers are not checked against a document: a range's letters run through every subrule letter.
    """
    found: list[tuple[int, list[str]]] = []
    if "ection" in text:  # the regex alone scans every position; most rules name no section
        found += [(match.start(), [match.group(1)]) for match in _SECTION_REFERENCE.finditer(text)]
    last_end: int | None = None
    for match in _REFERENCE.finditer(text):
        start, end = match.group("start", "end")
        if "." not in start:
            after_words = _BARE_CONTEXT.search(text, max(0, match.start() - 24), match.start())
            in_list = last_end is not None and _LIST_GAP.fullmatch(text, last_end, match.start())
            if not (after_words or in_list):
                continue
        found.append((match.start(), expand_range(start, end)))
        last_end = match.end()
    numbers: dict[str, None] = {}
    for _, group in sorted(found, key=lambda item: item[0]):
        numbers.update(dict.fromkeys(group))
    return list(numbers)


def expand_range(start: str, end: str | None) -> list[str]:
    """``601.2f`` – ``h`` → 601.2f, 601.2g, 601.2h; ``119.7`` – ``8`` → 119.7, 119.8; an end that is
    not a plain continuation of the start gives just the two ends."""
    if end is None:
        return [start]
    stem, letter = _split_letter(start)
    if end.isalpha() and len(end) == 1:
        return [stem + x for x in _letters_between(letter, end)] if letter else [start]
    if end.isdigit() and "." in start and not letter:
        chapter, rule = start.split(".")
        return [f"{chapter}.{n}" for n in _numbers_between(int(rule), int(end))] or [start]
    end_stem, end_letter = _split_letter(end)
    if letter and end_letter and end_stem == stem:
        return [stem + x for x in _letters_between(letter, end_letter)]
    if "." in start and "." in end and not letter and not end_letter:
        (chapter, rule), (end_chapter, end_rule) = start.split("."), end.split(".")
        if chapter == end_chapter:
            return [f"{chapter}.{n}" for n in _numbers_between(int(rule), int(end_rule))] or [start]
    if "." not in start and len(end) == 3 and end.isdigit():
        return [str(n) for n in _numbers_between(int(start), int(end))] or [start]
    return [start, end] if re.fullmatch(r"\d{3}(\.\d+[a-z]?)?", end) else [start]


def _split_letter(number: str) -> tuple[str, str]:
    return (number[:-1], number[-1]) if number[-1].isalpha() else (number, "")


def _letters_between(first: str, last: str) -> list[str]:
    i, j = SUBRULE_LETTERS.find(first), SUBRULE_LETTERS.find(last)
    if i < 0 or j < i:
        return [first]
    return list(SUBRULE_LETTERS[i : j + 1])


def _numbers_between(first: int, last: int) -> list[int]:
    return list(range(first, last + 1)) if 0 <= last - first < _MAX_RANGE else []
