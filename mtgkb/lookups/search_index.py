"""The full-text index behind ``mtgkb search``: an SQLite FTS5 table beside the store, one row per card,
rule and ruling.

Built with the store and brought up to date with it (the store's build hands it the subjects whose
facts changed), so the first search after an import or an edit is as fast as any other. The rows are
made directly from the store's quads, one predicate at a time (reading a predicate's quads from the
store's index is cheaper than any join), and written to FTS5 kind by kind, so memory stays to one kind
of facts. An update copies the previous store's index, replaces the rows of the changed cards, rules
and rulings, and is renamed into place with the store.

When a store has no index (built without FTS5 or by an earlier version, or the file was removed or
damaged), the first search builds it, under a lock in the store folder: two searches started at once
build it once. Every index is written to a temporary file and renamed into place, so a killed build
leaves only a temporary file that the next build deletes.
"""

from __future__ import annotations

import bisect
import contextlib
import fcntl
import json
import os
import shutil
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mtgkb.core.progress import Progress, Ticker
from mtgkb.core.rule_numbers import rule_sort_key
from mtgkb.kb.query_files import library_query
from mtgkb.kb.store import predicate_values
from mtgkb.kb.vocab import RDF_TYPE, V

if TYPE_CHECKING:
    from mtgkb.kb.build import Changes
    from mtgkb.kb.store import KnowledgeBase

INDEX_NAME = "search.sqlite"
#: Beside a store updated by a command that does not search: the previous store's index (a hard link)
#: and the subjects whose rows it lacks, which the first search puts in (see :func:`defer_with_store`).
BASE_NAME = "search.base.sqlite"
PENDING_NAME = "search.pending.json"
#: Bumped whenever the tables below change: an index of another format is rebuilt.
INDEX_FORMAT = 2
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
#: Places are spread GAP apart, so a card, rule or ruling added by an update takes a place between
#: its neighbours without moving them.
KIND_NUMBERS = {"card": 1, "rule": 2, "ruling": 3}
SPAN = 1_000_000_000
GAP = 1024

# The prefix index keeps a three-letter bare word ("the*", a prefix query) as cheap as any word. The
# places table says where each item is, for updates.
_SCHEMA = f"""
CREATE VIRTUAL TABLE search USING fts5(
  {", ".join(COLUMNS)}, iri UNINDEXED, label UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 2', prefix = '3'
);
CREATE TABLE places (id INTEGER PRIMARY KEY, iri TEXT NOT NULL UNIQUE, kind INTEGER NOT NULL, sortkey);
CREATE INDEX places_in_order ON places (kind, sortkey, iri);
"""
#: While an index is built from scratch, FTS5 merges nothing until the optimize that ends the build,
#: and keeps more of the file in memory: a third less time for the full pool's rows. Its merge
#: settings, kept in the index, are then set back to FTS5's defaults for the updates to come.
_BULK = """
PRAGMA cache_size = -65536;
INSERT INTO search(search, rank) VALUES ('automerge', 0);
INSERT INTO search(search, rank) VALUES ('crisismerge', 2000);
"""
_AFTER_BULK = """
INSERT INTO search(search, rank) VALUES ('automerge', 4);
INSERT INTO search(search, rank) VALUES ('crisismerge', 16);
"""
_INSERT = f"INSERT INTO search (rowid, {', '.join(COLUMNS)}, iri, label) VALUES ({', '.join('?' * 8)})"


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
            if not _catch_up(kb, progress):
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


# --- building and updating ---------------------------------------------------------------------


def build_with_store(kb: KnowledgeBase, progress: Progress | None = None) -> None:
    """Write the index of a store being built into its folder (the build holds its own lock)."""
    if fts5_available():
        build_index(kb, kb.path / INDEX_NAME, progress, synced=False)


def update_with_store(
    kb: KnowledgeBase, previous: Path, changes: Changes, progress: Progress | None = None
) -> None:
    """Write the index of a store being updated from ``previous`` into its folder: the previous
    store's index with the rows of the changed subjects made again (or a new index when the previous
    one is missing, damaged or of another format)."""
    if not fts5_available():
        return
    start = _start(previous)
    if start is None:
        build_index(kb, kb.path / INDEX_NAME, progress, synced=False)
        return
    base, pending = start
    _apply_changes(kb, base, kb.path / INDEX_NAME, pending | changes.subjects, progress, synced=False)


