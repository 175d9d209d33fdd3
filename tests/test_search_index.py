"""The full-text index behind ``mtgkb search``: what it finds on the bundled knowledge base (checked
against the KB's own text), query syntax that must never break, and the index file's life: built with
the store, reused, rebuilt when missing or damaged, never left half written."""

from __future__ import annotations

import re
import sqlite3
import threading
import unicodedata
from pathlib import Path

import pytest

from mtgkb.core.errors import MtgkbError
from mtgkb.core.progress import ProgressUpdate
from mtgkb.kb.iris import card_iri, rule_iri
from mtgkb.lookups import search_index
from mtgkb.lookups.search import search
from mtgkb.lookups.search_fts import match_expression

_TOKEN = re.compile(r"[^\W_]+")


@pytest.fixture
def fresh_kb(small_kb_env: dict[str, str], tmp_path: Path):
    """The fixture KB in a cache of its own, for tests that build, damage or remove the index (the
    tests that only search use the session's ``small_kb``)."""
    from mtgkb.app import open_kb

    with pytest.MonkeyPatch.context() as patch:
        for key, value in {**small_kb_env, "MTGKB_CACHE_DIR": str(tmp_path / "cache")}.items():
            patch.setenv(key, value)
        return open_kb()


def _tokens(text: str) -> list[str]:
    """Words as the index's tokenizer (unicode61, remove_diacritics 2) sees them."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return _TOKEN.findall(plain.casefold())


def _holders(kb, sparql: str, word: str) -> set[str]:
    """The ?s of ``sparql`` whose ?text holds a word beginning with ``word``."""
    return {row["s"] for row in kb.select(sparql) if any(t.startswith(word) for t in _tokens(row["text"]))}


def _found(kb, text: str, kind: str) -> tuple[int, set[str]]:
    group = next(g for g in search(kb, text, limit=1000).groups if g.kind == kind)
    return group.total, {hit.iri for hit in group.hits}


_CARD_TEXT = """
SELECT ?s ?text WHERE {
  ?s a mtgkb:Card .
  { ?s mtgkb:name|mtgkb:typeLine|mtgkb:oracleText ?text }
  UNION { ?s mtgkb:hasFace/(mtgkb:name|mtgkb:typeLine|mtgkb:oracleText) ?text }
}"""
_RULE_TEXT = (
    "SELECT ?s ?text WHERE { ?s mtgkb:ruleNumber [] ; mtgkb:ruleNumber|mtgkb:title|mtgkb:summary ?text }"
)
_RULING_TEXT = "SELECT ?s ?text WHERE { ?s a mtgkb:Ruling ; mtgkb:summary|mtgkb:text ?text }"


# ------------------------------------------------------------------- the bundled knowledge base


@pytest.mark.parametrize(
    ("nodes", "text_query", "kind"),
    [
        ("SELECT ?s ?text WHERE { ?s a mtgkb:Card ; mtgkb:name ?text }", _CARD_TEXT, "card"),
        ("SELECT ?s ?text WHERE { ?s mtgkb:ruleNumber [] ; mtgkb:summary ?text }", _RULE_TEXT, "rule"),
    ],
    ids=["every card by the longest word of its name", "every rule by the longest word of its summary"],
)
def test_a_node_is_found_by_the_longest_word_of_its_text(kb, nodes: str, text_query: str, kind: str) -> None:
    rows = kb.select(nodes)
    assert rows
    for row in rows:
        word = max(_tokens(row["text"]), key=len)
        total, found = _found(kb, word, kind)
        expected = _holders(kb, text_query, word)
        assert row["s"] in found, word
        assert (total, found) == (len(expected), expected), word


def test_every_ruling_summary_finds_its_ruling(kb) -> None:
    rulings = kb.select("SELECT ?s ?summary WHERE { ?s a mtgkb:Ruling ; mtgkb:summary ?summary }")
    assert rulings
    for ruling in rulings:
        words = sorted(_tokens(ruling["summary"]), key=len)[-2:]  # two words: both must be there
        expected = _holders(kb, _RULING_TEXT, words[0]) & _holders(kb, _RULING_TEXT, words[1])
        total, found = _found(kb, " ".join(words), "ruling")
        assert ruling["s"] in found, words
        # The card's name and the date are searched too, so a ruling may hold a word outside its text.
        assert expected <= found and total >= len(expected), words


def test_a_rule_is_found_by_its_number_and_the_number_finds_its_subrules(kb) -> None:
    numbers = {row["n"] for row in kb.select("SELECT ?n WHERE { ?s mtgkb:ruleNumber ?n }")}
    parent = "702.49"
    assert parent in numbers
    _, found = _found(kb, parent, "rule")
    assert {rule_iri(n) for n in numbers if n.startswith(parent)} <= found


# --------------------------------------------------------------------------- matching rules


def test_case_and_accents_are_folded(small_kb) -> None:
    lorien = card_iri("Lórien Revealed")
    for text in ("lorien", "LÓRIEN", "Lórien revealed", "LORIEN REVEALED"):
        assert [h.iri for h in search(small_kb, text).groups[0].hits] == [lorien], text


def test_bare_words_match_the_start_of_words_in_any_order(small_kb) -> None:
    rules = search(small_kb, "ninja attack the", limit=10).groups[1]
    assert rule_iri("702.49c") in {h.iri for h in rules.hits}  # "...the ninja attacks..."


def test_a_quoted_phrase_needs_its_words_in_order(small_kb) -> None:
    rules = search(small_kb, '"the ninja attacks"').groups[1]
    assert [h.iri for h in rules.hits] == [rule_iri("702.49c")]
    assert rules.hits[0].field == "text"
    assert search(small_kb, '"attacks the ninja"').total == 0
    assert search(small_kb, '"ninja attack"').total == 0  # a phrase matches whole words only


def test_a_name_match_ranks_above_a_text_match(small_kb) -> None:
    cards = search(small_kb, "ninja").groups[0]
    labels = [h.label for h in cards.hits]
    # Yuriko is a Ninja by type and by oracle text; the other card has the word in its name.
    assert labels == ["Ninja of the Deep Hours", "Yuriko, the Tiger's Shadow"]
    assert cards.hits[1].field == "oracle text"


def test_rulings_are_found_by_date_and_card(small_kb) -> None:
    rulings = search(small_kb, "yuriko 2021").groups[2]
    assert [h.date for h in rulings.hits] == ["2021-03-19"]


def test_only_the_newest_edition_of_a_rule_is_searched(small_kb) -> None:
    assert search(small_kb, '"newer fixture wording"').total == 1
    # 702.49d's older wording is not searched; 702.49a is in the old edition only, so it still is.
    assert [h.iri for h in search(small_kb, "older wording").groups[1].hits] == [rule_iri("702.49a")]


@pytest.mark.parametrize(
    "text",
    [
        '"unblocked',
        'unblocked"',
        "AND OR (",
        "NOT ninja",
        "NEAR(ninja combat)",
        "name:ninja",
        "ninja*",
        "^ninja -combat +",
        'x"))}UNION{?s\\?p?o',
        "'; DROP TABLE search; --",
        '"" ninja',
        "{U}{B}",
    ],
)
def test_hostile_input_is_searched_as_words(small_kb, text: str) -> None:
    result = search(small_kb, text)
    assert result.query == text
    assert result.total >= 0


def test_user_text_is_never_read_as_query_syntax(small_kb) -> None:
    # Operators are words: a card holding "unblocked" needs no "AND"; a quote left open is a phrase.
    assert search(small_kb, '"unblocked').total == search(small_kb, "unblocked").total > 0
    assert search(small_kb, "unblocked AND attacker").total == 0
    quoted = r'"(?:[^"]|"")*"\*?'
    for text in ['a"b', 'say "hi', '"x" y"', "NEAR(a", 'col:"v"', "a AND b*"]:
        assert re.fullmatch(rf"{quoted}( {quoted})*", match_expression(text)), text
    with sqlite3.connect(":memory:") as db:
        db.execute("CREATE VIRTUAL TABLE t USING fts5(x)")
        for text in ['a"b', "AND OR (", "NOT", "x:y", '"""x', "a*b", "-1"]:
            db.execute("SELECT * FROM t WHERE t MATCH ?", (match_expression(text),)).fetchall()


