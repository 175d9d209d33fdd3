"""Every Comprehensive Rules edition since 2003 imported in one command, and rules followed through
them: each lineage the tests check is checked against the edition files themselves."""

from __future__ import annotations

import functools
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from mtgkb.core.paths import imports_dir, repo_root
from mtgkb.importers.cr_decode import decode_edition
from mtgkb.importers.cr_text import _effective_date, load_rules_file
from mtgkb.lookups.stale_summaries import stale_summaries

CURRENT = "2026-04-17"


@pytest.fixture(scope="module")
def history_folder(shared_data: Path) -> Path:
    folder = shared_data / "rules" / "history"
    if not folder.is_dir():
        pytest.skip(f"no CR history folder in {shared_data}")
    return folder


@pytest.fixture(scope="module")
def imported(run_cli, shared_data: Path, history_folder: Path, tmp_path_factory) -> Iterator[dict]:
    """All 111 editions in one command, into data and cache folders of this module's own."""
    base = tmp_path_factory.mktemp("cr-history")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MTGKB_DATA_DIR", str(base / "data"))
        patch.setenv("MTGKB_CACHE_DIR", str(base / "cache"))
        current = shared_data / "rules" / "MagicCompRules-20260417.txt"
        result = run_cli("import", "rules", str(history_folder), str(current), "--json")
        assert result.exit_code == 0, result.output + result.stderr
        yield {"summary": json.loads(result.stdout), "stderr": result.stderr}


@functools.cache
def _edition_files(folder: Path) -> dict[str, Path]:
    """Edition date -> file, from each file's own "as of" line (decoding is quick, parsing is not)."""
    found = {}
    for path in sorted(folder.glob("*.txt")):
        head = decode_edition(path.read_bytes(), path.name).text[:2000]
        found[_effective_date(head, path.name)] = path
    return found


@functools.cache
def _rules_of(folder: Path, shared_data: Path, date: str) -> dict[str, str]:
    path = (
        shared_data / "rules" / "MagicCompRules-20260417.txt"
        if date == CURRENT
        else _edition_files(folder)[date]
    )
    return {record.number: record.text for record in load_rules_file(path).rules}


