"""The store is a cache: built on first use, rebuilt when a source changes, never left half-built."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from unittest import mock

import pytest

from mtgkb.app import open_kb
from mtgkb.core.errors import StoreError
from mtgkb.kb import build as store_module
from mtgkb.kb.sources import all_sources, fingerprint

CARD_TTL = """
@prefix mtgkb: <https://w3id.org/mtgkb/vocab#> .
@prefix card: <https://w3id.org/mtgkb/card/> .
card:grizzly-bears a mtgkb:Card ; mtgkb:name "Grizzly Bears" ; mtgkb:manaCost "{1}{G}" .
"""
ONTOLOGY_TTL = """
@prefix mtgkb: <https://w3id.org/mtgkb/vocab#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
mtgkb:Card a owl:Class .
"""


@pytest.fixture
def root(user_dirs, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tiny knowledge base of its own (MTGKB_ROOT), in the test's own user directories."""
    root = user_dirs.base / "kb"
    (root / "ontology").mkdir(parents=True)
    (root / "data" / "cards").mkdir(parents=True)
    (root / "ontology" / "mtgkb.ttl").write_text(ONTOLOGY_TTL)
    (root / "data" / "cards" / "grizzly-bears.ttl").write_text(CARD_TTL)
    monkeypatch.setenv("MTGKB_ROOT", str(root))
    return root


def add_storm_crow(root: Path) -> None:
    text = CARD_TTL.replace("grizzly-bears", "storm-crow").replace("Grizzly Bears", "Storm Crow")
    (root / "data" / "cards" / "storm-crow.ttl").write_text(text)


def card_names(kb) -> list[str]:
    return [row["name"] for row in kb.select("SELECT ?name WHERE { ?c a mtgkb:Card ; mtgkb:name ?name }")]


def test_each_source_file_gets_its_own_named_graph(root: Path) -> None:
    kb = open_kb()
    graphs = kb.meta["graphs"]
    assert set(graphs) == {
        "https://w3id.org/mtgkb/graph/ontology/mtgkb",
        "https://w3id.org/mtgkb/graph/data/cards/grizzly-bears",
    }
    assert graphs["https://w3id.org/mtgkb/graph/data/cards/grizzly-bears"] == 3
    assert card_names(kb) == ["Grizzly Bears"]


def test_editing_data_rebuilds_on_next_use(root: Path) -> None:
    first = open_kb()
    card_file = root / "data" / "cards" / "grizzly-bears.ttl"
    card_file.write_text(CARD_TTL.replace("Grizzly Bears", "Grizzly Bears Renamed"))
    os.utime(card_file, ns=(1, 1))
    second = open_kb()
    assert second.path != first.path
    assert card_names(second) == ["Grizzly Bears Renamed"]


def test_reopening_an_unchanged_store_does_not_rebuild(root: Path) -> None:
    built = open_kb().meta["built"]
    assert open_kb().meta["built"] == built


def test_a_failed_build_leaves_the_previous_store_usable(root: Path, monkeypatch) -> None:
    previous = open_kb()
    add_storm_crow(root)

    def interrupted(*args):
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(store_module, "_load_source", interrupted)
        with pytest.raises(KeyboardInterrupt):
            open_kb()
    assert (previous.path / "meta.json").exists()
    assert card_names(previous) == ["Grizzly Bears"]
    assert sorted(card_names(open_kb())) == ["Grizzly Bears", "Storm Crow"]


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=os.environ.copy(),
        text=True,
        capture_output=True,
        timeout=120,
    )


def test_a_build_killed_midway_is_recovered_by_the_next_run(root: Path) -> None:
    add_storm_crow(root)
    killed = _run(
        """
        import os, signal
        from mtgkb import app
        from mtgkb.kb import build as store
        real = store._load_source
        calls = []
        def load_then_die(s, source, progress=None):
            calls.append(source)
            if len(calls) == 2:
                os.kill(os.getpid(), signal.SIGKILL)
            real(s, source, progress)
        store._load_source = load_then_die
        app.open_kb()
        """
    )
    assert killed.returncode == -9
    assert list((Path(os.environ["MTGKB_CACHE_DIR"]) / "tmp").iterdir())  # the half-built store
    kb = open_kb()
    assert sorted(card_names(kb)) == ["Grizzly Bears", "Storm Crow"]
    assert not list((Path(os.environ["MTGKB_CACHE_DIR"]) / "tmp").iterdir())


def test_two_processes_started_at_once_build_one_store(root: Path) -> None:
    code = "from mtgkb.app import open_kb; kb = open_kb(); print(kb.path, len(kb.names))"
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", code], env=os.environ.copy(), text=True, stdout=subprocess.PIPE
        )
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=120)[0].split() for p in processes]
    assert all(p.returncode == 0 for p in processes)
    assert outputs[0] == outputs[1]
    assert len(list((Path(os.environ["MTGKB_CACHE_DIR"]) / "stores").iterdir())) == 1


def test_an_empty_store_directory_is_rebuilt(root: Path) -> None:
    key = fingerprint(all_sources())
    (Path(os.environ["MTGKB_CACHE_DIR"]) / "stores" / key).mkdir(parents=True)
    assert card_names(open_kb()) == ["Grizzly Bears"]


