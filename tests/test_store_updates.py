"""A change costs the size of the change: a changed source replaces only its own graph, and the store
(default graph, derived graphs, name index, search index) is then exactly what a build from scratch of
the same sources makes. The store is found by the content of its sources, wherever they are."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from mtgkb.app import build, derivations, open_kb
from mtgkb.core.paths import cache_dir, imports_dir
from mtgkb.kb.mentions import MENTIONS_GRAPH
from mtgkb.lookups.search import search
from mtgkb.lookups.search_index import INDEX_NAME, SPAN
from mtgkb.reasoning.commanders.partner_graph import PAIRS_GRAPH

REPO = Path(__file__).resolve().parents[1]
RULES = "SELECT (COUNT(*) AS ?n) WHERE { ?r mtgkb:ruleNumber ?number ; mtgkb:text ?t }"


@pytest.fixture(scope="session")
def small_pool_file(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An MTGJSON AtomicCards file of a few hundred cards from the snapshot: the partner family,
    Backgrounds, Doctors, ninjutsu and a slice of others, with their rulings."""
    document = json.loads(
        gzip.decompress((shared_data / "cards" / "mtgjson-atomic-merged-20260103.json.gz").read_bytes())
    )
    words = ("Partner", "Ninjutsu", "ninjutsu", "Background", "Doctor's companion", "Friends forever")
    chosen = {
        name: faces
        for name, faces in document["data"].items()
        if any(
            word in (face.get("text") or "") or word in face.get("subtypes", [])
            for face in faces
            for word in words
        )
    }
    chosen.update(dict(list(document["data"].items())[:600]))
    path = tmp_path_factory.mktemp("pool") / "atomic-small.json.gz"
    path.write_bytes(gzip.compress(json.dumps({"meta": document["meta"], "data": chosen}).encode()))
    return path


