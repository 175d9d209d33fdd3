"""Fuzzing the readers of published files: the Comprehensive Rules text (lines mutated, reordered,
truncated, odd line endings, control characters; in every encoding and line ending the archived
editions have, damaged or cut short) and the MTGJSON and Scryfall card importers (a card
record with fields missing, of the wrong type, huge, or with Oracle text that almost matches a
keyword). A rules file is read or refused with a message; a card the parser cannot read is left out
and reported while the other cards are imported, and what is written is valid N-Quads."""

from __future__ import annotations

import functools
import gzip
import io
import json
from pathlib import Path

import pyoxigraph as ox
import pytest
from fuzzing import mutate, odd_text, time_limit
from hypothesis import given
from hypothesis import strategies as st

from mtgkb.core.errors import ImportFileError, MtgkbError
from mtgkb.core.nquads import QuadWriter
from mtgkb.importers.card_iris import assign_card_iris
from mtgkb.importers.card_quads import write_cards, write_rulings
from mtgkb.importers.cr_decode import decode_edition
from mtgkb.importers.cr_text import decode_rules_bytes, parse_comprehensive_rules
from mtgkb.importers.mtgjson import read_atomic_cards
from mtgkb.importers.scryfall import read_cards

RULES = "rules/MagicCompRules-20260417.txt"
ATOMIC = "cards/mtgjson-atomic-merged-20260103.json.gz"
COMMANDERS = "cards/scryfall-commanders-20260429.json"
SAMPLE = [
    "Yuriko, the Tiger's Shadow",
    "Satoru Umezawa",
    "Thrasios, Triton Hero",
    "Pir, Imaginative Rascal",
    "Clone",
    "Ninja of the Deep Hours",
]

# Oracle text that almost says a keyword: costs missing or cut short, names missing, reminder text
# nested or left open.
NEAR_KEYWORDS = [
    "Ninjutsu",
    "Ninjutsu {",
    "Ninjutsu {U}{B",
    "Ninjutsu—",
    "Commander ninjutsu",
    "Commander ninjutsu {2}{U}{B} (",
    "Partner",
    "Partner with",
    "Partner with ",
    "Partner with \n",
    "Partner—",
    "Partner—Friends forever",
    "Partner with Toothy (When this creature enters (nested (reminder)) text",
    "Friends forever",
    "Choose a Background",
    "Doctor's companion",
    "Sneak {",
    "Web-slinging",
    "You may have CARDNAME enter as a copy of",
    "(",
    ")",
    "—",
    "\n",
]
oracle_text = st.lists(st.one_of(st.sampled_from(NEAR_KEYWORDS), odd_text), max_size=6).map("".join)


@functools.cache
def _rules_lines(shared: str) -> tuple[str, ...]:
    return tuple((Path(shared) / RULES).read_text(encoding="utf-8-sig").splitlines())


@functools.cache
def _atomic(shared: str) -> dict:
    with gzip.open(Path(shared) / ATOMIC, "rt", encoding="utf-8") as stream:
        document = json.load(stream)
    return {"meta": document["meta"], "data": {name: document["data"][name] for name in SAMPLE}}


@functools.cache
def _commanders(shared: str) -> list:
    cards = json.loads((Path(shared) / COMMANDERS).read_text(encoding="utf-8"))
    return cards[:6]


@st.composite
def mutated_rules(draw: st.DrawFn, lines: tuple[str, ...]) -> str:
    lines = list(lines)
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["delete", "swap", "repeat", "insert", "control", "truncate", "cut"]))
        at = draw(st.integers(0, len(lines) - 1)) if lines else 0
        if not lines:
            break
        if kind == "delete":
            del lines[at : at + draw(st.integers(1, 50))]
        elif kind == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif kind == "repeat":
            lines.insert(at, lines[draw(st.integers(0, len(lines) - 1))])
        elif kind == "insert":
            lines.insert(at, draw(odd_text))
        elif kind == "control":
            line = lines[at]
            cut = draw(st.integers(0, len(line)))
            lines[at] = (
                line[:cut]
                + draw(st.sampled_from(["\x00", "\x0b", "\x0c", "\x1b", "\r", "\u2028"]))
                + line[cut:]
            )
        elif kind == "truncate":
            lines = lines[:at]
        else:
            lines[at] = lines[at][: draw(st.integers(0, len(lines[at])))]
    ending = draw(st.sampled_from(["\n", "\r\n", "\r", "\n\r", "\u2028"]))
    return ending.join(lines)