def _history(run_cli, *args: str) -> dict:
    result = run_cli("rule", *args, "--history", "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_all_editions_import_in_one_store_update(imported: dict) -> None:
    summary = imported["summary"]
    assert len(summary["imported"]) == 111 and summary["history_editions"] == 111
    assert summary["edition"] == CURRENT
    # One store update: the store is built once, after every file was read.
    assert imported["stderr"].count("updating the store") == 1
    # Changes, not editions x rules: each text once, each version once per span of editions.
    lines = sum(edition["rules"] for edition in summary["imported"])
    assert lines > 200_000
    assert summary["history_texts"] < 25_000 and summary["history_versions"] < lines / 8


def test_encodings_line_endings_and_dates_come_from_the_files(imported: dict) -> None:
    editions = imported["summary"]["imported"]
    assert {"utf-8-sig", "cp1252", "utf-16-le", "utf-16-be"} <= {e["encoding"] for e in editions}
    assert {"crlf", "mixed"} <= {e["line_endings"] for e in editions}
    by_file = {Path(e["source"]).name: e["edition"] for e in editions}
    # The date is the text's own, not the archive's file name; before 2009 it says "current as of".
    assert by_file["MagicCompRules-20130429.txt"] == "2013-05-01"
    assert by_file["MagicCompRules-20050201.txt"] == "2005-02-01"
    assert [e["edition"] for e in editions] == sorted(e["edition"] for e in editions)


def test_rules_editions_lists_all_of_them(run_cli, imported: dict) -> None:
    result = run_cli("rules", "editions", "--json")
    assert result.exit_code == 0, result.stderr
    listed = json.loads(result.stdout)
    dates = [edition["date"] for edition in listed["editions"]]
    assert len(dates) == 111 and dates[0] == CURRENT and dates[-1] == "2003-03-15"
    assert listed["default"] == CURRENT


def test_ninjutsu_goes_back_to_502_43_of_2005(run_cli, imported, history_folder, shared_data) -> None:
    report = _history(run_cli, "702.49")
    steps = report["history"]
    assert [step["number"] for step in steps] == ["502.43", "702.46", "702.47", "702.48", "702.49"]
    assert steps[0] == steps[0] | {"edition": "2005-02-01", "change": "added", "text": "Ninjutsu"}
    assert all(step["change"] == "renumbered" for step in steps[1:])
    for step in steps:  # each number really is ninjutsu's in the editions it spans
        for date in (step["edition"], step["until"]):
            assert _rules_of(history_folder, shared_data, date)[step["number"]] == "Ninjutsu"
    before = _rules_of(history_folder, shared_data, "2004-10-01")
    assert "Ninjutsu" not in before.values()


def test_commander_ninjutsu_appears_when_it_was_added(run_cli, imported, history_folder, shared_data) -> None:
    report = _history(run_cli, "702.49")
    subrules = {subrule["number"]: subrule for subrule in report["subrules"]}
    added = subrules["702.49d"]["history"][0]
    assert added["change"] == "added" and added["text"].startswith("Commander ninjutsu")
    dates = [e["edition"] for e in imported["summary"]["imported"]]
    earlier = dates[dates.index(added["edition"]) - 1]
    assert _rules_of(history_folder, shared_data, added["edition"])[added["number"]].startswith(
        "Commander ninjutsu"
    )
    assert not any(
        text.startswith("Commander ninjutsu")
        for text in _rules_of(history_folder, shared_data, earlier).values()
    )
    assert subrules["702.49a"]["history"][0]["number"] == "502.43a"


def test_partner_starts_in_2016_as_702_123(run_cli, imported, history_folder, shared_data) -> None:
    steps = _history(run_cli, "702.124")["history"]
    assert (steps[0]["edition"], steps[0]["number"], steps[0]["change"]) == ("2016-11-11", "702.123", "added")
    assert steps[-1]["number"] == "702.124"
    assert _rules_of(history_folder, shared_data, "2016-11-11")["702.123"] == "Partner"
    assert "Partner" not in _rules_of(history_folder, shared_data, "2016-09-30").values()


def test_a_rule_that_was_split(run_cli, imported, history_folder, shared_data) -> None:
    # In April 2020 the layer 7 sublayers left 613.3 for a rule of their own, 613.4.
    steps = _history(run_cli, "613.4", "--edition", "2020-04-17")["history"]
    split = next(step for step in steps if step["edition"] == "2020-04-17")
    assert (split["change"], split["previous_number"]) == ("split", "613.3")
    before = _rules_of(history_folder, shared_data, "2020-01-24")
    after = _rules_of(history_folder, shared_data, "2020-04-17")
    assert "Within layer 7" in before["613.3"] and "Within layer 7" not in after["613.3"]
    assert after["613.4"].startswith("Within layer 7")


def test_a_rule_that_was_removed(run_cli, imported, history_folder, shared_data) -> None:
    # Mana burn went with the Magic 2010 rules: 300.3 of 2009-05-01 has no successor.
    report = _history(run_cli, "300.3", "--edition", "2009-05-01")
    assert report["current_number"] is None and report["removed_in"] == "2009-07-11"
    assert report["history"][-1]["change"] == "removed"
    assert "mana burn" in _rules_of(history_folder, shared_data, "2009-05-01")["300.3"]
    after = _rules_of(history_folder, shared_data, "2009-07-11")
    assert not any("mana burn" in text and "loses 1 life" in text for text in after.values())


def test_an_old_number_is_followed_to_the_rule_it_became(run_cli, imported: dict) -> None:
    report = _history(run_cli, "502.43", "--edition", "2005-02-01")
    assert report["current_number"] == "702.49"
    text = run_cli("rule", "702.49", "--history")
    assert text.exit_code == 0 and "502.43  added" in text.stdout and "(was 702.48)" in text.stdout


def test_the_named_query_lists_a_rules_history(run_cli, imported: dict) -> None:
    result = run_cli("query", "rule-history", "--param", "rule=cr:702.49", "--format", "json")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)["results"]["bindings"]
    assert [row["number"]["value"] for row in rows] == ["502.43", "702.46", "702.47", "702.48", "702.49"]
    assert rows[0]["from"]["value"] == "2005-02-01" and rows[-1]["until"]["value"] == CURRENT


def test_two_old_editions_can_be_compared(run_cli, imported: dict) -> None:
    result = run_cli("rules", "diff", "2016-09-30", "2016-11-11", "--json")
    assert result.exit_code == 0, result.stderr
    diff = json.loads(result.stdout)
    assert "702.123" in {rule["number"] for rule in diff["added"]}


def _imports_listing() -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in imports_dir().iterdir()}