@pytest.fixture
def pool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_pool_file: Path) -> Path:
    """A copy of ontology/ and data/ (so tests may edit it) with the small card pool imported."""
    from mtgkb.importers.mtgjson import import_mtgjson

    root = tmp_path / "kb"
    for top in ("ontology", "data"):
        shutil.copytree(REPO / top, root / top)
    monkeypatch.setenv("MTGKB_ROOT", str(root))
    monkeypatch.setenv("MTGKB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("MTGKB_DATA_DIR", str(tmp_path / "data"))
    import_mtgjson(small_pool_file)
    return root


def _term(term: Any) -> str:
    import pyoxigraph as ox

    if isinstance(term, ox.BlankNode):
        return "_:"  # blank node labels differ from one load of a file to the next
    if isinstance(term, ox.Triple):
        return f"<< {_term(term.subject)} {_term(term.predicate)} {_term(term.object)} >>"
    return str(term)


def snapshot(kb) -> dict[str, Any]:
    """Everything a store answers from, in a form two builds of the same sources share."""
    quads = sorted(
        f"{_term(q.subject)} {_term(q.predicate)} {_term(q.object)} {_term(q.graph_name)}" for q in kb.store
    )
    with sqlite3.connect(kb.path / INDEX_NAME) as db:
        rows = db.execute(
            "SELECT rowid, name, heading, body, summary, date, iri, label FROM search ORDER BY rowid"
        ).fetchall()
    return {
        "quads": quads,
        "graphs": kb.meta["graphs"],
        "names": kb.names,
        # The rowids themselves differ (an update leaves gaps); the order within each kind may not.
        "search": [(rowid // SPAN, *rest) for rowid, *rest in rows],
    }


def _updated_matches_a_full_build(changed: set[str] | None = None) -> None:
    summary = build()
    assert summary.how == "update", summary
    if changed is not None:
        assert set(summary.changed) == changed
    updated = snapshot(open_kb())
    assert build(force=True).how == "full"
    assert updated == snapshot(open_kb())


def _graph(*parts: str) -> str:
    from mtgkb.kb.iris import mint

    return mint("graph", *parts)


def test_the_partner_derivation_writes_the_graph_the_store_replaces() -> None:
    assert [d.graph for d in derivations()] == [PAIRS_GRAPH]


def test_editing_a_card_replaces_its_graph_only_and_equals_a_full_build(pool: Path) -> None:
    before = open_kb()
    card = pool / "data" / "cards" / "yuriko-the-tigers-shadow.ttl"
    card.write_text(card.read_text().replace("Yuriko, the Tiger's Shadow", "Yuriko, the Edited Shadow"))
    _updated_matches_a_full_build({_graph("data", "cards", "yuriko-the-tigers-shadow")})
    kb = open_kb()
    assert kb.path != before.path and (before.path / "meta.json").exists()  # the old one still answers
    assert [
        "Yuriko, the Edited Shadow",
        "https://w3id.org/mtgkb/card/yuriko-the-tigers-shadow",
        "card",
    ] in kb.names
    hits = search(kb, "edited shadow").groups[0].hits
    assert [hit.iri for hit in hits] == ["https://w3id.org/mtgkb/card/yuriko-the-tigers-shadow"]


def test_sources_changed_by_an_import_while_the_store_is_built_open_the_store_built(
    pool: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mtgkb.kb import build as store_build

    card = pool / "data" / "cards" / "grizzly-bears.ttl"
    real_build = store_build.build

    def rename(old: str, new: str) -> None:
        card.write_text(card.read_text().replace(f'mtgkb:name "{old}', f'mtgkb:name "{new}', 1))

    def build_after_an_edit(*args: Any, **kwargs: Any) -> Any:
        # What a concurrent import does between naming the store of the sources and building it.
        rename("Grizzly Before", "Grizzly Meanwhile")
        return real_build(*args, **kwargs)

    rename("Grizzly Bears", "Grizzly Before")  # the store of these sources is not built yet
    monkeypatch.setattr(store_build, "build", build_after_an_edit)
    names = [name for name, *_ in open_kb().names]
    assert "Grizzly Meanwhile" in names and "Grizzly Before" not in names


def test_after_an_edit_a_lookup_leaves_the_search_index_to_the_first_search(pool: Path) -> None:
    from mtgkb.lookups import search_index

    card = pool / "data" / "cards" / "grizzly-bears.ttl"
    for edit in ("Grizzly Bears Qwertyone", "Grizzly Bears Qwertytwo"):  # two edits before any search
        card.write_text(card.read_text().replace('mtgkb:name "Grizzly Bears', f'mtgkb:name "{edit}', 1))
        kb = open_kb()  # what a lookup does: the store is updated, the index left for later
    assert not (kb.path / INDEX_NAME).exists()
    assert (kb.path / search_index.BASE_NAME).is_file() and (kb.path / search_index.PENDING_NAME).is_file()
    messages: list[Any] = []
    hits = search(kb, "qwertytwo", progress=messages.append).groups[0].hits
    assert [hit.iri for hit in hits] == ["https://w3id.org/mtgkb/card/grizzly-bears"]
    assert any("updating the search index" in str(m) for m in messages)
    assert not any("building the search index" in str(m) for m in messages)
    assert not (kb.path / search_index.BASE_NAME).exists()
    caught_up = snapshot(kb)["search"]
    build(force=True)
    assert snapshot(open_kb())["search"] == caught_up


def test_a_new_partner_card_derives_its_pairs_again(pool: Path) -> None:
    kb = open_kb()
    pairs = kb.meta["graphs"][PAIRS_GRAPH]
    source = (pool / "data" / "cards" / "thrasios-triton-hero.ttl").read_text()
    copy = source.replace("thrasios-triton-hero", "thrasios-second").replace(
        "Thrasios, Triton Hero", "Thrasios Second"
    )
    (pool / "data" / "cards" / "thrasios-second.ttl").write_text(copy)
    _updated_matches_a_full_build()
    assert open_kb().meta["graphs"][PAIRS_GRAPH] > pairs
    # The card loses its partner ability: its pairs go, found from what the store held before the change.
    current = open_kb().path
    for store in current.parent.iterdir():
        if store != current:
            shutil.rmtree(store)  # so that the store with the partner card is the one updated
    (pool / "data" / "cards" / "thrasios-second.ttl").write_text(
        copy.replace("mechanic:partner", "mechanic:ninjutsu")
    )
    _updated_matches_a_full_build()
    assert open_kb().meta["graphs"][PAIRS_GRAPH] == pairs


def test_a_card_unrelated_to_partners_leaves_the_derived_graphs_alone(pool: Path, monkeypatch) -> None:
    derived = []
    monkeypatch.setattr(
        "mtgkb.reasoning.commanders.partner_graph.derive_pairs", lambda kb: derived.append(kb) or ""
    )
    card = pool / "data" / "cards" / "grizzly-bears.ttl"
    card.write_text(card.read_text().replace('"{1}{G}"', '"{2}{G}"'))
    summary = build()
    assert summary.how == "update" and summary.changed == [_graph("data", "cards", "grizzly-bears")]
    assert not derived


def test_renaming_a_mechanic_links_every_ruling_again(pool: Path) -> None:
    mechanic = pool / "data" / "mechanics" / "ninjutsu.ttl"
    text = mechanic.read_text()
    assert 'rdfs:label "Ninjutsu"' in text
    mechanic.write_text(text.replace('rdfs:label "Ninjutsu"', 'rdfs:label "Ninja trick"'))
    _updated_matches_a_full_build()
    assert MENTIONS_GRAPH in open_kb().meta["graphs"]


def test_a_removed_file_takes_out_its_graph_and_only_what_no_other_graph_states(pool: Path) -> None:
    kb = open_kb()
    graph = _graph("data", "cards", "storm-crow")
    assert graph in kb.meta["graphs"]
    (pool / "data" / "cards" / "storm-crow.ttl").unlink()
    _updated_matches_a_full_build({graph})
    assert graph not in open_kb().meta["graphs"]


def test_a_new_rules_edition_is_added_to_the_pool(pool: Path, shared_data: Path) -> None:
    from mtgkb.importers.cr_import import import_rules

    import_rules(shared_data / "rules" / "MagicCompRules-20260417.txt")
    kb = open_kb()
    assert kb.select(RULES)[0]["n"] > 3000
    assert kb.meta["graphs"][_graph("cr", "2026-04-17")] > 20_000
    # Only the edition's own graph and what is derived from it changed: an update, equal to a full build.
    updated = snapshot(kb)
    build(force=True)
    assert snapshot(open_kb()) == updated


def test_replacing_an_import_replaces_its_graph(pool: Path, small_pool_file: Path, tmp_path: Path) -> None:
    from mtgkb.importers.mtgjson import import_mtgjson

    document = json.loads(gzip.decompress(small_pool_file.read_bytes()))
    document["data"] = dict(list(document["data"].items())[20:])  # twenty cards fewer
    smaller = tmp_path / "smaller.json.gz"
    smaller.write_bytes(gzip.compress(json.dumps(document).encode()))
    import_mtgjson(smaller)
    assert [p.name for p in imports_dir().iterdir()] == ["mtgjson.nq.gz"]
    updated = snapshot(open_kb())
    build(force=True)
    assert snapshot(open_kb()) == updated


def test_imports_are_kept_compressed_and_an_earlier_plain_file_still_loads(pool: Path) -> None:
    packed = imports_dir() / "mtgjson.nq.gz"
    assert packed.read_bytes()[:2] == b"\x1f\x8b"
    cards = open_kb().meta["graphs"][_graph("mtgjson")]
    plain = imports_dir() / "mtgjson.nq"
    plain.write_bytes(gzip.decompress(packed.read_bytes()))
    packed.unlink()
    kb = open_kb()
    assert kb.meta["graphs"][_graph("mtgjson")] == cards


def test_a_moved_cache_and_data_directory_open_without_a_rebuild(
    pool: Path, tmp_path: Path, monkeypatch
) -> None:
    before = open_kb()
    answer = before.select(RULES)
    moved = tmp_path / "moved"
    moved.mkdir()
    for name in ("kb", "cache", "data"):
        shutil.move(tmp_path / name, moved / name)
    monkeypatch.setenv("MTGKB_ROOT", str(moved / "kb"))
    monkeypatch.setenv("MTGKB_CACHE_DIR", str(moved / "cache"))
    monkeypatch.setenv("MTGKB_DATA_DIR", str(moved / "data"))
    messages: list[str] = []
    kb = open_kb(messages.append)
    assert messages == []  # neither built nor updated
    assert kb.path.name == before.path.name and kb.select(RULES) == answer
    # A copy (new modification times: every file is hashed again) finds its store too.
    copy = tmp_path / "copy"
    shutil.copytree(moved, copy)
    monkeypatch.setenv("MTGKB_ROOT", str(copy / "kb"))
    monkeypatch.setenv("MTGKB_CACHE_DIR", str(copy / "cache"))
    monkeypatch.setenv("MTGKB_DATA_DIR", str(copy / "data"))
    assert open_kb(messages.append).path.name == before.path.name and messages == []


def test_an_edit_of_the_same_size_and_time_is_still_noticed(pool: Path) -> None:
    card = pool / "data" / "cards" / "grizzly-bears.ttl"
    stat = card.stat()
    open_kb()
    card.write_text(card.read_text().replace('"{1}{G}"', '"{1}{B}"'))
    os.utime(card, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert card.stat().st_size == stat.st_size
    rows = open_kb().select('SELECT ?c WHERE { ?c mtgkb:manaCost "{1}{B}" ; mtgkb:name "Grizzly Bears" }')
    assert rows


def test_an_update_killed_midway_leaves_the_previous_store_answering(pool: Path) -> None:
    before = open_kb()
    cards = before.select("SELECT (COUNT(*) AS ?n) WHERE { ?c a mtgkb:Card }")
    card = pool / "data" / "cards" / "grizzly-bears.ttl"
    card.write_text(card.read_text().replace("Grizzly Bears", "Grizzly Bears Edited"))
    killed = subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                """
                import os, signal
                from mtgkb import app
                from mtgkb.kb import graph_union
                real = graph_union.load_source
                def die(*args, **kwargs):
                    real(*args, **kwargs)
                    os.kill(os.getpid(), signal.SIGKILL)
                graph_union.load_source = die
                app.open_kb()
                """
            ),
        ],
        env=os.environ.copy(),
        capture_output=True,
        timeout=300,
    )
    assert killed.returncode == -9, killed.stderr
    assert list((cache_dir() / "tmp").iterdir())  # what the killed update left
    assert before.select("SELECT (COUNT(*) AS ?n) WHERE { ?c a mtgkb:Card }") == cards
    kb = open_kb()
    assert kb.select('SELECT ?c WHERE { ?c mtgkb:name "Grizzly Bears Edited" }')
    assert not list((cache_dir() / "tmp").iterdir())


def test_a_full_build_is_chosen_when_most_of_the_pool_changed(pool: Path, small_pool_file: Path) -> None:
    from mtgkb.importers.mtgjson import import_mtgjson

    document = json.loads(gzip.decompress(small_pool_file.read_bytes()))
    document["data"] = dict(list(document["data"].items())[: len(document["data"]) // 2])
    half = small_pool_file.with_name("half.json.gz")
    half.write_bytes(gzip.compress(json.dumps(document).encode()))
    messages: list[Any] = []
    import_mtgjson(half, messages.append)
    texts = [m for m in messages if isinstance(m, str)]
    assert any(m.startswith("building the knowledge base") for m in texts), texts
    assert not any(m.startswith("updating the knowledge base") for m in texts), texts


def test_an_update_whose_log_is_large_is_flushed_so_an_open_does_not_replay_it(tmp_path: Path) -> None:
    """What an update writes quad by quad stays in RocksDB's write-ahead log, which every read-only
    open replays: it is flushed when the quads counted are many, or when the log is over 1 MB whatever
    the count said (re-linking the rulings after an edit to a mechanic left 7 MB, 100 ms an open)."""
    from mtgkb.kb.build import flush_wanted

    folder = tmp_path / "oxigraph"
    folder.mkdir()
    (folder / "LOG").write_bytes(b"x" * (2 << 20))  # RocksDB's info log: not replayed
    assert not flush_wanted(100, folder)
    assert flush_wanted(10**6, folder)
    (folder / "000487.log").write_bytes(b"x" * (2 << 20))
    assert flush_wanted(100, folder)
