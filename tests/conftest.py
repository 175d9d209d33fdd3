"""Shared fixtures: the ../shared snapshots, the knowledge bases tests read (the bundled one, the small
fixture one and the whole imported card pool, each built once per session), the mtgkb command line
and throw-away user directories.

The mtgkb commands are registered on ``mtgkb.cli.cli`` here, once, before any test module is
collected, so that a test module can walk the command group at import time."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

REPO_ROOT = Path(__file__).resolve().parents[1]
#: The small knowledge base of tests/fixtures/lookups, whose every value is known.
FIXTURE_KB = Path(__file__).parent / "fixtures" / "lookups"

# A suite started in the background of a non-interactive shell inherits SIGINT ignored, and so would
# every command a test starts, so the Ctrl-C tests would press a key nobody listens to. A handler of
# our own is reset to the default on exec, so the commands react to Ctrl-C as at a terminal.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_configure(config: pytest.Config) -> None:
    from mtgkb.cli import _register_commands

    _register_commands()


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


# --- the command line ----------------------------------------------------------------------------


#: ``run_cli(*arguments, input=None, env=None, catch_exceptions=True)``: one mtgkb command line.
RunCli = Callable[..., Result]


@pytest.fixture(scope="session")
def run_cli() -> RunCli:
    """Runs one ``mtgkb`` command line in-process and returns click's ``Result`` (``exit_code``,
    ``stdout``, ``stderr``). ``input`` is standard input; ``env`` sets variables for this run only."""
    from mtgkb.cli import cli

    runner = CliRunner()

    def run(
        *arguments: str,
        input: str | bytes | None = None,
        env: dict[str, str] | None = None,
        catch_exceptions: bool = True,
    ) -> Result:
        return runner.invoke(cli, list(arguments), input=input, env=env, catch_exceptions=catch_exceptions)

    return run


@pytest.fixture(scope="session")
def run_cli_on_pool(run_cli: RunCli, card_pool: Any) -> RunCli:
    """``run_cli`` with mtgkb pointed at the whole imported pool (see ``card_pool``)."""

    def run(*arguments: str, env: dict[str, str] | None = None, **options: Any) -> Result:
        return run_cli(*arguments, env={**card_pool.env, **(env or {})}, **options)

    return run


@pytest.fixture(scope="module")
def pool_kb(card_pool: Any) -> Any:
    """The whole pool's knowledge base, opened read-only (see ``card_pool``)."""
    return card_pool.kb


# --- user directories ----------------------------------------------------------------------------


@dataclass(frozen=True)
class UserDirs:
    """A test's own cache and data directories (``MTGKB_CACHE_DIR``, ``MTGKB_DATA_DIR``)."""

    base: Path
    cache: Path
    data: Path

    @property
    def env(self) -> dict[str, str]:
        return {"MTGKB_CACHE_DIR": str(self.cache), "MTGKB_DATA_DIR": str(self.data)}


@pytest.fixture
def user_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> UserDirs:
    """Empty cache and data directories of the test's own (tmp_path/cache, tmp_path/data), set in the
    environment for the test only: imports and builds there touch no other test's store."""
    dirs = UserDirs(tmp_path, tmp_path / "cache", tmp_path / "data")
    for key, value in dirs.env.items():
        monkeypatch.setenv(key, value)
    return dirs


# --- knowledge bases -----------------------------------------------------------------------------


@pytest.fixture(scope="session")
def kb(_isolated_user_dirs: None) -> Any:
    """The knowledge base built from the bundled ontology/ and data/ only, in the session's cache."""
    from mtgkb.app import open_kb

    return open_kb()


@pytest.fixture(scope="session")
def small_kb_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment that points mtgkb at the fixture knowledge base (tests/fixtures/lookups: its
    data/ as curated Turtle, its imports/ as imported N-Quads) with a cache of its own. Pass it as
    ``env`` to :func:`run_cli`."""
    return {
        "MTGKB_ROOT": str(FIXTURE_KB),
        "MTGKB_DATA_DIR": str(FIXTURE_KB),
        "MTGKB_CACHE_DIR": str(tmp_path_factory.mktemp("fixture-kb-cache")),
    }


@pytest.fixture(scope="session")
def small_kb(small_kb_env: dict[str, str]) -> Any:
    """The fixture knowledge base, opened. The environment is changed only while it is built and
    opened, so the bundled ``kb`` never sees it."""
    from mtgkb.app import open_kb

    with pytest.MonkeyPatch.context() as patch:
        for key, value in small_kb_env.items():
            patch.setenv(key, value)
        return open_kb()


@pytest.fixture(scope="session")
def card_pool(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The whole pool: the Comprehensive Rules, the Scryfall commander list and the full MTGJSON
    snapshot imported into user directories of its own (``card_pool.Pool``; its ``env`` points
    mtgkb at them)."""
    from card_pool import imported_pool

    return imported_pool(shared_data, tmp_path_factory.mktemp("card-pool"))


# --- soak runs of the fuzz tests (see tests/fuzzing.py) -------------------------------------------

_SOAKED: list[tuple[str, int, int, float]] = []  # (test, rounds, cases, seconds)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """In a soak run (``MTGKB_FUZZ_SECONDS``), a hypothesis test runs round after round until its time
    is up; each round is a new search from a fresh random start. A failure ends the run at once."""
    seconds = float(os.environ.get("MTGKB_FUZZ_SECONDS", "0"))
    if not seconds or not getattr(pyfuncitem.obj, "is_hypothesis_test", False):
        return None
    import fuzzing

    arguments = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
    started, cases, rounds = time.monotonic(), fuzzing.cases_tried, 0
    try:
        while not rounds or time.monotonic() - started < seconds:
            pyfuncitem.obj(**arguments)
            rounds += 1
    finally:
        elapsed = time.monotonic() - started
        _SOAKED.append((pyfuncitem.nodeid, rounds, fuzzing.cases_tried - cases, elapsed))
    return True


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not _SOAKED:
        return
    terminalreporter.section("soak")
    for test, rounds, cases, seconds in _SOAKED:
        terminalreporter.write_line(f"{test}: {cases} cases in {rounds} rounds, {seconds:.0f} s")
