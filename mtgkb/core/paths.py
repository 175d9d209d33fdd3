"""Where mtgkb finds its bundled files and keeps its cache and imported data."""

from __future__ import annotations

import os
from pathlib import Path

_PROJECT = Path(__file__).resolve().parents[2]


def repo_root() -> Path:
    """The folder holding ontology/ and data/ (overridable for tests with MTGKB_ROOT)."""
    configured = os.environ.get("MTGKB_ROOT")
    return Path(configured) if configured else _PROJECT


def queries_dir() -> Path:
    """The SPARQL files: they ship with the code, so MTGKB_ROOT (the knowledge) does not move them."""
    return _PROJECT / "queries"


def cache_dir() -> Path:
    """The store lives here: it is a cache and can always be rebuilt."""
    configured = os.environ.get("MTGKB_CACHE_DIR")
    if configured:
        return Path(configured)
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "mtgkb"


def data_dir() -> Path:
    """Imported datasets and downloads live here: they are the user's, never thrown away silently."""
    configured = os.environ.get("MTGKB_DATA_DIR")
    if configured:
        return Path(configured)
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "mtgkb"


def imports_dir() -> Path:
    return data_dir() / "imports"
