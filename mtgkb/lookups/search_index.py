"""The full-text index behind ``mtgkb search``: an SQLite FTS5 table beside the store, one row per card,
rule and ruling.

Built on the first search, not at ``build``, so imports stay as fast as they were. The store folder is
named by a fingerprint of every source, so a changed store gets a fresh folder and a fresh index. The
index is written to a temporary file and renamed into place, under a lock in the store folder: two
searches started at once build it once, and a killed build leaves only a temporary file that the next
build deletes.

Extraction runs a few SPARQL queries of single triple patterns (a join in the store costs several times
more than in SQLite), each written by the store as CSV to a file and loaded into a temporary SQLite
table; the rows of each card, rule and ruling are then put together in SQLite, so memory stays small.
"""

from __future__ import annotations

import contextlib
import csv
import fcntl
import itertools
import os
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mtgkb.core.progress import Progress, Ticker
from mtgkb.core.rule_numbers import rule_sort_key

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

INDEX_NAME = "search.sqlite"
#: Bumped whenever the table below changes: an index of another format is rebuilt.
INDEX_FORMAT = 1
_TEMPORARY = INDEX_NAME + ".tmp-"
_LOCK = INDEX_NAME + ".lock"

#: Indexed columns, in table order, and what each holds for each kind (the ``field`` of a hit).
COLUMNS = ("name", "heading", "body", "summary", "date")
FIELDS = {
    "card": ("name", "type line", "oracle text", None, None),
    "rule": ("number", "title", "text", "summary", None),
    "ruling": ("card", None, "text", "summary", "date"),
}
#: bm25 weight of each indexed column: a word in a name or title says more than one in running text.
WEIGHTS = (8.0, 4.0, 1.0, 1.5, 1.0)

#: The kind of a row is in its rowid (kind number x SPAN + place), so counting and ranking the hits of
#: one kind reads only the index, never the stored text; within a kind, rowids follow the order in
#: which equally ranked hits are listed (cards by name, rules in book order, rulings newest first).
KIND_NUMBERS = {"card": 1, "rule": 2, "ruling": 3}
SPAN = 1_000_000_000

# The prefix index keeps a three-letter bare word ("the*", a prefix query) as cheap as any word.
_SCHEMA = f"""
CREATE VIRTUAL TABLE search USING fts5(
  {", ".join(COLUMNS)}, iri UNINDEXED, label UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 2', prefix = '3'
);
CREATE TEMP TABLE facts (f TEXT, s TEXT, o TEXT, g TEXT);
CREATE TEMP TABLE items (kind INTEGER, sortkey, {", ".join(COLUMNS)}, iri TEXT, label TEXT);
"""

# Each query is a UNION of single patterns; ?f names the fact. Official text and titles keep their
# graph, so the text of the newest edition can be chosen and a curated title preferred.
_QUERIES = {
    "cards": [
        ("card", "?s a mtgkb:Card"),
        ("name", "?s mtgkb:name ?o"),
        ("typeLine", "?s mtgkb:typeLine ?o"),
        ("oracleText", "?s mtgkb:oracleText ?o"),
        ("hasFace", "?s mtgkb:hasFace ?o"),
        ("faceIndex", "?s mtgkb:faceIndex ?o"),
    ],
    "rules": [
        ("ruleNumber", "?s mtgkb:ruleNumber ?o"),
        ("title", "GRAPH ?g { ?s mtgkb:title ?o }"),
        ("summary", "?s mtgkb:summary ?o"),
        ("text", "GRAPH ?g { ?s mtgkb:text ?o }"),
        ("edition", "GRAPH ?g { ?s a mtgkb:Edition ; mtgkb:effectiveDate ?o }"),
    ],
    "rulings": [
        ("ruling", "?s a mtgkb:Ruling"),
        ("rulingDate", "?s mtgkb:rulingDate ?o"),
        ("aboutCard", "?s mtgkb:aboutCard ?o"),
    ],
}


def sparql_for(facts: list[tuple[str, str]]) -> str:
    branches = " UNION ".join(f'{{ {pattern} BIND("{fact}" AS ?f) }}' for fact, pattern in facts)
    return f"SELECT ?f ?s ?o ?g WHERE {{ {branches} }}"


def fts5_available() -> bool:
    """Whether this Python's SQLite has FTS5 (some builds leave it out)."""
    try:
        with contextlib.closing(sqlite3.connect(":memory:")) as db:
            db.execute("CREATE VIRTUAL TABLE probe USING fts5(x)")
    except sqlite3.Error:
        return False
    return True