def defer_with_store(kb: KnowledgeBase, previous: Path, changes: Changes) -> None:
    """Leave the index of a store being updated for its first search to bring up to date: a hard link
    to the previous store's index (or to the one it was itself left with) and the changed subjects.
    A command that only looks a card up does not pay for copying the index."""
    if not fts5_available():
        return
    start = _start(previous)
    if start is None:
        return  # nothing to start from: the first search builds the index
    base, pending = start
    try:
        os.link(base, kb.path / BASE_NAME)
    except OSError:
        return
    subjects = sorted(pending | changes.subjects)
    (kb.path / PENDING_NAME).write_text(json.dumps(subjects), encoding="utf-8")


def _start(previous: Path) -> tuple[Path, set[str]] | None:
    """The index of the store in ``previous`` and the subjects whose rows it lacks (none, or those the
    store was left with by :func:`defer_with_store`); None when it has neither."""
    db = _open(previous / INDEX_NAME)
    if db is not None:
        db.close()
        return previous / INDEX_NAME, set()
    try:
        pending = set(json.loads((previous / PENDING_NAME).read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return None
    db = _open(previous / BASE_NAME)
    if db is None:
        return None
    db.close()
    return previous / BASE_NAME, pending


def _catch_up(kb: KnowledgeBase, progress: Progress | None) -> bool:
    """Write the index from the one the store was left with and the subjects it lacks (see
    :func:`defer_with_store`); False when there is none to start from. The caller holds the lock."""
    start = _start(kb.path)
    if start is None:
        return False
    base, subjects = start
    if progress:
        progress(f"updating the search index: {len(subjects):,} changed nodes")
    _apply_changes(kb, base, kb.path / INDEX_NAME, subjects, progress, synced=True)
    base.unlink(missing_ok=True)
    (kb.path / PENDING_NAME).unlink(missing_ok=True)
    return True


def _apply_changes(
    kb: KnowledgeBase, base: Path, path: Path, subjects: set[str], progress: Progress | None, synced: bool
) -> None:
    """Write to ``path`` the index ``base`` with the rows of ``subjects`` made again from ``kb``."""
    with _writing(path, synced) as temporary:
        shutil.copyfile(base, temporary)
        db = sqlite3.connect(temporary)
        try:
            db.execute("PRAGMA journal_mode = OFF")
            db.execute("PRAGMA synchronous = OFF")
            affected = _affected(kb, subjects)
            if progress and len(affected) > 1000:
                progress(f"updating the search index: {len(affected):,} cards, rules and rulings")
            items = list(_items(_Facts.of_subjects(kb, affected)))
            _replace_items(db, affected, items)
            db.commit()
        finally:
            db.close()


@contextlib.contextmanager
def _writing(path: Path, synced: bool = True) -> Iterator[Path]:
    """A temporary file beside ``path`` to write the index to, renamed into place when the block ends
    without an error and removed otherwise. The index of a store being built needs no sync of its
    own: the store folder is renamed into place whole, and a damaged index is built again."""
    # Whatever temporary files exist now were left by a killed build: a live one would hold the lock.
    for leftover in path.parent.glob(_TEMPORARY + "*"):
        leftover.unlink(missing_ok=True)
    temporary = path.parent / f"{_TEMPORARY}{os.getpid()}"
    try:
        yield temporary
        if synced:
            with open(temporary, "rb") as written:
                os.fsync(written.fileno())
        os.replace(temporary, path)
    finally:
        for own in path.parent.glob(f"{temporary.name}*"):
            own.unlink(missing_ok=True)


def build_index(kb: KnowledgeBase, path: Path, progress: Progress | None = None, synced: bool = True) -> None:
    """Write the index of ``kb`` to ``path``; the caller holds the lock."""
    if progress:
        progress("building the search index")
    with _writing(path, synced) as temporary:
        db = sqlite3.connect(temporary)
        try:
            # A crash only ever loses the temporary file, so SQLite's journal and syncs are not needed.
            db.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;" + _SCHEMA)
            db.executescript(_BULK)
            _write_items(db, kb, progress)
            db.execute("INSERT INTO search(search) VALUES ('optimize')")
            db.executescript(_AFTER_BULK)
            db.execute(f"PRAGMA user_version = {INDEX_FORMAT}")
            db.commit()
        finally:
            db.close()


def _write_items(db: sqlite3.Connection, kb: KnowledgeBase, progress: Progress | None) -> None:
    """Every card, rule and ruling into the search table, kind by kind, in rowid order (see SPAN)."""
    ticker = Ticker(progress, "search index", len(KIND_NUMBERS))
    written: set[str] = set()  # a node that is a card and a rule (never yet) is listed as the first
    card_names: dict[str, list[str]] = {}
    for done, kind in enumerate(KIND_NUMBERS, 1):
        facts = _Facts.of_kind(kb, kind, card_names)
        if kind == "card":  # the rulings name their cards with these
            card_names = {iri: values.get("name", []) for iri, values in facts.subjects.items()}
        items = sorted((i for i in _items(facts) if i[-2] not in written), key=_order)
        del facts
        written |= {item[-2] for item in items}
        gap = max(1, min(GAP, (SPAN - 1) // (len(items) + 1)))
        rows = []
        places = []
        for place, item in enumerate(items, 1):
            number, key, *values = item
            rowid = number * SPAN + place * gap
            rows.append((rowid, *values))
            places.append((rowid, values[-2], number, key))
        db.executemany(_INSERT, rows)
        db.executemany("INSERT INTO places VALUES (?, ?, ?, ?)", places)
        ticker.update(done)


def _order(item: tuple[Any, ...]) -> tuple[Any, ...]:
    return item[0], item[1], item[-2]  # the kind, its sort key, then the IRI


def _replace_items(db: sqlite3.Connection, affected: set[str], items: list[tuple[Any, ...]]) -> None:
    """Remove the rows of ``affected`` and write ``items`` (their rows now) each in its place: the new
    rows of a kind that fall between the same two rows share the room between them evenly."""
    for iri in affected:
        row = db.execute("SELECT id FROM places WHERE iri = ?", (iri,)).fetchone()
        if row:
            db.execute("DELETE FROM search WHERE rowid = ?", row)
            db.execute("DELETE FROM places WHERE id = ?", row)
    by_kind: dict[int, list[tuple[Any, ...]]] = {}
    for item in sorted(items, key=_order):
        by_kind.setdefault(item[0], []).append(item)
    for number, new in by_kind.items():
        places = _places(db, number, new)
        if places is None:  # no room left somewhere: the kind's rows are spread GAP apart again
            _spread(db, number, len(new))
            places = _places(db, number, new)
        assert places is not None
        for rowid, (_, key, *values) in zip(places, new, strict=True):
            db.execute(_INSERT, (rowid, *values))
            db.execute("INSERT INTO places VALUES (?, ?, ?, ?)", (rowid, values[-2], number, key))


#: Up to this many new rows of a kind, each one's neighbours are looked up in the places index;
#: beyond it, the kind's places are read once.
_LOOKED_UP = 500
_BEFORE = (
    "SELECT id FROM places WHERE kind = ? AND (sortkey, iri) < (?, ?) ORDER BY sortkey DESC, iri DESC LIMIT 1"
)
_AFTER = "SELECT id FROM places WHERE kind = ? AND (sortkey, iri) > (?, ?) ORDER BY sortkey, iri LIMIT 1"


def _places(db: sqlite3.Connection, number: int, new: list[tuple[Any, ...]]) -> list[int] | None:
    """Rowids for the sorted items ``new`` of one kind among the rows already there, or None when two
    neighbours leave too little room between them."""
    low, high = number * SPAN, (number + 1) * SPAN
    runs: dict[tuple[int, int], list[int]] = {}  # (rowid before, rowid after) -> positions in ``new``
    if len(new) <= _LOOKED_UP:
        for position, item in enumerate(new):
            key = (number, item[1], item[-2])
            before = db.execute(_BEFORE, key).fetchone()
            after = db.execute(_AFTER, key).fetchone()
            runs.setdefault((before[0] if before else low, after[0] if after else high), []).append(position)
    else:
        existing = db.execute(
            "SELECT sortkey, iri, id FROM places WHERE kind = ? ORDER BY sortkey, iri", (number,)
        ).fetchall()
        bounds = [low] + [row[2] for row in existing] + [high]
        keys = [(row[0], row[1]) for row in existing]
        for position, item in enumerate(new):
            gap = bisect.bisect_left(keys, (item[1], item[-2]))
            runs.setdefault((bounds[gap], bounds[gap + 1]), []).append(position)
    places = [0] * len(new)
    for (start, end), positions in runs.items():
        step = (end - start) // (len(positions) + 1)
        if step < 1:
            return None
        for count, position in enumerate(positions, 1):
            places[position] = start + count * step
    return places


def _spread(db: sqlite3.Connection, number: int, coming: int) -> None:
    """Give the rows of one kind places evenly apart again, leaving room for ``coming`` more (rarely
    needed: only when many items were added between the same two neighbours)."""
    ids = [
        row[0] for row in db.execute("SELECT id FROM places WHERE kind = ? ORDER BY sortkey, iri", (number,))
    ]
    gap = max(1, min(GAP, (SPAN - 1) // (len(ids) + coming + 2)))
    moved = [(old, number * SPAN + place * gap) for place, old in enumerate(ids, 1)]
    select = f"SELECT {', '.join(COLUMNS)}, iri, label FROM search WHERE rowid = ?"
    # Through places out of the kind's range first, so that no new rowid meets an old one.
    for step in (1, 2):
        for old, new in moved:
            source, target = (old, -new) if step == 1 else (-new, new)
            values = db.execute(select, (source,)).fetchone()
            db.execute("DELETE FROM search WHERE rowid = ?", (source,))
            db.execute(_INSERT, (target, *values))
            db.execute("UPDATE places SET id = ? WHERE id = ?", (target, source))


def _affected(kb: KnowledgeBase, subjects: set[str]) -> set[str]:
    """The cards, rules and rulings whose rows the facts of ``subjects`` make: the subjects
    themselves, the cards whose faces they are, and the rulings about them (a ruling shows its
    card's name)."""
    import pyoxigraph as ox

    affected = set(subjects)
    default = ox.DefaultGraph()
    for predicate in (V.hasFace, V.meldsInto, V.aboutCard):
        node = ox.NamedNode(predicate)
        for subject in subjects:
            for quad in kb.store.quads_for_pattern(None, node, ox.NamedNode(subject), default):
                affected.add(quad.subject.value)
    return affected


# --- reading the facts ---------------------------------------------------------------------------

#: The facts read for each kind, by predicate, from the default graph (each fact once).
_FACTS = {
    "card": {
        V.name: "name",
        V.typeLine: "typeLine",
        V.oracleText: "oracleText",
        V.hasFace: "hasFace",
        V.meldsInto: "meldsInto",
    },
    "rule": {V.ruleNumber: "ruleNumber", V.summary: "summary"},
    "ruling": {V.rulingDate: "rulingDate", V.aboutCard: "aboutCard", V.summary: "summary", V.text: "text"},
}
#: Facts of rules read graph by graph: the text of the newest edition is chosen, a curated title preferred.
_RULE_BY_GRAPH = {V.title: "title", V.text: "text"}
_CLASS = {"card": V.Card, "ruling": V.Ruling}


@dataclass
class _Facts:
    """What the rows of some cards, rules and rulings are made of."""

    subjects: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # IRI -> fact -> values
    graphs: dict[tuple[str, str, str], set[str]] = field(default_factory=dict)  # (IRI, fact, value)
    faces: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # card IRI -> fact -> values
    card_names: dict[str, list[str]] = field(default_factory=dict)  # for the rulings about them
    editions: dict[str, str] = field(default_factory=dict)  # edition graph -> effective date

    def add(self, subject: str, fact: str, value: str, graph: str | None = None) -> None:
        _add(self.subjects.setdefault(subject, {}), fact, value)
        if graph:
            self.graphs.setdefault((subject, fact, value), set()).add(graph)

    @classmethod
    def of_kind(cls, kb: KnowledgeBase, kind: str, card_names: dict[str, list[str]] | None = None) -> _Facts:
        """The facts of every card, rule or ruling (``kind``) in ``kb``; the rulings' cards are named
        from ``card_names`` (card IRI -> names, as the cards' facts hold them) where it has them."""
        facts = cls()
        if kind in _CLASS:
            # Read through SPARQL, which decodes only the subjects: the store's quads decode all four
            # terms, and over the full pool that (with the values below) was a second of the build.
            for row in kb.raw_query(library_query("class-members"), {"class": _CLASS[kind]}):
                facts.subjects[row[0].value] = {kind: [kind]}
        for predicate, name in _FACTS[kind].items():
            # A rule is anything with a rule number (read first); cards and rulings are typed.
            everything = kind == "rule" and name == "ruleNumber"
            for subject, value in predicate_values(kb.store, predicate):
                if everything or subject in facts.subjects:
                    facts.add(subject, name, value)
        if kind == "card":
            facts._read_faces(kb)
        if kind == "ruling":
            facts.card_names = {
                card: names
                for card, names in (card_names or {}).items()
                if names  # a card without a name is named by its IRI below
            }
            about = {c for s in facts.subjects.values() for c in s.get("aboutCard", [])}
            facts._read_card_names(kb, about - facts.card_names.keys())
        if kind == "rule":
            facts._read_by_graph(kb, set(facts.subjects))
        return facts

    @classmethod
    def of_subjects(cls, kb: KnowledgeBase, iris: Iterable[str]) -> _Facts:
        """The facts of the cards, rules and rulings among ``iris``."""
        import pyoxigraph as ox

        facts = cls()
        read = {predicate: name for kind in _FACTS for predicate, name in _FACTS[kind].items()}
        classes = {value: kind for kind, value in _CLASS.items()}
        default = ox.DefaultGraph()
        for iri in iris:
            if iri.startswith("_:"):
                continue
            # The default graph's copy gives each fact once; a rule's title and text are read again
            # below with the named graphs that state them (every graph at once reads three times as
            # many quads).
            for quad in kb.store.quads_for_pattern(ox.NamedNode(iri), None, None, default):
                predicate = quad.predicate.value
                if predicate == RDF_TYPE and quad.object.value in classes:
                    kind = classes[quad.object.value]
                    facts.add(iri, kind, kind)
                elif predicate in read:
                    facts.add(iri, read[predicate], quad.object.value)
        facts._read_by_graph(kb, {s for s, values in facts.subjects.items() if "ruleNumber" in values})
        facts._read_faces(kb)
        facts._read_card_names(kb, {c for s in facts.subjects.values() for c in s.get("aboutCard", [])})
        return facts

    def _read_faces(self, kb: KnowledgeBase) -> None:
        import pyoxigraph as ox

        default = ox.DefaultGraph()
        wanted = {V.name: "name", V.typeLine: "typeLine", V.oracleText: "oracleText"}
        for card, values in self.subjects.items():
            if "card" not in values or not (values.get("hasFace") or values.get("meldsInto")):
                continue
            ordered = []
            for face in values.get("hasFace", []):
                node = ox.NamedNode(face)
                position = next(
                    kb.store.quads_for_pattern(node, ox.NamedNode(V.faceIndex), None, default), None
                )
                ordered.append((int(position.object.value) if position else 0, face))
            # The combined back face a meld card forms with its pair: its name finds both cards.
            ordered += [(99, melded) for melded in values.get("meldsInto", [])]
            merged: dict[str, list[str]] = {}
            for _, face in sorted(ordered):
                for quad in kb.store.quads_for_pattern(ox.NamedNode(face), None, None, default):
                    name = wanted.get(quad.predicate.value)
                    if name:
                        _add(merged, name, quad.object.value)
            self.faces[card] = merged

    def _read_card_names(self, kb: KnowledgeBase, cards: set[str]) -> None:
        import pyoxigraph as ox

        name = ox.NamedNode(V.name)
        default = ox.DefaultGraph()
        if len(cards) > 1000:  # one read of every name beats thousands of lookups
            for quad in kb.store.quads_for_pattern(None, name, None, default):
                if quad.subject.value in cards:
                    self.card_names.setdefault(quad.subject.value, []).append(quad.object.value)
            for card in cards - self.card_names.keys():
                self.card_names[card] = [card]
            return
        for card in cards:
            names = [
                q.object.value for q in kb.store.quads_for_pattern(ox.NamedNode(card), name, None, default)
            ]
            self.card_names[card] = names or [card]

    def _read_editions(self, kb: KnowledgeBase) -> None:
        """Each edition graph's effective date: the text of the newest edition holding a rule is the
        one searched."""
        import pyoxigraph as ox

        date = ox.NamedNode(V.effectiveDate)
        for quad in kb.store.quads_for_pattern(None, date, None, None):
            if isinstance(quad.graph_name, ox.NamedNode):
                self.editions[quad.graph_name.value] = quad.object.value

    def _read_by_graph(self, kb: KnowledgeBase, rules: set[str]) -> None:
        """The titles and official texts of ``rules`` with the named graphs stating them: the text of
        the newest edition is chosen, a curated title preferred."""
        import pyoxigraph as ox

        self._read_editions(kb)
        predicates = {ox.NamedNode(predicate): name for predicate, name in _RULE_BY_GRAPH.items()}
        for rule in rules:
            node = ox.NamedNode(rule)
            for predicate, name in predicates.items():
                for quad in kb.store.quads_for_pattern(node, predicate, None, None):
                    if isinstance(quad.graph_name, ox.NamedNode):
                        self.add(rule, name, quad.object.value, quad.graph_name.value)


def _add(facts: dict[str, list[str]], fact: str, value: str) -> None:
    values = facts.setdefault(fact, [])
    if value not in values:
        values.append(value)


def _items(facts: _Facts) -> Iterator[tuple[Any, ...]]:
    """One row of the search table for each card, rule and ruling of ``facts``: (kind number, sort key,
    name, heading, body, summary, date, iri, label)."""
    for iri, values in facts.subjects.items():
        item = _item(iri, values, facts)
        if item:
            yield item


def _item(iri: str, values: dict[str, list[str]], facts: _Facts) -> tuple[Any, ...] | None:
    """The row of one card, rule or ruling, or None for anything else (a face, mechanic, edition)."""
    if "card" in values:
        face = facts.faces.get(iri, {})
        names = _with_faces(values.get("name", []), face.get("name", []))
        label = names[0] if names else iri
        return (
            KIND_NUMBERS["card"],
            label.lower(),
            "\n".join(names),
            "\n".join(_with_faces(values.get("typeLine", []), face.get("typeLine", []))),
            "\n\n".join(_with_faces(values.get("oracleText", []), face.get("oracleText", []))),
            "",
            "",
            iri,
            label,
        )
    if "ruleNumber" in values:
        number = values["ruleNumber"][0]
        titles = values.get("title", [])
        # Our curated title, when there is one, names the rule; an edition's title is still searched.
        titles.sort(
            key=lambda title: all(g in facts.editions for g in facts.graphs.get((iri, "title", title), ()))
        )
        label = " ".join(part for part in (number, titles[0] if titles else None) if part)
        section, rule, letters = rule_sort_key(number)
        return (
            KIND_NUMBERS["rule"],
            f"{section:07d}.{rule + 1:07d}.{letters}",
            "\n".join(values["ruleNumber"]),
            "\n".join(titles),
            _newest_text(iri, values.get("text", []), facts),
            "\n".join(values.get("summary", [])),
            "",
            iri,
            label,
        )
    if "ruling" in values:
        date = (values.get("rulingDate") or [""])[0]
        names: list[str] = []
        for card in values.get("aboutCard", []):
            for name in facts.card_names.get(card, [card]):
                if name not in names:
                    names.append(name)
        cards = ", ".join(names)
        digits = date.replace("-", "")
        return (
            KIND_NUMBERS["ruling"],
            -int(digits) if digits.isdigit() else 0,  # newest first
            cards,
            "",
            "\n\n".join(values.get("text", [])),
            "\n".join(values.get("summary", [])),
            date,
            iri,
            ", ".join(part for part in (cards, date) if part) or iri,
        )
    return None


def _with_faces(values: list[str], face_values: Iterable[str]) -> list[str]:
    """The card's own values, then each face's value that the card's do not already hold (an imported
    card repeats its faces' text joined by "//"; a curated one may carry it on the faces only)."""
    joined = "\n".join(values)
    return values + [value for value in face_values if value not in joined]


def _newest_text(iri: str, texts: list[str], facts: _Facts) -> str:
    """The official text of the newest edition holding the rule: older wording is not searched."""
    editions = facts.editions
    dated = [
        (max(editions[g] for g in facts.graphs.get((iri, "text", text), set()) if g in editions), text)
        for text in texts
        if facts.graphs.get((iri, "text", text), set()) & editions.keys()
    ]
    if dated:
        return max(dated)[1]
    return "\n\n".join(texts)