@given(data=st.data())
def test_a_mutated_rules_file_is_read_or_refused_with_a_message(shared_data: Path, data) -> None:
    text = data.draw(mutated_rules(_rules_lines(str(shared_data))))
    raw = text.encode("utf-8", "surrogatepass")
    with time_limit():
        try:
            document = parse_comprehensive_rules(decode_rules_bytes(raw, "fuzzed.txt"), "fuzzed.txt")
        except ImportFileError as error:
            assert "fuzzed.txt" in error.message
            return
    assert document.effective_date and document.numbered
    assert len({record.number for record in document.rules}) == len(document.rules)


ENCODINGS = ["utf-8", "utf-8-sig", "cp1252", "latin-1", "utf-16-le", "utf-16-be", "utf-16"]
ENDINGS = ["\n", "\r\n", "\r", "\r\r\n"]
# An archived edition of 2005 (Latin-1/ASCII, CRLF) and today's (UTF-8), as their text.
EDITIONS = ["rules/history/MagicCompRules-20050201.txt", RULES]


@functools.cache
def _edition_text(shared: str, name: str) -> str:
    return decode_edition((Path(shared) / name).read_bytes(), name).text


@functools.cache
def _parsed(text: str) -> list[tuple[str, str]]:
    return [(r.number, r.text) for r in parse_comprehensive_rules(text, "clean.txt").rules]


def _encoded(text: str, encoding: str, bom: bool) -> tuple[bytes, str]:
    """``text`` in ``encoding`` (what it cannot hold made "?"), and the text those bytes hold."""
    raw = text.encode(encoding, "replace")
    held = raw.decode(encoding)
    if encoding == "utf-16":  # Python's own byte order, with its mark
        return raw, held
    if bom and encoding.startswith("utf-16"):
        raw = ("\ufeff").encode(encoding) + raw
    return raw, held


@given(data=st.data())
def test_an_edition_reads_alike_in_any_encoding_and_line_endings(shared_data: Path, data) -> None:
    text = _edition_text(str(shared_data), data.draw(st.sampled_from(EDITIONS)))
    encoding, bom = data.draw(st.sampled_from(ENCODINGS)), data.draw(st.booleans())
    lines = text.split("\n")
    if data.draw(st.booleans()):  # one ending throughout
        joined = data.draw(st.sampled_from(ENDINGS)).join(lines)
    else:  # mixed, line by line, as some archived files are
        endings = data.draw(st.lists(st.sampled_from(ENDINGS), min_size=1, max_size=8))
        joined = "".join(line + endings[i % len(endings)] for i, line in enumerate(lines))
    raw, held = _encoded(joined, encoding, bom)
    with time_limit():
        decoded = decode_edition(raw, "fuzzed.txt")
        document = parse_comprehensive_rules(decoded.text, "fuzzed.txt")
    assert [(r.number, r.text) for r in document.rules] == _parsed(
        held.replace("\r\r\n", "\n").replace("\r\n", "\n").replace("\r", "\n")
    )


