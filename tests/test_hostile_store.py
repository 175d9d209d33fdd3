"""The store as a hostile world treats it: commands started together, files of the store damaged
behind its back, imports into folders that cannot be written, Ctrl-C at the wrong moment."""

from __future__ import annotations

import errno
import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mtgkb.app import build, open_kb
from mtgkb.core import nquads
from mtgkb.core.errors import StoreError
from mtgkb.core.paths import cache_dir, imports_dir

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
CARDS = "SELECT (COUNT(*) AS ?n) WHERE { ?c a mtgkb:Card }"
RULES = "SELECT (COUNT(*) AS ?n) WHERE { ?r mtgkb:ruleNumber ?number ; mtgkb:text ?t }"


@pytest.fixture
def root(user_dirs, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tiny knowledge base of its own (MTGKB_ROOT), in the test's own user directories."""
    root = user_dirs.base / "kb"
    (root / "ontology").mkdir(parents=True)
    (root / "data").mkdir(parents=True)
    (root / "ontology" / "mtgkb.ttl").write_text(ONTOLOGY_TTL)
    (root / "data" / "grizzly-bears.ttl").write_text(CARD_TTL)
    monkeypatch.setenv("MTGKB_ROOT", str(root))
    return root


def test_commands_waiting_for_a_build_use_it_instead_of_building_again(root: Path) -> None:
    # Hold the build lock so that every command finds no store and queues behind the lock, as eight
    # commands started at once on an empty cache do; then let them go.
    cache_dir().mkdir(parents=True)
    code = (
        "import sys\nfrom mtgkb.app import open_kb\n"
        "kb = open_kb(lambda m: print(m, file=sys.stderr))\nprint(kb.path)"
    )
    with open(cache_dir() / "build.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        processes = [
            subprocess.Popen(
                [sys.executable, "-c", code],
                env=os.environ.copy(),
                text=True,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            for _ in range(4)
        ]
        time.sleep(3)
        fcntl.flock(lock, fcntl.LOCK_UN)
    results = [process.communicate(timeout=120) for process in processes]
    assert all(process.returncode == 0 for process in processes), results
    assert len({out for out, _ in results}) == 1
    builds = sum(err.count("building the knowledge base") for _, err in results)
    assert builds == 1, [err for _, err in results]


def test_build_is_not_repeated_for_unchanged_sources_unless_forced(root: Path) -> None:
    first = build()
    again = build()
    assert not again.rebuilt and again.path == first.path and again.graphs == first.graphs
    assert json.loads((first.path / "meta.json").read_text())["built"] == open_kb().meta["built"]
    built = open_kb().meta["built"]
    forced = build(force=True)
    assert forced.rebuilt and open_kb().meta["built"] > built


@pytest.mark.parametrize("name", ["names.json", "meta.json"])
def test_a_truncated_file_of_the_store_is_noticed_and_the_store_rebuilt(
    run_cli, root: Path, name: str
) -> None:
    kb = open_kb()
    path = kb.path
    text = (path / name).read_text()
    del kb
    (path / name).write_text(text[: len(text) // 2])
    healed = open_kb()
    assert healed.select(CARDS)[0]["n"] == 1
    assert ["Grizzly Bears", "https://w3id.org/mtgkb/card/grizzly-bears", "card"] in healed.names
    result = run_cli("stats", "--json")
    assert result.exit_code == 0, result.output


def test_a_name_index_damaged_after_opening_is_a_message_and_heals_on_the_next_command(root: Path) -> None:
    kb = open_kb()
    names = kb.path / "names.json"
    names.write_text("x" * names.stat().st_size)  # same size: only reading it can tell
    with pytest.raises(StoreError) as caught:
        kb.names  # noqa: B018 - the property reads the file
    assert "damaged" in caught.value.message and "again" in caught.value.hint
    assert ["Grizzly Bears", "https://w3id.org/mtgkb/card/grizzly-bears", "card"] in open_kb().names


def test_an_import_into_an_unwritable_data_directory_is_a_clear_error(
    run_cli, root: Path, tmp_path: Path, shared_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = str(shared_data / "rules" / "MagicCompRules-20260417.txt")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("MTGKB_DATA_DIR", str(blocker / "data"))
    result = run_cli("import", "rules", rules)
    assert result.exit_code == 2, result.output
    assert "cannot write the imported data" in result.stderr and "MTGKB_DATA_DIR" in result.stderr

    # The permission case itself (this test may run as root, whom chmod does not stop).
    monkeypatch.setenv("MTGKB_DATA_DIR", str(tmp_path / "data"))

    def refused(path, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(nquads, "open", refused, raising=False)
    result = run_cli("import", "rules", rules)
    assert result.exit_code == 2, result.output
    assert "Permission denied" in result.stderr and "Traceback" not in result.output
    assert not list(imports_dir().iterdir())


def _interrupt_import(shared_data: Path, moment) -> tuple[subprocess.CompletedProcess, float]:
    card_file = shared_data / "cards" / "mtgjson-atomic-merged-20260103.json.gz"
    process = subprocess.Popen(
        [sys.executable, "-m", "mtgkb", "import", "mtgjson", "-q", str(card_file)],
        env=os.environ.copy(),
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 300
    try:
        while not moment():
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the import never reached the moment to interrupt it"
            time.sleep(0.02)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def test_ctrl_c_while_an_import_writes_exits_130_and_imports_nothing(root: Path, shared_data: Path) -> None:
    before = open_kb()
    cards = before.select(CARDS)[0]["n"]

    def writing() -> bool:
        return any(p.stat().st_size > 1_000_000 for p in imports_dir().glob(".mtgjson.nq.*.tmp"))

    imports_dir().mkdir(parents=True)
    result = _interrupt_import(shared_data, writing)
    assert result.returncode == 130, result.stderr
    assert "Aborted" not in result.stderr and "Traceback" not in result.stderr
    assert "nothing was imported" in result.stderr
    assert not list(imports_dir().iterdir())
    assert open_kb().select(CARDS)[0]["n"] == cards


def test_ctrl_c_while_the_store_rebuilds_exits_130_and_reports_the_import_applied(
    root: Path, shared_data: Path
) -> None:
    open_kb()
    result = _interrupt_import(shared_data, lambda: (imports_dir() / "mtgjson.nq.gz").exists())
    assert result.returncode == 130, result.stderr
    assert "Aborted" not in result.stderr and "Traceback" not in result.stderr
    assert "mtgjson import is applied" in result.stderr and "mtgjson.nq" in result.stderr
    assert open_kb().select(CARDS)[0]["n"] > 20_000


def test_a_full_disk_during_an_import_or_a_build_is_a_message_and_keeps_the_store(
    run_cli, root: Path, shared_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mtgkb.kb import build as store_module

    rules = str(shared_data / "rules" / "MagicCompRules-20260417.txt")
    previous = open_kb()

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(nquads, "open", full, raising=False)
        result = run_cli("import", "rules", rules)
    assert result.exit_code == 2 and "No space left on device" in result.stderr, result.output
    with monkeypatch.context() as patch:
        patch.setattr(store_module, "_load_source", full)
        result = run_cli("import", "rules", rules)
    assert result.exit_code == 2 and "No space left on device" in result.stderr, result.output
    assert "check free space" in result.stderr and "rules import is saved in" in result.stderr
    # The second import's file is in place; the store it could not build is rebuilt on the next use,
    # and the one before it answered all along.
    assert previous.select(CARDS)[0]["n"] == 1
    assert open_kb().select(RULES)[0]["n"] > 3000


def _partial_build(name: str) -> Path:
    """A folder such as a killed build leaves in the cache's tmp: a partial store."""
    folder = cache_dir() / "tmp" / name
    (folder / "oxigraph").mkdir(parents=True)
    (folder / "oxigraph" / "000012.sst").write_bytes(b"partial" * 1000)
    return folder


def test_partial_stores_of_killed_builds_are_removed_by_the_next_command(root: Path) -> None:
    open_kb()  # the store is current: the next command builds nothing
    leftovers = [_partial_build(f"0123456789abcdef{n:04}-{999_000 + n}") for n in range(5)]
    kb = open_kb()
    assert kb.select(CARDS)[0]["n"] == 1
    assert not any(folder.exists() for folder in leftovers)


def test_the_folder_of_a_build_in_progress_is_left_alone(root: Path) -> None:
    open_kb()
    building = _partial_build(f"fedcba9876543210abcd-{os.getpid()}")
    # Another process building holds the build lock for as long as its folder exists.
    with open(cache_dir() / "build.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            open_kb()
            assert building.is_dir()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    open_kb()
    assert not building.exists()


def test_a_build_killed_mid_way_leaves_nothing_after_the_next_command(root: Path, shared_data: Path) -> None:
    from mtgkb.importers.cr_import import import_rules

    import_rules(shared_data / "rules" / "MagicCompRules-20260417.txt")
    for _ in range(2):
        process = subprocess.Popen(
            [sys.executable, "-m", "mtgkb", "build", "--full", "-q"],
            env=os.environ.copy(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 120
        try:
            while not any((cache_dir() / "tmp").glob("*/oxigraph")):
                assert process.poll() is None, "the build ended before it could be killed"
                assert time.monotonic() < deadline
                time.sleep(0.01)
            process.kill()
        finally:
            process.wait()
        assert any((cache_dir() / "tmp").iterdir())
    assert open_kb().select(RULES)[0]["n"] > 3000
    assert not list((cache_dir() / "tmp").iterdir())
