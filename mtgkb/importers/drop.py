"""``mtgkb import drop``: take imported files out of the data directory, then bring the store up to date
without them. The way out when an imported file is damaged (the store cannot be built with it) or a
dataset is no longer wanted; importing the dataset again brings it back."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mtgkb.core.errors import MtgkbError, NotFoundError
from mtgkb.core.progress import Progress
from mtgkb.kb.build import BuildSummary
from mtgkb.kb.sources import IMPORT_SUFFIXES, imported_sources


@dataclass
class DropSummary:
    dropped: list[str] = field(default_factory=list)  # the files removed
    build: BuildSummary | None = None


def _stem(path: Path) -> str:
    return next((path.name.removesuffix(s) for s in IMPORT_SUFFIXES if path.name.endswith(s)), path.name)


def imported_files(name: str) -> list[Path]:
    """The imported files that ``name`` means: a file name under imports/ (``mtgjson.nq.gz``), its
    stem (``mtgjson``, ``cr-2026-04-17``) or its key (``imports/mtgjson.nq.gz``); both forms of one
    stem (an older plain ``.nq`` beside a ``.nq.gz``) together."""
    from mtgkb.core.paths import imports_dir

    wanted = name.removeprefix("imports/")
    folder = imports_dir()
    candidates = sorted(folder.glob("*")) if folder.is_dir() else []
    found = [
        path
        for path in candidates
        if path.is_file() and path.name.endswith(IMPORT_SUFFIXES) and wanted in (path.name, _stem(path))
    ]
    if not found:
        import difflib

        known = sorted({_stem(source.path) for source in imported_sources()})
        raise NotFoundError("imported file", name, difflib.get_close_matches(wanted, known, 3, 0.4) or known)
    return found


def drop_imports(names: list[str], progress: Progress | None = None) -> DropSummary:
    """Remove the imported files ``names`` mean (all found before any is removed), then update the
    store."""
    from mtgkb.app import build

    files = [path for name in names for path in imported_files(name)]
    summary = DropSummary()
    for path in dict.fromkeys(files):
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        except OSError as error:
            raise MtgkbError(f"cannot remove {path}: {error.strerror or error}") from error
        summary.dropped.append(str(path))
    summary.build = build(progress=progress)
    return summary
