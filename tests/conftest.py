"""Shared fixtures: the ../shared snapshots and a knowledge base built from the bundled files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def _shared_data_dir() -> Path:
    configured = os.environ.get("MTGKB_SHARED_DATA")
    return Path(configured) if configured else REPO_ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The ../shared/data snapshots. Missing data fails in CI and skips, with a message, elsewhere."""
    path = _shared_data_dir()
    if (path / "rules").is_dir() and (path / "cards").is_dir():
        return path
    message = f"shared snapshots not found at {path} (set MTGKB_SHARED_DATA)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session", autouse=True)
def _isolated_user_dirs(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Tests never touch the user's real cache or data directory."""
    base = tmp_path_factory.mktemp("mtgkb-home")
    os.environ["MTGKB_CACHE_DIR"] = str(base / "cache")
    os.environ["MTGKB_DATA_DIR"] = str(base / "data")


@pytest.fixture(scope="session")
def kb(_isolated_user_dirs: None):
    """A knowledge base built from the bundled ontology/ and data/ only."""
    from mtgkb.app import open_kb

    return open_kb()