@pytest.mark.parametrize("damage", ["truncated", "damaged-utf8", "odd-utf16", "not-rules"])
def test_a_bad_edition_stops_the_import_and_changes_nothing(
    run_cli, imported, history_folder: Path, tmp_path: Path, damage: str
) -> None:
    good = history_folder / "MagicCompRules-20190503.txt"  # UTF-8 with a byte-order mark
    raw = good.read_bytes()
    if damage == "truncated":
        bad = raw[: len(raw) // 2]
    elif damage == "damaged-utf8":
        bad = raw.replace("’".encode(), b"\xe2\x80", 1)
    elif damage == "odd-utf16":
        bad = b"\xff\xfe" + decode_edition(raw, "x").text.encode("utf-16-le")[:-1]
    else:
        bad = b"Shopping list\r\neggs\r\n"
    folder = tmp_path / "editions"
    folder.mkdir()
    (folder / "a-good.txt").write_bytes(raw)
    (folder / "b-bad.txt").write_bytes(bad)
    before = _imports_listing()
    result = run_cli("import", "rules", str(folder))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output + result.stderr
    assert "b-bad.txt is not a Comprehensive Rules text file" in result.stderr
    assert _imports_listing() == before
    assert os.listdir(imports_dir()) == list(before) or set(os.listdir(imports_dir())) == set(before)


def test_impact_lists_what_a_new_edition_touches(run_cli, imported: dict) -> None:
    result = run_cli("rules", "diff", "2026-01-16", CURRENT, "--impact", "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    impacts = {impact["number"]: impact for impact in report["impacts"]}
    assert report["diff"]["old"] == "2026-01-16" and report["diff"]["new"] == CURRENT
    # A combat rule added in April 2026 that the ninjutsu family's verdicts cite.
    added = impacts["508.4d"]
    assert added["change"] == "added"
    assert "https://w3id.org/mtgkb/mechanic/ninjutsu" in added["mechanics"]
    assert added["scenarios"] and all(name.endswith(".json") for name in added["scenarios"])
    assert added["summary"] and added["cards"] >= 1
    sneak = impacts["702.190a"]
    assert "https://w3id.org/mtgkb/requirement/unblocked-creature-you-control" in sneak["requirements"]
    # Only rules something of ours cites are listed, and each is a rule of the diff.
    changed = {rule["number"] for key in ("added", "removed", "changed") for rule in report["diff"][key]}
    assert set(impacts) <= changed and len(impacts) < len(changed)
    text = run_cli("rules", "diff", "2026-01-16", CURRENT, "--impact")
    assert text.exit_code == 0 and "508.4d (added)" in text.stdout and "mechanic/ninjutsu" in text.stdout


def test_the_shipped_summaries_are_current(run_cli, imported: dict) -> None:
    # Written against the newest edition, none is stale; validate says so and conforms.
    assert stale_summaries() == []
    result = run_cli("validate", "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert not [v for v in json.loads(result.stdout)["violations"] if v["shape"] == "stale-summary"]


def test_a_summary_written_against_an_older_edition_is_reported(imported: dict, tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(repo_root() / "data", data)
    editions = data / "summary-editions.ttl"
    editions.write_text(editions.read_text(encoding="utf-8").replace(CURRENT, "2026-01-16"), encoding="utf-8")
    findings = {(f.node, f.rule): f for f in stale_summaries(data)}
    # 702.49c (ninjutsu's "unblocked" subrule) was reworded in April 2026: the ninjutsu summary cites it.
    finding = findings[("https://w3id.org/mtgkb/mechanic/ninjutsu", "702.49c")]
    assert finding.changed_in == CURRENT and finding.file == "data/mechanics/ninjutsu.ttl"
    old = _rules_of_current_and(imported, "2026-01-16")
    assert old[0]["702.49c"] != old[1]["702.49c"]
    assert all(f.written_against == "2026-01-16" for f in findings.values())


def _rules_of_current_and(imported: dict, date: str) -> tuple[dict[str, str], dict[str, str]]:
    from mtgkb.kb.cr_history import read_history
    from mtgkb.kb.cr_lineage import edition_entries

    history = read_history()
    assert history is not None
    old = edition_entries(history.versions, history.dates.index(date))
    new = edition_entries(history.versions, len(history.dates) - 1)
    return {n: e.text for n, e in old.items()}, {n: e.text for n, e in new.items()}


def test_a_rules_lineage_exports_as_a_small_graph(run_cli, imported: dict) -> None:
    result = run_cli("export", "--view", "lineage", "--around", "702.49", "--format", "cyjs", "--quiet")
    assert result.exit_code == 0, result.stderr
    elements = json.loads(result.stdout)["elements"]
    labels = {node["data"]["label"] for node in elements["nodes"]}
    assert "502.43 (2005-02-01 to 2009-05-01)" in labels and "702.49 (2021-04-22 to 2026-04-17)" in labels
    edges = {
        (edge["data"]["source"], edge["data"]["target"], edge["data"]["label"]) for edge in elements["edges"]
    }
    first, second = (
        f"https://w3id.org/mtgkb/version/{n}" for n in ("502.43/2005-02-01", "702.46/2009-07-11")
    )
    assert (first, second, "renumbered") in edges
    assert len(elements["nodes"]) < 200  # small: one rule and its subrules


def test_the_explorer_walks_a_lineage_version_by_version(imported: dict) -> None:
    from mtgkb.app import open_kb
    from mtgkb.serve.explore import neighbourhood

    around = neighbourhood(open_kb(), "https://w3id.org/mtgkb/version/702.49/2021-04-22")
    shown = {(node.label, node.kind) for node in around.nodes}
    assert ("CR 702.48 (2013-07-13)", "rule version") in shown  # the version it came from
    assert any(kind == "rule" and label.startswith("CR 702.49") for label, kind in shown)
