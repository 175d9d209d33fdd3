"""The Comprehensive Rules parser, on a small text of our own and on the real published file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mtgkb.core.errors import ImportFileError
from mtgkb.importers.cr_text import (
    RulesDocument,
    decode_rules_bytes,
    load_rules_file,
    parse_comprehensive_rules,
    rule_references,
)

# A made-up document with the layout of the real file: intro, contents, rules, glossary, credits.
MINI_CR = """\ufeffMagic: The Gathering Comprehensive Rules

These rules are effective as of February 3, 2031.

Contents

1. Game Concepts
100. General
101. Odds and Ends

Glossary

Credits

1. Game Concepts

100. General

100.1. A first rule with two subrules.

100.1a A subrule that points back (see rule 100.1).

100.1b A subrule that names a range, rules 100.1a-c, and a missing rule 999.9.
Example: An example line belongs to the subrule above it.

101. Odds and Ends

101.1. Widgets

101.1a “Widget” starts with a quotation mark. See section 1 and rules 100 and 101.
     An indented continuation line.

101.1b A deck of exactly 100 cards is not a reference.

Glossary

Widget
A made-up term. See rule 101.1.

Gadget
1. First sense.
2. Second sense, see rules 100.1a–b.

Credits

Nobody in particular.
"""


@pytest.fixture(scope="module")
def mini() -> RulesDocument:
    return parse_comprehensive_rules(MINI_CR, "mini.txt")


def test_mini_document_records(mini: RulesDocument) -> None:
    assert mini.effective_date == "2031-02-03"
    assert [(r.number, r.kind) for r in mini.rules] == [
        ("1", "section"),
        ("100", "chapter"),
        ("100.1", "rule"),
        ("100.1a", "subrule"),
        ("100.1b", "subrule"),
        ("101", "chapter"),
        ("101.1", "rule"),
        ("101.1a", "subrule"),
        ("101.1b", "subrule"),
    ]
    widgets = mini.rule("101.1")
    assert widgets is not None and widgets.title == "Widgets" and widgets.text == "Widgets"
    assert mini.rule("100.1").title is None
    assert mini.rule("100").title == "General"
    assert [r.parent for r in mini.rules] == [
        None,
        "1",
        "100",
        "100.1",
        "100.1",
        "1",
        "101",
        "101.1",
        "101.1",
    ]


def test_mini_document_texts_keep_examples_and_continuations(mini: RulesDocument) -> None:
    assert mini.rule("100.1b").text.endswith("\nExample: An example line belongs to the subrule above it.")
    assert mini.rule("101.1a").text == (
        "“Widget” starts with a quotation mark. See section 1 and rules 100 and 101.\n"
        "An indented continuation line."
    )


def test_mini_document_references_only_existing_numbers(mini: RulesDocument) -> None:
    assert mini.rule("100.1a").references == ["100.1"]
    # 100.1c and 999.9 do not exist in the document; a rule does not refer to itself.
    assert mini.rule("100.1b").references == ["100.1a"]
    assert mini.rule("101.1a").references == ["1", "100", "101"]
    assert mini.rule("101.1b").references == []


def test_mini_glossary(mini: RulesDocument) -> None:
    assert [(g.term, g.rules) for g in mini.glossary] == [
        ("Widget", ["101.1"]),
        ("Gadget", ["100.1a", "100.1b"]),
    ]
    assert mini.glossary[1].text == "1. First sense.\n2. Second sense, see rules 100.1a–b."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see rules 601.2b and 601.2f-h", ["601.2b", "601.2f", "601.2g", "601.2h"]),
        ("rules 103.2a–c", ["103.2a", "103.2b", "103.2c"]),
        ("702.124h–n", ["702.124h", "702.124i", "702.124j", "702.124k", "702.124m", "702.124n"]),
        ("see rule 509.1h.", ["509.1h"]),
        ("See rule 702.49, “Ninjutsu.”", ["702.49"]),
        ("rules 119.7–8", ["119.7", "119.8"]),
        ("See rules 903.6–903.11.", [f"903.{n}" for n in range(6, 12)]),
        ("rules 614 and 615.", ["614", "615"]),
        ("See rule 701.42, “Meld,” and 712, “Double-Faced Cards.”", ["701.42", "712"]),
        ("See section 5, “Turn Structure.”", ["5"]),
        ("the maximum deck size are both 100.", []),
        ("repeating that sequence 999,999 more times", []),
    ],
)
def test_rule_references(text: str, expected: list[str]) -> None:
    assert rule_references(text) == expected


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "image"),
        (json.dumps({"EffectiveDate": "2026-01-16", "Rules": []}).encode(), "JSON"),
        (b"Just some notes.\nNothing to see here.\n", "effective"),
        (b"\xff\xfe\xfd not utf-8", "UTF-8"),
    ],
)
def test_wrong_files_are_refused(tmp_path: Path, content: bytes, reason: str) -> None:
    path = tmp_path / "input.txt"
    path.write_bytes(content)
    with pytest.raises(ImportFileError) as caught:
        load_rules_file(path)
    assert str(path) in caught.value.message
    assert reason in caught.value.message
    assert "Comprehensive Rules .txt" in caught.value.hint


def test_a_truncated_file_is_refused() -> None:
    with pytest.raises(ImportFileError, match="Glossary"):
        parse_comprehensive_rules(MINI_CR.split("\nGlossary\n\nWidget")[0], "cut.txt")


# ---------------------------------------------------------------- the published file


@pytest.fixture(scope="module")
def cr_path(shared_data: Path) -> Path:
    return shared_data / "rules" / "MagicCompRules-20260417.txt"


@pytest.fixture(scope="module")
def cr(cr_path: Path) -> RulesDocument:
    return load_rules_file(cr_path)


def _rule_number_lines(path: Path) -> list[str]:
    """Rule numbers at the start of lines between the contents and the glossary, found without the
    parser: the contents end with a "Glossary" line, and the second "Glossary" line starts the glossary."""
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    glossary_lines = [i for i, line in enumerate(lines) if line.strip() == "Glossary"]
    assert len(glossary_lines) == 2
    body = lines[glossary_lines[0] + 1 : glossary_lines[1]]
    numbers = [re.match(r"(\d+\.\d+[a-z]?)[.\s]", line) for line in body]
    return [match.group(1) for match in numbers if match]


def test_every_numbered_rule_line_is_parsed(cr: RulesDocument, cr_path: Path) -> None:
    independent = _rule_number_lines(cr_path)
    assert len(independent) > 3000
    assert len(cr.numbered) == len(independent)
    assert [r.number for r in cr.numbered] == independent


def test_effective_date(cr: RulesDocument) -> None:
    assert cr.effective_date == "2026-04-17"


def test_rules_starting_with_a_quotation_mark(cr: RulesDocument) -> None:
    # 702.124h-m each define one partner ability and open with its quoted name; n follows them.
    for letter in "hijkm":
        rule = cr.rule(f"702.124{letter}")
        assert rule is not None, f"702.124{letter} missing"
        assert rule.text.startswith("“") and rule.parent == "702.124"
    numbers = [r.number for r in cr.rules]
    assert numbers[numbers.index("702.124g") : numbers.index("702.124n") + 1] == [
        f"702.124{x}" for x in "ghijkmn"
    ]


def test_subrule_letters_skip_l_and_o(cr: RulesDocument) -> None:
    numbers = [r.number for r in cr.rules]
    assert numbers[numbers.index("704.5k") + 1] == "704.5m"
    assert not any(re.fullmatch(r"\d+\.\d+[lo]", n) for n in numbers)


def test_headings_have_titles_and_subrules_have_text(cr: RulesDocument) -> None:
    ninjutsu = cr.rule("702.49")
    assert ninjutsu.title == "Ninjutsu" and ninjutsu.parent == "702"
    assert cr.rule("702").title == "Keyword Abilities"
    commander_ninjutsu = cr.rule("702.49d")
    assert commander_ninjutsu.title is None and commander_ninjutsu.text.startswith("Commander ninjutsu")


def test_examples_stay_with_their_rule(cr: RulesDocument, cr_path: Path) -> None:
    examples = sum(
        1 for line in cr_path.read_text(encoding="utf-8").splitlines() if line.startswith("Example:")
    )
    assert sum(r.text.count("\nExample:") for r in cr.rules) == examples


def test_range_references_expand(cr: RulesDocument) -> None:
    assert cr.rule("601.2i").references == [f"601.2{x}" for x in "abcdefgh"]
    assert cr.rule("608.2p").references == [f"608.2{x}" for x in "cdefghijkmn"]


def test_all_references_point_into_the_document(cr: RulesDocument) -> None:
    known = {r.number for r in cr.rules}
    assert cr.reference_count > 1000
    assert all(n in known for r in cr.rules for n in r.references)


def test_glossary(cr: RulesDocument) -> None:
    terms = {g.term: g for g in cr.glossary}
    assert len(cr.glossary) > 700
    assert terms["Ninjutsu"].rules == ["702.49"]
    assert terms["Commander Ninjutsu"].rules == ["702.49"]
    assert "Credits" not in terms and "Glossary" not in terms
    assert cr.glossary[-1].term == "Zone-Change Triggers"


@pytest.mark.parametrize(
    ("name", "bom", "newline"),
    [
        ("crlf", b"", b"\r\n"),
        ("cr", b"", b"\r"),
        ("bom", b"\xef\xbb\xbf", b"\n"),
        ("wizards", b"\xef\xbb\xbf", b"\r\r\n"),
    ],
)
def test_encoding_variants_parse_identically(
    cr: RulesDocument, cr_path: Path, tmp_path: Path, name: str, bom: bytes, newline: bytes
) -> None:
    variant = tmp_path / f"{name}.txt"
    variant.write_bytes(bom + cr_path.read_bytes().replace(b"\n", newline))
    assert load_rules_file(variant) == cr


def test_decoding_normalises_line_endings() -> None:
    assert decode_rules_bytes(b"\xef\xbb\xbfa\r\r\nb\r\nc\rd\n", "x") == "a\nb\nc\nd\n"