@pytest.mark.parametrize("text", ["", "   ", '""', '" "', ",, ;", "—", '"(" )'])
def test_nothing_to_search_for_is_a_user_error(small_kb, text: str) -> None:
    with pytest.raises(MtgkbError) as raised:
        search(small_kb, text)
    assert raised.value.hint


def test_empty_search_exits_2_from_the_cli(run_cli, small_kb_env: dict[str, str], tmp_path: Path) -> None:
    env = {**small_kb_env, "MTGKB_CACHE_DIR": str(tmp_path)}  # a cache of its own: the index is built here
    result = run_cli("search", '""', env=env)
    assert result.exit_code == 2
    assert "nothing to search for" in result.stderr and "Traceback" not in result.stderr
    first = run_cli("search", "ninja", env=env)
    assert first.exit_code == 0
    again = run_cli("search", "ninja", env=env)
    assert again.stdout == first.stdout and "search index" not in again.stderr


# ------------------------------------------------------------------------------ the index file


def test_index_is_built_with_the_store_and_reused(fresh_kb) -> None:
    index = fresh_kb.path / search_index.INDEX_NAME
    assert index.is_file()  # the first search does not wait for it
    built = index.stat().st_mtime_ns
    reports: list[str] = []
    first = search(fresh_kb, "ninjutsu", progress=reports.append)
    second = search(fresh_kb, "ninjutsu", progress=reports.append)
    assert index.stat().st_mtime_ns == built
    assert reports == []
    assert second == first
    assert sorted(p.name for p in fresh_kb.path.glob("search.sqlite*")) == ["search.sqlite"]