@given(data=st.data())
def test_a_damaged_or_cut_edition_in_any_encoding_is_refused_or_read_whole(shared_data: Path, data) -> None:
    """Cut short, a byte changed or dropped: refused with a message naming the file, or read with all
    of its rules (a cut in the glossary leaves the rules whole, the archived 2013-02-01 file is so)."""
    text = _edition_text(str(shared_data), data.draw(st.sampled_from(EDITIONS)))
    raw, _ = _encoded(
        text.replace("\n", data.draw(st.sampled_from(ENDINGS))), data.draw(st.sampled_from(ENCODINGS)), True
    )
    damage = data.draw(st.sampled_from(["cut", "byte", "drop", "odd"]))
    at = data.draw(st.integers(0, len(raw) - 1))
    if damage == "cut":
        raw = raw[:at]
    elif damage == "byte":
        raw = raw[:at] + bytes([data.draw(st.integers(0, 255))]) + raw[at + 1 :]
    elif damage == "drop":
        raw = raw[:at] + raw[at + 1 :]
    else:
        raw = raw + b"\x00"
    with time_limit():
        try:
            document = parse_comprehensive_rules(decode_rules_bytes(raw, "fuzzed.txt"), "fuzzed.txt")
        except ImportFileError as error:
            assert "fuzzed.txt" in error.message and error.hint
            return
    assert document.effective_date and document.numbered
    assert len({record.number for record in document.rules}) == len(document.rules)


def _written(cards, rulings) -> str:
    nodes = assign_card_iris(cards)
    stream = io.StringIO()
    writer = QuadWriter(stream, "https://w3id.org/mtgkb/graph/fuzz")
    write_cards(nodes.kept, nodes, writer)
    write_rulings(rulings, nodes.iris, writer)
    text = stream.getvalue()
    # The store bulk-loads imports leniently, so the importer must never write what a strict parser refuses.
    list(ox.parse(text.encode("utf-8", "replace"), format=ox.RdfFormat.N_QUADS))  # as the file is written
    return text


def _check_cards(cards, unreadable, names: set[str], damaged: str) -> None:
    read = {card.name for card in cards}
    assert names - {damaged} <= read, "a damaged record took other cards with it"
    assert damaged in read or damaged in unreadable


@given(data=st.data(), damaged=st.sampled_from(SAMPLE))
def test_an_mtgjson_file_with_a_damaged_card_imports_the_others(shared_data: Path, data, damaged) -> None:
    document = json.loads(json.dumps(_atomic(str(shared_data))))
    document["data"][damaged] = mutate(data, document["data"][damaged])
    with time_limit():
        cards, rulings, unreadable = read_atomic_cards(document, Path("fuzzed.json"))
        _check_cards(cards, unreadable, set(SAMPLE), damaged)
        _written(cards, rulings)


@given(damaged=st.sampled_from(SAMPLE), text=oracle_text, face=st.integers(0, 1))
def test_mtgjson_oracle_text_that_almost_says_a_keyword(shared_data: Path, damaged, text, face) -> None:
    document = json.loads(json.dumps(_atomic(str(shared_data))))
    faces = document["data"][damaged]
    faces[min(face, len(faces) - 1)]["text"] = text
    with time_limit():
        cards, rulings, unreadable = read_atomic_cards(document, Path("fuzzed.json"))
        _check_cards(cards, unreadable, set(SAMPLE), damaged)
        _written(cards, rulings)


@given(data=st.data(), index=st.integers(0, 5))
def test_a_scryfall_file_with_a_damaged_card_imports_the_others(shared_data: Path, data, index) -> None:
    objects = json.loads(json.dumps(_commanders(str(shared_data))))
    names = {obj["name"] for obj in objects}
    damaged = objects[index]["name"]
    objects[index] = mutate(data, objects[index])
    with time_limit():
        try:
            cards, _skipped, _unreadable = read_cards(objects, Path("fuzzed.json"))
        except MtgkbError as error:
            pytest.fail(f"one damaged card refused the whole file: {error.message}")
        read = {card.name for card in cards}
        assert names - {damaged} - read <= set(), "a damaged record took other cards with it"
        _written(cards, [])


@given(index=st.integers(0, 5), text=oracle_text)
def test_scryfall_oracle_text_that_almost_says_a_keyword(shared_data: Path, index, text) -> None:
    objects = json.loads(json.dumps(_commanders(str(shared_data))))
    objects[index]["oracle_text"] = text
    with time_limit():
        cards, _skipped, _unreadable = read_cards(objects, Path("fuzzed.json"))
        assert len(cards) == len(objects)
        _written(cards, [])
