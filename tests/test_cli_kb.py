"""The CLI's own contract: user mistakes exit 2 with a message on stderr and no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


def test_build_reports_graphs_and_triples(run_cli, user_dirs) -> None:
    # In a cache of its own: a forced build relabels blank nodes, under other tests' open stores.
    result = run_cli("build", "--json")
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["graphs"]
    assert sum(summary["graphs"].values()) > 0


def test_build_updates_only_what_changed_and_full_builds_from_scratch(run_cli, user_dirs) -> None:
    assert json.loads(run_cli("build", "--json").stdout)["how"] == "full"  # no store yet
    current = json.loads(run_cli("build", "--json").stdout)
    assert current["how"] == "none" and not current["changed"]
    assert "up to date" in run_cli("build").stdout
    full = run_cli("build", "--full", "--json")
    assert full.exit_code == 0, full.stderr
    assert json.loads(full.stdout)["how"] == "full"
    # Progress goes to stderr, unless --quiet; the summary stays on stdout.
    assert "building the knowledge base" in run_cli("build", "--full").stderr
    quiet = run_cli("build", "--full", "--quiet")
    assert quiet.exit_code == 0 and quiet.stderr == ""
    assert "Built the store from scratch" in quiet.stdout


def test_stats_counts_what_the_store_holds(run_cli, kb) -> None:
    result = run_cli("stats", "--json")
    assert result.exit_code == 0, result.stderr
    stats = json.loads(result.stdout)
    assert stats["triples"] == sum(g["triples"] for g in stats["graphs"])
    graph_names = {g["graph"] for g in stats["graphs"]}
    assert "ontology/mtgkb" in graph_names


def test_an_unwritable_cache_exits_2_without_a_traceback(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("MTGKB_CACHE_DIR", str(blocker / "cache"))
    result = run_cli("stats")
    assert result.exit_code == 2
    assert "Error: cannot write to the cache directory" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
