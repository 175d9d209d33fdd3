"""Bytes damaged inside the store's files, sizes unchanged: ``mtgkb validate --store`` finds the damage
in every file and sets the store aside, commands that meet damage say so instead of a traceback, and
the next command builds the store again. Same-size garbage in the name index is noticed by content.

The store is the fixture knowledge base's, built in the test's own cache; every command that reads a
damaged store runs as its own process under a memory cap (damage can make RocksDB allocate without
end), so a runaway fails the test rather than hurting the machine."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURE_KB
from processes import run_mtgkb_capped

COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"


@pytest.fixture
def fixture_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store of the fixture knowledge base in a cache of the test's own (the environment points there
    for the test and its subprocesses); its folder."""
    for key, value in _env(tmp_path).items():
        monkeypatch.setenv(key, value)
    done = run_mtgkb_capped("build", "--json")
    assert done.returncode == 0, done.stderr
    return Path(json.loads(done.stdout)["path"])


def _env(tmp_path: Path) -> dict[str, str]:
    return {
        "MTGKB_ROOT": str(FIXTURE_KB),
        "MTGKB_DATA_DIR": str(FIXTURE_KB),
        "MTGKB_CACHE_DIR": str(tmp_path),
    }


def _flip(path: Path, every: int | None = None, count: int = 4, seed: int = 7) -> None:
    """Damage ``path`` in place, its size unchanged: ``count`` bytes at random places, or every
    ``every``-th byte."""
    data = bytearray(path.read_bytes())
    places = (
        range(0, len(data), every)
        if every
        else random.Random(seed).sample(range(len(data)), min(count, len(data)))
    )
    for place in places:
        data[place] ^= 0xA5
    path.write_bytes(bytes(data))


def _store_files(store: Path) -> list[str]:
    digests = json.loads((store / "meta.json").read_text())["digests"]
    return sorted(digests)


def test_a_sound_store_validates(fixture_store: Path) -> None:
    done = run_mtgkb_capped("validate", "--store", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    check = json.loads(done.stdout)
    assert (
        check["problems"] == []
        and check["quads"] > 400
        and check["files"] == len(_store_files(fixture_store))
    )


def test_damage_in_any_file_of_the_store_is_found_and_the_store_rebuilt(
    fixture_store: Path, tmp_path: Path
) -> None:
    pristine = tmp_path / "pristine"
    shutil.copytree(fixture_store, pristine)
    files = _store_files(fixture_store)
    assert "names.json" in files and sum(name.endswith(".sst") for name in files) >= 5
    for name in files:
        if not (pristine / name).stat().st_size:
            continue  # an empty file cannot be damaged without changing its size
        shutil.rmtree(fixture_store, ignore_errors=True)
        shutil.copytree(pristine, fixture_store)
        _flip(fixture_store / name)
        done = run_mtgkb_capped("validate", "--store", "--json")
        assert done.returncode == 1, (name, done.stdout, done.stderr)
        check = json.loads(done.stdout)
        assert name in check["damaged_files"] and str(fixture_store) in check["set_aside"], (name, check)
        assert not (fixture_store / "meta.json").exists()
    # The next command builds the store again from scratch, and it is sound.
    done = run_mtgkb_capped("stats", "--json")
    assert done.returncode == 0, done.stderr
    assert "from scratch" in done.stderr
    assert run_mtgkb_capped("validate", "--store").returncode == 0


def test_a_command_meeting_damage_says_so_and_the_next_one_rebuilds(fixture_store: Path) -> None:
    for name in _store_files(fixture_store):
        if name.endswith(".sst"):
            _flip(fixture_store / name, every=64)
    done = run_mtgkb_capped("sparql", COUNT)
    # Either the damage is met at opening, and the store is rebuilt at once, or it is met by the query.
    if done.returncode != 0:
        assert done.returncode == 2, done.stderr
        assert "is damaged" in done.stderr and "Traceback" not in done.stderr
        assert "build --full" in done.stderr
        done = run_mtgkb_capped("sparql", COUNT)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[-1]) > 200
    assert run_mtgkb_capped("validate", "--store").returncode == 0


@pytest.mark.parametrize("seed", range(6))
def test_commands_on_a_randomly_damaged_store_answer_or_say_so(fixture_store: Path, seed: int) -> None:
    rng = random.Random(seed)
    files = [n for n in _store_files(fixture_store) if n.startswith("oxigraph/")]
    name = rng.choice([n for n in files if (fixture_store / n).stat().st_size])
    _flip(fixture_store / name, count=8, seed=seed)
    for command in (["card", "ninja of the deep"], ["sparql", COUNT], ["search", "ninja"], ["stats"]):
        done = run_mtgkb_capped(*command)
        assert done.returncode in (0, 2), (name, command, done.stderr)
        assert "Traceback" not in done.stderr, (name, command, done.stderr)
    # The damage was met (and the store rebuilt), or it was not read at all: then the check finds it.
    done = run_mtgkb_capped("validate", "--store")
    assert done.returncode in (0, 1), done.stderr
    assert run_mtgkb_capped("stats").returncode == 0
    assert run_mtgkb_capped("validate", "--store").returncode == 0