def test_a_store_without_an_index_builds_it_on_the_first_search(fresh_kb) -> None:
    index = fresh_kb.path / search_index.INDEX_NAME
    expected = search(fresh_kb, "ninjutsu")
    index.unlink()
    reports: list[str] = []
    assert search(fresh_kb, "ninjutsu", progress=reports.append) == expected
    assert any(isinstance(r, ProgressUpdate) and r.label.startswith("search index") for r in reports)
    assert sorted(p.name for p in fresh_kb.path.glob("search.sqlite*")) == [
        "search.sqlite",
        "search.sqlite.lock",
    ]


def test_a_removed_index_is_rebuilt(fresh_kb) -> None:
    before = search(fresh_kb, "commander")
    index = fresh_kb.path / search_index.INDEX_NAME
    index.unlink()
    assert search(fresh_kb, "commander") == before
    assert index.is_file()


@pytest.mark.parametrize("damage", [b"", b"not a database at all" * 100])
def test_a_damaged_index_is_rebuilt(fresh_kb, damage: bytes) -> None:
    before = search(fresh_kb, "commander")
    index = fresh_kb.path / search_index.INDEX_NAME
    index.write_bytes(damage)
    assert search(fresh_kb, "commander") == before
    assert index.stat().st_size > len(damage)


def test_an_index_of_another_format_is_rebuilt(fresh_kb, monkeypatch: pytest.MonkeyPatch) -> None:
    search(fresh_kb, "commander")
    index = fresh_kb.path / search_index.INDEX_NAME
    old = index.stat().st_mtime_ns
    monkeypatch.setattr(search_index, "INDEX_FORMAT", search_index.INDEX_FORMAT + 1)
    search(fresh_kb, "commander")
    with sqlite3.connect(index) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == search_index.INDEX_FORMAT
    assert index.stat().st_mtime_ns != old


def test_a_killed_build_leaves_only_a_temporary_file_that_is_ignored_then_removed(fresh_kb) -> None:
    index = fresh_kb.path / search_index.INDEX_NAME
    index.unlink()
    # What a build killed half way leaves: a partial database under a temporary name, and its spool.
    leftover = fresh_kb.path / "search.sqlite.tmp-999999"
    leftover.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    spool = fresh_kb.path / "search.sqlite.tmp-999999.csv"
    spool.write_text("f,s,o,g\n")
    result = search(fresh_kb, "ninjutsu")
    assert result.total > 0
    assert index.is_file()
    assert not leftover.exists() and not spool.exists()