def test_a_corrupted_store_is_rebuilt(root: Path) -> None:
    kb = open_kb()
    path = kb.path
    del kb
    for file in (path / "oxigraph").iterdir():
        if file.name in {"CURRENT", "IDENTITY"} or file.name.startswith("MANIFEST"):
            file.write_bytes(b"garbage")
    assert card_names(open_kb()) == ["Grizzly Bears"]


def test_an_unwritable_cache_directory_is_a_clear_error(root: Path, monkeypatch) -> None:
    blocker = root / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("MTGKB_CACHE_DIR", str(blocker / "cache"))
    with pytest.raises(StoreError) as caught:
        open_kb()
    assert "cache directory" in caught.value.message
    assert "MTGKB_CACHE_DIR" in caught.value.hint


def test_a_broken_data_file_names_the_file(root: Path) -> None:
    (root / "data" / "cards" / "broken.ttl").write_text("this is not turtle .")
    with pytest.raises(StoreError) as caught:
        open_kb()
    assert "broken.ttl" in caught.value.message


def test_the_name_index_lists_cards(root: Path) -> None:
    kb = open_kb()
    assert ["Grizzly Bears", "https://w3id.org/mtgkb/card/grizzly-bears", "card"] in kb.names
    assert json.loads((kb.path / "meta.json").read_text())["fingerprint"] == kb.path.name


def test_the_default_graph_copy_of_an_imported_file_drops_each_line_s_graph_name() -> None:
    import io

    from mtgkb.kb.graph_union import _slices

    text = b'<s> <p> "a <b> ." <g> .\n<s> <p> <o> <g> .'  # the last line lacks its line break
    expected = [b'<s> <p> "a <b> ." .', b'<s> <p> "a <b> ." <g> .', b"<s> <p> <o> .", b"<s> <p> <o> <g> ."]
    for size in (4, 7, 30, 1 << 20):  # slices cut mid-line, a line longer than a block, one block
        with mock.patch("mtgkb.kb.graph_union.SLICE", size):
            pieces = list(_slices(io.BytesIO(text)))
        assert all(piece.endswith(b"\n") for piece in pieces)
        assert sorted(b"".join(pieces).splitlines()) == expected


def test_slices_loaded_side_by_side_hold_every_quad_and_a_bad_slice_fails_the_load() -> None:
    import pyoxigraph as ox

    from mtgkb.kb.graph_union import _load_in_parallel

    pieces = [f"<s{n}> <p> <o{n}> <g> .\n<s{n}> <p> <o{n}> .\n".encode() for n in range(9)]
    store = ox.Store()
    _load_in_parallel(store, iter(pieces))
    assert len(store) == 18
    assert len(list(store.quads_for_pattern(None, None, None, ox.DefaultGraph()))) == 9
    with pytest.raises(SyntaxError):
        _load_in_parallel(ox.Store(), iter([*pieces[:3], b"<s> <p> .\n", *pieces[3:]]))


def _search_rows(folder: Path) -> list[tuple]:
    import sqlite3

    db = sqlite3.connect(folder / "search.sqlite")
    try:
        return db.execute(
            "SELECT rowid, name, heading, body, summary, date, iri FROM search ORDER BY rowid"
        ).fetchall()
    finally:
        db.close()


def test_the_search_index_built_beside_the_derivations_is_the_one_built_in_process(
    user_dirs, monkeypatch: pytest.MonkeyPatch
) -> None:
    import multiprocessing

    from mtgkb.app import build

    here = _search_rows(build(force=True).path)  # the shipped files alone are too few to start a process
    assert len(here) > 100  # the shipped cards, rules and rulings
    monkeypatch.setattr(store_module, "_INDEXES_APART_FROM", 0)
    in_process = store_module._build_side_index

    def not_here(*args: object) -> None:
        raise AssertionError("the index was built by the build's own process, not beside it")

    monkeypatch.setattr(store_module, "_build_side_index", not_here)  # the other process has its own
    beside = _search_rows(build(force=True).path)
    assert beside == here
    monkeypatch.setattr(store_module, "_build_side_index", in_process)

    def no_processes(*args: object, **kwargs: object) -> None:
        raise OSError("this platform lacks a functioning sem_open implementation")

    # Where no other process can be started, the index is built in this one, after the derivations.
    monkeypatch.setattr(multiprocessing, "get_context", no_processes)
    assert _search_rows(build(force=True).path) == beside


def _fails_in_another_process(kb, progress) -> None:
    import multiprocessing

    if multiprocessing.parent_process() is not None:
        raise RuntimeError("this index cannot be built in another process")
    (kb.path / "side-index.txt").write_text("built by the build's own process")


def test_a_side_index_whose_process_failed_is_built_by_the_build_itself(
    user_dirs, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mtgkb.app import derivations
    from mtgkb.kb.build import SideIndex

    monkeypatch.setattr(store_module, "_INDEXES_APART_FROM", 0)

    index = SideIndex("a side index", _fails_in_another_process, lambda *args: None)
    summary = store_module.build(force=True, derivations=derivations(), indexes=(index,))
    assert (summary.path / "side-index.txt").read_text() == "built by the build's own process"
