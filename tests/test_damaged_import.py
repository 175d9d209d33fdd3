"""A damaged file under imports/ (cut short, as a full disk or a killed copy leaves it): every command
names the file and offers to drop it, the failing build is not tried again while the file is
unchanged, and ``mtgkb import drop`` takes it out."""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

import pytest

from mtgkb.core.paths import imports_dir

CARD_TTL = """
@prefix mtgkb: <https://w3id.org/mtgkb/vocab#> .
@prefix card: <https://w3id.org/mtgkb/card/> .
card:grizzly-bears a mtgkb:Card ; mtgkb:name "Grizzly Bears" ; mtgkb:manaCost "{1}{G}" .
"""


@pytest.fixture
def rules_imported(user_dirs, monkeypatch: pytest.MonkeyPatch, shared_data: Path, run_cli) -> Path:
    """A tiny knowledge base of its own with the 2026-04-17 rules imported; the imported file."""
    root = user_dirs.base / "kb"
    (root / "ontology").mkdir(parents=True)
    (root / "data").mkdir(parents=True)
    (root / "data" / "grizzly-bears.ttl").write_text(CARD_TTL)
    monkeypatch.setenv("MTGKB_ROOT", str(root))
    result = run_cli("import", "rules", str(shared_data / "rules" / "MagicCompRules-20260417.txt"), "-q")
    assert result.exit_code == 0, result.output
    return imports_dir() / "cr-2026-04-17.nq.gz"


def _cut_short(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def test_a_truncated_import_is_named_with_the_command_that_drops_it(run_cli, rules_imported: Path) -> None:
    _cut_short(rules_imported)
    first = run_cli("card", "Grizzly Bears")
    assert first.exit_code == 2, first.output
    assert str(rules_imported) in first.stderr and "truncated" in first.stderr
    assert "mtgkb import drop cr-2026-04-17" in first.stderr and "mtgkb import rules FILE" in first.stderr
    assert "Traceback" not in first.output
    # The next command fails at once with the same message: no store build is tried again.
    again = run_cli("rule", "702.49")
    assert again.exit_code == 2, again.output
    assert "the file is unchanged" in again.stderr and str(rules_imported) in again.stderr
    assert "loading" not in again.stderr and "building" not in again.stderr

    dropped = run_cli("import", "drop", "cr-2026-04-17")
    assert dropped.exit_code == 0, dropped.output
    assert not rules_imported.exists() and str(rules_imported) in dropped.stdout
    card = run_cli("card", "Grizzly Bears")
    assert card.exit_code == 0, card.output


def test_a_fixed_file_is_tried_again(run_cli, rules_imported: Path) -> None:
    whole = rules_imported.read_bytes()
    _cut_short(rules_imported)
    assert run_cli("card", "Grizzly Bears").exit_code == 2
    rules_imported.write_bytes(whole)
    result = run_cli("rule", "702.49d")
    assert result.exit_code == 0, result.output


def test_damaged_content_that_gzip_refuses_is_named_too(run_cli, rules_imported: Path) -> None:
    data = bytearray(rules_imported.read_bytes())
    for place in range(200, len(data) - 100, 997):
        data[place] ^= 0x5A
    rules_imported.write_bytes(bytes(data))
    with pytest.raises((OSError, EOFError, zlib.error)):
        gzip.decompress(bytes(data))
    result = run_cli("card", "Grizzly Bears")
    assert result.exit_code == 2, result.output
    assert str(rules_imported) in result.stderr and "mtgkb import drop" in result.stderr
    assert "Traceback" not in result.output


def test_dropping_an_unknown_import_suggests_the_ones_there(run_cli, rules_imported: Path) -> None:
    result = run_cli("import", "drop", "cr-2026-04-71")
    assert result.exit_code == 2, result.output
    assert "no imported file named 'cr-2026-04-71'" in result.stderr and "cr-2026-04-17" in result.stderr
    assert rules_imported.exists()