def test_a_failed_build_leaves_no_index_and_the_next_search_builds_it(
    fresh_kb, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(*args: object) -> None:
        raise RuntimeError("killed half way through")

    (fresh_kb.path / search_index.INDEX_NAME).unlink()
    monkeypatch.setattr(search_index, "_write_items", crash)
    with pytest.raises(RuntimeError):
        search(fresh_kb, "ninjutsu")
    assert sorted(p.name for p in fresh_kb.path.glob("search.sqlite*")) == ["search.sqlite.lock"]
    monkeypatch.undo()
    assert search(fresh_kb, "ninjutsu").total > 0


def test_two_searches_at_once_build_the_index_once(fresh_kb, monkeypatch: pytest.MonkeyPatch) -> None:
    builds: list[int] = []
    real_build = search_index.build_index

    def counted(*args: object, **kwargs: object) -> None:
        builds.append(threading.get_ident())
        real_build(*args, **kwargs)

    (fresh_kb.path / search_index.INDEX_NAME).unlink()
    monkeypatch.setattr(search_index, "build_index", counted)
    results: list[int] = []
    threads = [threading.Thread(target=lambda: results.append(search(fresh_kb, "ninja").total)) for _ in "ab"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(builds) == 1
    assert len(results) == 2 and results[0] == results[1] > 0


def test_without_fts5_the_store_is_scanned(fresh_kb, monkeypatch: pytest.MonkeyPatch) -> None:
    (fresh_kb.path / search_index.INDEX_NAME).unlink()
    monkeypatch.setattr(search_index, "fts5_available", lambda: False)
    result = search(fresh_kb, "unblocked attacker")
    assert [h.iri for h in result.groups[1].hits] == [rule_iri("702.49a")]
    assert not (fresh_kb.path / search_index.INDEX_NAME).exists()


def test_an_index_that_cannot_be_written_falls_back_to_the_scan(
    fresh_kb, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_space(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    (fresh_kb.path / search_index.INDEX_NAME).unlink()
    monkeypatch.setattr(search_index, "build_index", no_space)
    reports: list[str] = []
    result = search(fresh_kb, "unblocked attacker", progress=reports.append)
    assert [h.iri for h in result.groups[1].hits] == [rule_iri("702.49a")]
    assert any("scanning the store instead" in r for r in reports)


def test_search_does_not_import_sqlite_until_it_searches() -> None:
    import subprocess
    import sys

    code = "import sys, mtgkb.cli, mtgkb.lookups.search; print('sqlite3' in sys.modules)"
    assert (
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"
    )


def test_rows_added_where_there_is_no_room_move_the_others_apart(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "index.sqlite")
    db.executescript(search_index._SCHEMA)
    low = search_index.KIND_NUMBERS["card"] * search_index.SPAN

    def item(name: str) -> tuple:
        iri = f"https://w3id.org/mtgkb/card/{name}"
        return (1, name, name, "", "", "", "", iri, name)

    # Two neighbours with no rowid free between them, then five cards that sort between them.
    for rowid, name in ((low + 1, "a"), (low + 2, "z")):
        *_, iri, label = item(name)
        db.execute(search_index._INSERT, (rowid, name, "", "", "", "", iri, label))
        db.execute("INSERT INTO places VALUES (?, ?, 1, ?)", (rowid, iri, name))
    search_index._replace_items(db, set(), [item(name) for name in ("m", "c", "x", "b", "n")])
    labels = [row[0] for row in db.execute("SELECT label FROM search ORDER BY rowid")]
    assert labels == ["a", "b", "c", "m", "n", "x", "z"]
    places = db.execute("SELECT id, iri FROM places ORDER BY id").fetchall()
    assert [iri.rsplit("/", 1)[1] for _, iri in places] == labels
    assert [row[0] for row in db.execute("SELECT rowid FROM search ORDER BY rowid")] == [p for p, _ in places]
    # Replacing a card moves it to its new place in the order.
    search_index._replace_items(db, {item("m")[-2]}, [(*item("m")[:1], "zz", *item("m")[2:])])
    assert [row[0] for row in db.execute("SELECT label FROM search ORDER BY rowid")][-1] == "m"
