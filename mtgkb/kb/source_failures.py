"""Sources that could not be loaded, remembered by their content so that a build does not try again.

A truncated or damaged file under ``imports/`` fails the build only after every source before it was
loaded (sixteen seconds for the full pool), and every command builds when the store is missing: each
one would pay that again for the same answer. The failure is kept in the cache directory with the
digest of the file's content; while the file is unchanged, a build fails at once with the same
message. Any change to the file (imported again, fixed, dropped) gives another digest, and the build
tries it.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from mtgkb.core.errors import StoreError
from mtgkb.core.paths import cache_dir

_FILE = "failed-sources.json"


class SourceUnreadable(StoreError):
    """A source file the store cannot load; ``key`` names it (``imports/mtgjson.nq.gz``)."""

    def __init__(self, key: str, message: str, hint: str | None) -> None:
        super().__init__(message, hint)
        self.key = key


#: The command that imports each kind of imported file again, by the start of its name.
_IMPORTED_BY = {"cr-": "mtgkb import rules FILE", "mtgjson": "mtgkb import mtgjson FILE"}


def unreadable(key: str, path: Path, problem: str) -> SourceUnreadable:
    """The error for the source ``key`` at ``path`` that cannot be parsed: for an imported file, how to
    drop it or import it again; for a file of ontology/ or data/, to fix it."""
    if not key.startswith("imports/"):
        return SourceUnreadable(
            key, f"cannot parse {path}: {problem}", "fix the file, then run 'mtgkb validate'"
        )
    stem = path.name.split(".nq")[0]
    again = next((command for start, command in _IMPORTED_BY.items() if stem.startswith(start)), None)
    again = again or "mtgkb import scryfall FILE"
    return SourceUnreadable(
        key,
        f"the imported file {path} is damaged or truncated ({problem}); no store can be built with it",
        f"drop it with 'mtgkb import drop {stem}', or import its dataset again ('{again}')",
    )


def _read() -> dict[str, Any]:
    with contextlib.suppress(OSError, ValueError):
        found = json.loads((cache_dir() / _FILE).read_text(encoding="utf-8"))
        if isinstance(found, dict):
            return found
    return {}


def remember(error: SourceUnreadable, digest: str) -> None:
    """Keep ``error`` for its source while the source's content has ``digest``."""
    failures = _read()
    failures[error.key] = {"digest": digest, "message": error.message, "hint": error.hint}
    temporary = cache_dir() / f".{_FILE}.{os.getpid()}.tmp"
    with contextlib.suppress(OSError):
        temporary.write_text(json.dumps(failures), encoding="utf-8")
        os.replace(temporary, cache_dir() / _FILE)
    with contextlib.suppress(OSError):
        temporary.unlink(missing_ok=True)


def known_failure(known: dict[str, str]) -> SourceUnreadable | None:
    """The remembered failure of a source whose content (``known``: key -> digest) has not changed
    since it failed; None when there is none (and nothing to read when no source ever failed)."""
    if not (cache_dir() / _FILE).exists():
        return None
    for key, failure in _read().items():
        if isinstance(failure, dict) and known.get(key) == failure.get("digest"):
            return SourceUnreadable(
                key,
                f"{failure.get('message')} (found when the store was last built; the file is unchanged)",
                failure.get("hint"),
            )
    return None