def _same_size(text: str, size: int) -> bytes:
    data = text.encode()
    assert len(data) <= size
    return data + b" " * (size - len(data))


@pytest.mark.parametrize(
    "garbage",
    [
        "swap",  # valid JSON, same shape, one name changed: only its digest tells
        "[[1, 2, 3]]",
        '{"names": []}',
        '[["Ninja of the Deep Hours", null, "card"]]',
    ],
)
def test_same_size_garbage_in_the_name_index_is_noticed_and_healed(fixture_store: Path, garbage: str) -> None:
    names = fixture_store / "names.json"
    size = names.stat().st_size
    if garbage == "swap":
        text = names.read_text()
        assert "Ninja of the Deep Hours" in text
        names.write_bytes(text.replace("Ninja of the Deep Hours", "Ninja of the Deep Houts").encode())
    else:
        names.write_bytes(_same_size(garbage, size))
    assert names.stat().st_size == size
    # A prefix, not the whole name: only then is the name index read (a whole name is looked up in the store).
    done = run_mtgkb_capped("card", "ninja of the deep")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "name index" in done.stderr and "damaged" in done.stderr and "no card named" not in done.stderr
    assert "Traceback" not in done.stderr
    done = run_mtgkb_capped("card", "ninja of the deep")
    assert done.returncode == 0, done.stderr
    assert "Ninja of the Deep Hours" in done.stdout


def test_a_name_index_of_an_earlier_version_is_checked_for_its_shape(fixture_store: Path) -> None:
    meta = json.loads((fixture_store / "meta.json").read_text())
    del meta["digests"]  # as a store built before digests were recorded
    (fixture_store / "meta.json").write_text(json.dumps(meta))
    names = fixture_store / "names.json"
    names.write_bytes(_same_size('[["Ninja of the Deep Hours", 5, "card"]]', names.stat().st_size))
    done = run_mtgkb_capped("card", "ninja of the deep")
    assert done.returncode == 2 and "name index" in done.stderr and "Traceback" not in done.stderr
    done = run_mtgkb_capped("validate", "--store")
    assert done.returncode == 0, done.stdout  # rebuilt by the command before, with digests
    assert "earlier version" not in done.stdout


def test_an_updated_store_reuses_the_digests_of_the_files_it_shares_and_damage_to_them_is_found_in_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb = tmp_path / "kb"
    shutil.copytree(FIXTURE_KB, kb)
    env = {"MTGKB_ROOT": str(kb), "MTGKB_DATA_DIR": str(kb), "MTGKB_CACHE_DIR": str(tmp_path / "cache")}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    first = json.loads(run_mtgkb_capped("build", "--json").stdout)
    # A small new file: the store is updated from the previous one (a checkpoint of its files).
    note = '@prefix card: <https://w3id.org/mtgkb/card/> .\ncard:yuriko-the-tigers-shadow card:note "x" .\n'
    (kb / "data" / "note.ttl").write_text(note)
    second = json.loads(run_mtgkb_capped("build", "--json").stdout)
    assert second["how"] == "update", second
    old, new = Path(first["path"]), Path(second["path"])
    before = json.loads((old / "meta.json").read_text())["digests"]
    after = json.loads((new / "meta.json").read_text())["digests"]
    shared = [name for name in after if name in before and after[name][2] == before[name][2]]
    assert shared, "the update shares no file with the store it started from"
    assert all(after[name][1] == before[name][1] for name in shared)
    assert run_mtgkb_capped("validate", "--store").returncode == 0

    name = next(n for n in shared if n.endswith(".sst") and (new / n).stat().st_size)
    _flip(new / name)  # the same inode: both stores hold the damage
    done = run_mtgkb_capped("validate", "--store", "--json")
    assert done.returncode == 1, done.stdout
    assert sorted(json.loads(done.stdout)["set_aside"]) == sorted([str(old), str(new)])
    # Neither is used again: the next command builds from scratch, not from the older store.
    done = run_mtgkb_capped("stats")
    assert done.returncode == 0 and "from scratch" in done.stderr, done.stderr
    assert run_mtgkb_capped("validate", "--store").returncode == 0


def test_reading_the_quads_runs_apart_and_a_runaway_is_a_finding(
    fixture_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Damage RocksDB does not notice can make reading allocate without end: the reading runs in a
    # process of its own under a memory cap, so the check reports it. A cap too small to start with
    # plays the runaway here.
    from mtgkb.kb import store_files

    meta = json.loads((fixture_store / "meta.json").read_text())
    assert store_files.check_store_files(fixture_store, meta).sound
    monkeypatch.setattr(store_files, "_SCAN_MEMORY", 32 << 20)
    check = store_files.check_store_files(fixture_store, meta)
    assert not check.sound and check.quads == 0
    assert any(problem.startswith("oxigraph: ") for problem in check.problems), check.problems
