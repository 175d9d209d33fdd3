"""Digests of a finished store's files, and the check that reads all of it (``mtgkb validate --store``).

RocksDB checks a block's checksum when it reads the block, and only then: damage in a part of the
store that no command has read yet goes unnoticed, and some damage (seen in a flipped byte of an
index) makes a query allocate without end before any checksum is looked at. So when a store is
finished, the digest of each of its files is written in its meta data (a file the store shares
with the store it was updated from, a hard link, keeps the digest recorded there: an update hashes
only its new files). :func:`check_store_files` then reads every file against its digest, opens the
store and reads every quad, which makes RocksDB verify the checksums of what it reads, checks the
name index's content and asks SQLite to check the side indexes. Damage becomes a list of the files
that are not as they were written.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtgkb.core.errors import StoreError, shown

#: Files of the Oxigraph folder that RocksDB may rewrite at any open, or that hold no data.
_UNCHECKED = ("LOCK", "LOG")
#: Side files beside the store whose own format has a check (they may be replaced after the store is
#: finished, when a deferred update of the search index catches up).
_SQLITE_SUFFIX = ".sqlite"
#: A store is set aside by renaming its meta data to this: no command opens it, nothing builds on it,
#: and the next command builds the store again from scratch.
DAMAGED = "meta.damaged.json"


def _checked(folder: Path) -> list[Path]:
    files = [folder / "names.json"]
    files += sorted(
        path
        for path in (folder / "oxigraph").iterdir()
        if path.is_file() and not path.name.startswith(_UNCHECKED)
    )
    return [path for path in files if path.exists()]


def _digest(path: Path) -> str:
    with open(path, "rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()[:32]


def record_digests(folder: Path, base: Path | None = None) -> dict[str, list[Any]]:
    """``{relative name: [size, digest, inode]}`` for the files of the store being finished in
    ``folder``. A file that is the same inode, of the same size, as one recorded for the store in
    ``base`` (a hard link made by the checkpoint an update starts from) takes the digest recorded
    there instead of being read again."""
    known: dict[tuple[int, int], str] = {}
    if base is not None:
        with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
            recorded = json.loads((base / "meta.json").read_text(encoding="utf-8")).get("digests", {})
            known = {(int(e[2]), int(e[0])): str(e[1]) for e in recorded.values() if len(e) == 3}
    digests: dict[str, list[Any]] = {}
    for path in _checked(folder):
        stat = path.stat()
        digest = known.get((stat.st_ino, stat.st_size)) or _digest(path)
        digests[path.relative_to(folder).as_posix()] = [stat.st_size, digest, stat.st_ino]
    return digests


def names_digest(meta: dict[str, Any]) -> str | None:
    """The digest of names.json recorded in ``meta`` (None for a store of an earlier version)."""
    entry = meta.get("digests", {}).get("names.json") if isinstance(meta.get("digests"), dict) else None
    return str(entry[1]) if isinstance(entry, list) and len(entry) >= 2 else None


def parse_names(data: bytes, digest: str | None) -> list[list[str]]:
    """The name index in ``data``, checked against its recorded ``digest`` (when there is one) and for
    its shape, a list of [name, IRI, kind]; ValueError naming what is wrong."""
    if digest is not None and hashlib.sha256(data).hexdigest()[:32] != digest:
        raise ValueError("its content is not what was written (the digest differs)")
    names = json.loads(data.decode("utf-8"))
    if not isinstance(names, list) or not all(
        isinstance(entry, list) and len(entry) == 3 and all(isinstance(part, str) for part in entry)
        for entry in names
    ):
        raise ValueError("it is not a list of [name, IRI, kind] entries")
    return names


@dataclass
class StoreCheck:
    """What ``mtgkb validate --store`` found."""

    path: str
    files: int = 0  # files read against their digests
    bytes: int = 0
    quads: int = 0  # quads read from the store
    problems: list[str] = field(default_factory=list)
    damaged_files: list[str] = field(default_factory=list)
    digests_recorded: bool = True
    set_aside: list[str] = field(default_factory=list)  # stores no command will open any more
    seconds: float = 0.0

    @property
    def sound(self) -> bool:
        return not self.problems


def check_store_files(path: Path, meta: dict[str, Any]) -> StoreCheck:
    """Read every file of the finished store at ``path`` (its ``meta`` already read and checked) and
    every quad in it; the problems found, each naming its file."""
    started = time.perf_counter()
    check = StoreCheck(str(path))
    recorded = meta.get("digests")
    if not isinstance(recorded, dict):
        check.digests_recorded = False
        recorded = {}
    for name, entry in recorded.items():
        file = path / name
        try:
            size, digest = int(entry[0]), str(entry[1])
            actual = _digest(file)
        except OSError as error:
            check.problems.append(f"{name}: cannot be read ({error.strerror or error})")
            check.damaged_files.append(name)
            continue
        except (TypeError, ValueError, IndexError):
            check.problems.append(f"meta.json: the record of {name} is damaged")
            continue
        check.files += 1
        check.bytes += file.stat().st_size
        if file.stat().st_size != size or actual != digest:
            check.problems.append(f"{name}: its content is not what was written (the digest differs)")
            check.damaged_files.append(name)
    if not check.damaged_files:  # reading a damaged file can run away; the digests said enough
        check.quads, problem = _read_every_quad(path / "oxigraph", check.bytes)
        if problem:
            check.problems.append(f"oxigraph: {problem}")
    try:
        parse_names((path / "names.json").read_bytes(), names_digest(meta))
    except (OSError, ValueError) as error:
        if "names.json" not in check.damaged_files:
            check.problems.append(f"names.json: {error}")
    for side in sorted(path.glob(f"*{_SQLITE_SUFFIX}")):
        problem = _sqlite_problem(side)
        if problem:
            check.problems.append(f"{side.name}: {problem}")
    check.seconds = round(time.perf_counter() - started, 2)
    return check


#: Reading every quad runs in a process of its own under these limits: damage RocksDB does not notice
#: can make it allocate without end or loop (seen with a flipped byte in an index block).
_SCAN_MEMORY = 3 << 30
_SCAN_SECONDS_AT_LEAST = 300
_SCAN_BYTES_PER_SECOND = 2 << 20
_SCAN = (
    "import resource, sys\n"
    "hard = resource.getrlimit(resource.RLIMIT_AS)[1]\n"
    "cap = int(sys.argv[2]) if hard == resource.RLIM_INFINITY else min(int(sys.argv[2]), hard)\n"
    "resource.setrlimit(resource.RLIMIT_AS, (cap, cap))\n"
    "import pyoxigraph as ox\n"
    "store = ox.Store.read_only(sys.argv[1])\n"
    "count = sum(1 for _ in store.quads_for_pattern(None, None, None, None))\n"
    "graphs = sum(1 for _ in store.named_graphs())\n"
    "print(count)\n"
)


def _read_every_quad(folder: Path, size: int) -> tuple[int, str | None]:
    """(quads read, None) when every quad of the Oxigraph store in ``folder`` (``size`` bytes) reads;
    else what went wrong. RocksDB verifies the checksum of each block it reads."""
    import subprocess
    import sys

    seconds = max(_SCAN_SECONDS_AT_LEAST, size / _SCAN_BYTES_PER_SECOND)
    try:
        done = subprocess.run(
            [sys.executable, "-c", _SCAN, str(folder), str(_SCAN_MEMORY)],
            capture_output=True,
            text=True,
            timeout=seconds,
        )
    except subprocess.TimeoutExpired:
        return 0, f"reading every quad did not end within {seconds:.0f} s"
    except OSError as error:
        return 0, f"the quads could not be read: {error}"
    if done.returncode == 0 and done.stdout.strip().isdigit():
        return int(done.stdout.strip()), None
    last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
    if done.returncode < 0 or "alloc" in last or "MemoryError" in last:
        last = f"reading every quad ran out of memory or crashed ({' '.join(last.split())[:200]})"
    return 0, " ".join(last.split())[:300]


def _sqlite_problem(path: Path) -> str | None:
    try:
        with contextlib.closing(sqlite3.connect(path.as_uri() + "?mode=ro&immutable=1", uri=True)) as db:
            rows = db.execute("PRAGMA quick_check").fetchall()
    except sqlite3.Error as error:
        return str(error)
    answers = [str(row[0]) for row in rows]
    return None if answers == ["ok"] else "; ".join(answers)[:300]


def set_aside(path: Path) -> bool:
    """Make sure no command opens the store at ``path`` again or builds on it: its meta data is renamed
    to :data:`DAMAGED`, so the next command builds the store of its sources from scratch."""
    try:
        os.replace(path / "meta.json", path / DAMAGED)
    except FileNotFoundError:
        return (path / DAMAGED).exists()
    except OSError:
        return False
    return True


def stores_sharing(path: Path, names: list[str], stores: Path) -> list[Path]:
    """The other finished stores in ``stores`` holding one of the files ``names`` of ``path`` as a
    hard link (the same inode): damage to that file is theirs too."""
    inodes = set()
    for name in names:
        with contextlib.suppress(OSError):
            inodes.add((path / name).stat().st_ino)
    sharing = []
    for other in stores.iterdir() if stores.is_dir() else ():
        if other == path or not (other / "oxigraph").is_dir():
            continue
        with contextlib.suppress(OSError):
            if any(f.stat().st_ino in inodes for f in (other / "oxigraph").iterdir()):
                sharing.append(other)
    return sharing


def validate_store(path: Path, meta: dict[str, Any]) -> StoreCheck:
    """:func:`check_store_files` on the store at ``path``; a damaged store is set aside, with every
    other store that shares a damaged file, so that the next command builds it again from scratch."""
    check = check_store_files(path, meta)
    if check.sound:
        return check
    for damaged in [path, *stores_sharing(path, check.damaged_files, path.parent)]:
        if set_aside(damaged):
            check.set_aside.append(str(damaged))
    return check


#: How RocksDB words damage it found while reading (pyoxigraph raises it as RuntimeError or OSError).
_DAMAGE = re.compile(r"\bCorruption\b|checksum mismatch|bad block|truncated block", re.IGNORECASE)
_DAMAGED_FILE = re.compile(r"(/\S*?/stores/[^/\s]+)/oxigraph/(\S+?\.sst)")


def store_damage(error: BaseException, current: Path | None = None) -> StoreError | None:
    """The message for ``error`` when it is RocksDB reporting damage in a store's files (else None);
    the damaged store (named in the error, else ``current``) and the stores sharing the damaged file
    are set aside, so that the next command builds the store again from scratch."""
    text = " ".join(str(error).split())
    if not _DAMAGE.search(text):
        return None
    found = _DAMAGED_FILE.search(text)
    store = Path(found.group(1)) if found else current
    if store is not None:
        shared = stores_sharing(store, [f"oxigraph/{found.group(2)}"], store.parent) if found else []
        for damaged in [store, *shared]:
            set_aside(damaged)
    where = f"the store in {store}" if store is not None else "the store"
    return StoreError(
        f"{where} is damaged: {shown(text, 300)}",
        "run the command again: the store is built again from scratch (or run 'mtgkb build --full')",
    )