def open_index(kb: KnowledgeBase, progress: Progress | None = None) -> sqlite3.Connection:
    """A read-only connection to the store's index, building the index first when there is none.

    Raises OSError or sqlite3.Error when the index can be neither opened nor built (an unwritable
    cache, a full disk).
    """
    path = kb.path / INDEX_NAME
    db = _open(path)
    if db is not None:
        return db
    with _lock(kb.path):
        db = _open(path)  # another process may have built it while this one waited
        if db is None:
            build_index(kb, path, progress)
            db = _open(path)
    if db is None:
        raise sqlite3.DatabaseError(f"the search index just built in {path} cannot be opened")
    return db


def _open(path: Path) -> sqlite3.Connection | None:
    """The index, or None when it is missing, of another format or damaged. The file is replaced,
    never changed in place, so SQLite may skip its locking."""
    if not path.is_file():
        return None
    try:
        db = sqlite3.connect(path.as_uri() + "?mode=ro&immutable=1", uri=True)
    except sqlite3.Error:
        return None
    try:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version == INDEX_FORMAT:
            db.execute("SELECT rowid FROM search LIMIT 1").fetchall()
            return db
    except sqlite3.DatabaseError:
        pass
    db.close()
    return None


@contextlib.contextmanager
def _lock(folder: Path) -> Iterator[None]:
    with open(folder / _LOCK, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def build_index(kb: KnowledgeBase, path: Path, progress: Progress | None = None) -> None:
    """Write the index of ``kb`` to ``path``; the caller holds the lock."""
    # Whatever temporary files exist now were left by a killed build: a live one would hold the lock.
    for leftover in path.parent.glob(_TEMPORARY + "*"):
        leftover.unlink(missing_ok=True)
    temporary = path.parent / f"{_TEMPORARY}{os.getpid()}"
    if progress:
        progress("building the search index (once for this store)")
    try:
        db = sqlite3.connect(temporary)
        try:
            # A crash only ever loses the temporary file, so SQLite's journal and syncs are not needed.
            db.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;" + _SCHEMA)
            _load_facts(kb, db, temporary, Ticker(progress, "search index: reading the store", len(_QUERIES)))
            # Covering, so that reading the facts subject by subject never goes back to the table.
            db.execute("CREATE INDEX temp.facts_by_subject ON facts (s, f, o, g)")
            db.executemany(
                f"INSERT INTO items VALUES ({', '.join('?' * (len(COLUMNS) + 4))})", _items(db, progress)
            )
            db.execute("DROP TABLE facts")
            _write_items(db, progress)
            db.execute(f"PRAGMA user_version = {INDEX_FORMAT}")
            db.commit()
        finally:
            db.close()
        with open(temporary, "rb") as written:
            os.fsync(written.fileno())
        os.replace(temporary, path)
    finally:
        for own in path.parent.glob(f"{temporary.name}*"):
            own.unlink(missing_ok=True)


def _write_items(db: sqlite3.Connection, progress: Progress | None) -> None:
    """The gathered items into the search table, in rowid order (see SPAN)."""
    db.execute("CREATE INDEX temp.items_in_order ON items (kind, sortkey)")
    ticker = Ticker(progress, "search index: writing", db.execute("SELECT COUNT(*) FROM items").fetchone()[0])
    rows = db.execute(f"SELECT kind, {', '.join(COLUMNS)}, iri, label FROM items ORDER BY kind, sortkey")
    insert = f"INSERT INTO search (rowid, {', '.join(COLUMNS)}, iri, label) VALUES ({', '.join('?' * 8)})"
    place, kind_now, done = 0, None, 0
    while batch := rows.fetchmany(2000):
        numbered = []
        for kind, *values in batch:
            place = place + 1 if kind == kind_now else 0
            kind_now = kind
            numbered.append((kind * SPAN + place, *values))
        db.executemany(insert, numbered)
        done += len(batch)
        ticker.update(done)
    db.execute("INSERT INTO search(search) VALUES ('optimize')")


def _load_facts(kb: KnowledgeBase, db: sqlite3.Connection, temporary: Path, ticker: Ticker) -> None:
    import pyoxigraph as ox

    spool = temporary.with_name(temporary.name + ".csv")
    for done, facts in enumerate(_QUERIES.values(), 1):
        # The store writes CSV faster than Python can read its solutions one term at a time.
        kb.raw_query(sparql_for(facts)).serialize(output=str(spool), format=ox.QueryResultsFormat.CSV)
        with open(spool, encoding="utf-8", newline="") as rows:
            reader = csv.reader(rows)
            next(reader, None)  # the header: f,s,o,g, the columns of the table
            db.executemany("INSERT INTO facts VALUES (?, ?, ?, ?)", reader)
        ticker.update(done)
    spool.unlink()


_SUBJECT_FACTS = """
SELECT f.s, f.f, COALESCE(card.o, f.o), f.g FROM facts AS f
LEFT JOIN facts AS card ON f.f = 'aboutCard' AND card.s = f.o AND card.f = 'name'
ORDER BY f.s
"""

_FACE_FACTS = """
SELECT owner.s, value.f, value.o FROM facts AS owner
JOIN facts AS value ON value.s = owner.o AND value.f IN ('name', 'typeLine', 'oracleText')
LEFT JOIN facts AS position ON position.s = owner.o AND position.f = 'faceIndex'
WHERE owner.f = 'hasFace'
ORDER BY owner.s, CAST(position.o AS INTEGER)
"""


def _items(db: sqlite3.Connection, progress: Progress | None) -> Iterator[tuple[Any, ...]]:
    """One row of the search table for each card, rule and ruling, from the facts in subject order."""
    total = db.execute("SELECT COUNT(*) FROM facts").fetchone()[0]
    ticker = Ticker(progress, "search index: gathering", total)
    editions = dict(db.execute("SELECT g, o FROM facts WHERE f = 'edition'").fetchall())
    faces: dict[str, dict[str, list[str]]] = {}
    for card, fact, value in db.execute(_FACE_FACTS).fetchall():
        _add(faces.setdefault(card, {}), fact, value)
    done = 0
    for subject, rows in itertools.groupby(db.execute(_SUBJECT_FACTS), key=lambda row: row[0]):
        facts: dict[str, list[str]] = {}
        graphs: dict[tuple[str, str], set[str]] = {}
        for _, fact, value, graph in rows:
            _add(facts, fact, value)
            if graph:
                graphs.setdefault((fact, value), set()).add(graph)
            done += 1
            if done % 5000 == 0:
                # A ruling about a card with two names brings two rows for one fact: hence min().
                ticker.update(min(done, total))
        item = _item(subject, facts, graphs, faces, editions)
        if item:
            yield item
    ticker.update(total)


def _add(facts: dict[str, list[str]], fact: str, value: str) -> None:
    values = facts.setdefault(fact, [])
    if value not in values:
        values.append(value)


def _item(
    iri: str,
    facts: dict[str, list[str]],
    graphs: dict[tuple[str, str], set[str]],
    faces: dict[str, dict[str, list[str]]],
    editions: dict[str, str],
) -> tuple[Any, ...] | None:
    """(kind number, sort key, name, heading, body, summary, date, iri, label), or None for anything
    that is not a card, rule or ruling."""
    if "card" in facts:
        face = faces.get(iri, {})
        names = _with_faces(facts.get("name", []), face.get("name", []))
        label = names[0] if names else iri
        return (
            KIND_NUMBERS["card"],
            label.lower(),
            "\n".join(names),
            "\n".join(_with_faces(facts.get("typeLine", []), face.get("typeLine", []))),
            "\n\n".join(_with_faces(facts.get("oracleText", []), face.get("oracleText", []))),
            "",
            "",
            iri,
            label,
        )
    if "ruleNumber" in facts:
        number = facts["ruleNumber"][0]
        titles = facts.get("title", [])
        # Our curated title, when there is one, names the rule; an edition's title is still searched.
        titles.sort(key=lambda title: all(g in editions for g in graphs.get(("title", title), ())))
        label = " ".join(part for part in (number, titles[0] if titles else None) if part)
        section, rule, letters = rule_sort_key(number)
        return (
            KIND_NUMBERS["rule"],
            f"{section:07d}.{rule + 1:07d}.{letters}",
            "\n".join(facts["ruleNumber"]),
            "\n".join(titles),
            _newest_text(facts.get("text", []), graphs, editions),
            "\n".join(facts.get("summary", [])),
            "",
            iri,
            label,
        )
    if "ruling" in facts:
        date = (facts.get("rulingDate") or [""])[0]
        cards = ", ".join(facts.get("aboutCard", []))
        digits = date.replace("-", "")
        return (
            KIND_NUMBERS["ruling"],
            -int(digits) if digits.isdigit() else 0,  # newest first
            cards,
            "",
            "\n\n".join(facts.get("text", [])),
            "\n".join(facts.get("summary", [])),
            date,
            iri,
            ", ".join(part for part in (cards, date) if part) or iri,
        )
    return None  # a face, mechanic, edition or anything else the search does not list


def _with_faces(values: list[str], face_values: Iterable[str]) -> list[str]:
    """The card's own values, then each face's value that the card's do not already hold (an imported
    card repeats its faces' text joined by "//"; a curated one may carry it on the faces only)."""
    joined = "\n".join(values)
    return values + [value for value in face_values if value not in joined]


def _newest_text(texts: list[str], graphs: dict[tuple[str, str], set[str]], editions: dict[str, str]) -> str:
    """The official text of the newest edition holding the rule: older wording is not searched."""
    dated = [
        (max(editions[g] for g in graphs.get(("text", text), set()) if g in editions), text)
        for text in texts
        if graphs.get(("text", text), set()) & editions.keys()
    ]
    if dated:
        return max(dated)[1]
    return "\n\n".join(texts)
