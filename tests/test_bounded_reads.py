"""Inputs that never end or unpack to gigabytes are read up to a limit and refused with a message
naming the input and the limit: ``/dev/zero`` as a situation, as standard input, behind a ``.rq``
symlink; a small gzip that unpacks to gigabytes. Each runs as its own process under a memory cap, so
a broken limit fails the test rather than filling the machine."""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

import pytest
from processes import run_mtgkb_capped


def _refused(done, what: str, limit: str, variable: str) -> None:
    assert done.returncode == 2, done.stderr[-2000:]
    assert what in done.stderr and f"larger than {limit}" in done.stderr, done.stderr
    assert variable in done.stderr and "Traceback" not in done.stderr and "MemoryError" not in done.stderr


@pytest.mark.parametrize(
    "command",
    [
        ["can-activate", "Ninja of the Deep Hours"],
        ["options"],
        ["copy", "Clone", "--target", "Grizzly Bears"],
    ],
)
def test_a_situation_that_never_ends_is_refused(kb, command: list[str]) -> None:
    done = run_mtgkb_capped(*command, "--situation", "/dev/zero")
    _refused(done, "/dev/zero", "4 MB", "MTGKB_MAX_SITUATION_MB")
    with open("/dev/zero", "rb") as zero:
        done = run_mtgkb_capped(*command, "--situation", "-", stdin=zero)
    _refused(done, "standard input", "4 MB", "MTGKB_MAX_SITUATION_MB")


def test_a_query_that_never_ends_is_refused(kb, tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zero:
        done = run_mtgkb_capped("sparql", "-", stdin=zero)
    _refused(done, "standard input", "16 MB", "MTGKB_MAX_QUERY_MB")
    link = tmp_path / "everything.rq"
    link.symlink_to("/dev/zero")
    done = run_mtgkb_capped("sparql", str(link))
    _refused(done, "everything.rq", "16 MB", "MTGKB_MAX_QUERY_MB")


def _gzip_bomb(path: Path, unpacked: int) -> None:
    """A gzip file of ``unpacked`` zero bytes in a few megabytes: one member of 64 MB of zeros,
    repeated (a reader unpacks every member of a gzip file)."""
    member = gzip.compress(bytes(64 << 20), compresslevel=9, mtime=0)
    assert zlib.decompress(member, 31)[:1] == b"\x00"
    with open(path, "wb") as out:
        for _ in range(unpacked // (64 << 20)):
            out.write(member)


def test_a_gzip_that_unpacks_to_gigabytes_is_refused(user_dirs, tmp_path: Path) -> None:
    bomb = tmp_path / "AtomicCards.json.gz"
    _gzip_bomb(bomb, 2 << 30)
    assert bomb.stat().st_size < 4 << 20
    for importer in ("mtgjson", "scryfall"):
        done = run_mtgkb_capped("import", importer, str(bomb))
        _refused(done, f"{bomb} (unpacked)", "512 MB", "MTGKB_MAX_IMPORT_MB")
    assert not (user_dirs.data / "imports").exists() or not list((user_dirs.data / "imports").iterdir())


def test_the_limits_can_be_raised_or_lowered(user_dirs, tmp_path: Path, shared_data: Path) -> None:
    rules = shared_data / "rules" / "MagicCompRules-20260417.txt"
    done = run_mtgkb_capped("import", "rules", str(rules), env={"MTGKB_MAX_IMPORT_MB": "0.5"})
    _refused(done, str(rules), "524,288 bytes", "MTGKB_MAX_IMPORT_MB")
    done = run_mtgkb_capped("import", "rules", str(rules), "-q", env={"MTGKB_MAX_IMPORT_MB": "2"})
    assert done.returncode == 0, done.stderr
