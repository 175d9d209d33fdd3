"""Importing Comprehensive Rules editions through the CLI, into a store of their own."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from mtgkb.app import open_kb
from mtgkb.core.paths import cache_dir, imports_dir
from mtgkb.kb.iris import mint, rule_iri

EDITION = "2026-04-17"
DERIVED = "2026-06-19"


@pytest.fixture(scope="module")
def cr_path(shared_data: Path) -> Path:
    return shared_data / "rules" / "MagicCompRules-20260417.txt"


@pytest.fixture(scope="module")
def imported(run_cli, cr_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """The published CR imported into data and cache folders of this module's own (the session's
    knowledge base must not see it)."""
    base = tmp_path_factory.mktemp("cr-import")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MTGKB_DATA_DIR", str(base / "data"))
        patch.setenv("MTGKB_CACHE_DIR", str(base / "cache"))
        result = run_cli("import", "rules", str(cr_path), "--json")
        assert result.exit_code == 0, result.output + result.stderr
        yield {"summary": json.loads(result.stdout), "stderr": result.stderr}


def _graph_size(graph: str) -> int:
    return open_kb().meta["graphs"].get(graph, 0)


def test_import_writes_one_edition_graph(imported: dict) -> None:
    summary = imported["summary"]
    assert summary["edition"] == EDITION
    assert summary["graph"] == mint("graph", "cr", EDITION)
    assert summary["rules"] > 3000 and summary["glossary"] > 700 and summary["references"] > 1000
    assert (imports_dir() / f"cr-{EDITION}.nq.gz").is_file()
    assert _graph_size(summary["graph"]) == summary["quads"]
    assert "parsing MagicCompRules-20260417.txt" in imported["stderr"]
    assert "loading" in imported["stderr"]


def test_rule_nodes_carry_number_text_parent_and_edition(imported: dict) -> None:
    rows = open_kb().select(
        """SELECT ?graph ?rule ?number ?text ?parent ?edition ?label WHERE { GRAPH ?graph {
             ?rule mtgkb:ruleNumber ?number ; mtgkb:text ?text ; mtgkb:parentRule ?parent ;
                   mtgkb:inEdition ?edition ; rdfs:label ?label } }""",
        graph=mint("graph", "cr", EDITION),
        rule=rule_iri("702.49d"),
    )
    assert len(rows) == 1
    row = rows[0]
    assert row["number"] == "702.49d" and row["label"] == "CR 702.49d"
    assert row["text"].startswith("Commander ninjutsu is a variant of the ninjutsu ability")
    assert row["parent"] == rule_iri("702.49") and row["edition"] == mint("edition", EDITION)


def test_ranges_become_refers_to_edges(imported: dict) -> None:
    rows = open_kb().select(
        "SELECT ?rule ?target WHERE { ?rule mtgkb:refersTo ?target }", rule=rule_iri("601.2i")
    )
    assert sorted(row["target"] for row in rows) == sorted(rule_iri(f"601.2{x}") for x in "abcdefgh")


def test_glossary_entry_links_its_rule(imported: dict) -> None:
    rows = open_kb().select(
        """SELECT ?entry ?term ?rule WHERE { ?entry a mtgkb:GlossaryEntry ; mtgkb:glossaryTerm ?term ;
                                              mtgkb:definesRules ?rule }""",
        entry=mint("glossary", "Ninjutsu"),
    )
    assert [(row["term"], row["rule"]) for row in rows] == [("Ninjutsu", rule_iri("702.49"))]


def test_curated_rule_node_gets_the_official_text(imported: dict) -> None:
    rows = open_kb().select(
        "SELECT ?rule ?summary ?text WHERE { ?rule mtgkb:summary ?summary . "
        "OPTIONAL { ?rule mtgkb:text ?text } }",
        rule=rule_iri("702.49d"),
    )
    if not rows:
        pytest.skip("data/ has no curated summary for CR 702.49d yet")
    assert all(row["text"] and row["text"].startswith("Commander ninjutsu") for row in rows)
    assert all(row["summary"] != row["text"] for row in rows)


def test_reimport_replaces_the_edition_with_identical_counts(run_cli, imported: dict, cr_path: Path) -> None:
    first = imported["summary"]
    size_before = _graph_size(first["graph"])
    result = run_cli("import", "rules", str(cr_path), "--json", "--quiet")
    assert result.exit_code == 0, result.stderr
    again = json.loads(result.stdout)
    assert again["replaced"] is True and result.stderr == ""
    for key in ("edition", "rules", "headings", "glossary", "references", "quads", "output"):
        assert again[key] == first[key]
    assert _graph_size(first["graph"]) == size_before


def _state() -> dict[str, str]:
    """What an import may change: the imported files' contents and the built stores."""
    files = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(imports_dir().glob("*"))}
    stores = {f"store:{p.name}": "" for p in sorted((cache_dir() / "stores").iterdir())}
    return files | stores


@pytest.mark.parametrize("kind", ["rulesraker-json", "png", "other-text"])
def test_wrong_files_are_refused_and_change_nothing(
    run_cli, imported: dict, shared_data: Path, tmp_path: Path, kind: str
) -> None:
    if kind == "rulesraker-json":
        path = shared_data / "rules" / "MagicCompRules-20260116.rulesraker.json"
    elif kind == "png":
        path = tmp_path / "rules.txt"
        path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + os.urandom(256))
    else:
        path = shared_data / "README.md"
    before = _state()
    result = run_cli("import", "rules", str(path))
    assert result.exit_code == 2
    assert f"Error: {path} is not a Comprehensive Rules text file" in result.stderr
    assert "Comprehensive Rules .txt" in result.stderr
    assert "Traceback" not in result.output + result.stderr
    assert _state() == before


def _derived_edition(cr_path: Path, folder: Path) -> Path:
    """A copy of the published file as a later edition: new date, 702.49b deleted, 702.49c edited,
    702.49e added."""
    lines = cr_path.read_text(encoding="utf-8").split("\n")
    out = []
    for line in lines:
        if line.startswith("These rules are effective as of"):
            line = "These rules are effective as of June 19, 2026."
        if line.startswith("702.49b "):
            continue
        if line.startswith("702.49c "):
            line += " (Edited for the diff test.)"
        out.append(line)
        if line.startswith("702.49d "):
            out += ["", "702.49e A rule the diff test added."]
    path = folder / "MagicCompRules-20260619.txt"
    path.write_text("\n".join(out), encoding="utf-8")
    return path


def test_diff_between_editions(run_cli, imported: dict, cr_path: Path, tmp_path: Path) -> None:
    result = run_cli("import", "rules", str(_derived_edition(cr_path, tmp_path)), "--quiet")
    assert result.exit_code == 0, result.stderr
    assert f"effective {DERIVED}" in result.stdout

    editions = json.loads(run_cli("rules", "editions", "--json").stdout)
    assert [e["date"] for e in editions["editions"]] == [DERIVED, EDITION]
    assert editions["default"] == DERIVED

    result = run_cli("rules", "diff", EDITION, DERIVED, "--json")
    assert result.exit_code == 0, result.stderr
    diff = json.loads(result.stdout)
    assert [r["number"] for r in diff["added"]] == ["702.49e"]
    assert diff["added"][0]["text"] == "A rule the diff test added."
    assert [r["number"] for r in diff["removed"]] == ["702.49b"]
    assert [c["number"] for c in diff["changed"]] == ["702.49c"]
    change = diff["changed"][0]
    assert change["new_text"] == change["old_text"] + " (Edited for the diff test.)"
    old_rules = open_kb().select(
        "SELECT ?graph (COUNT(?rule) AS ?n) WHERE { GRAPH ?graph { ?rule mtgkb:ruleNumber ?number } } "
        "GROUP BY ?graph",
        graph=mint("graph", "cr", EDITION),
    )[0]["n"]
    assert diff["unchanged"] == old_rules - 2

    # NEW defaults to the newest edition; the text report names each rule.
    text = run_cli("rules", "diff", "20260417")
    assert text.exit_code == 0, text.stderr
    assert "1 added, 1 removed, 1 changed" in text.stdout
    assert "+ 702.49e (added)" in text.stdout and "~ 702.49c (changed)" in text.stdout
    assert "hand.{+ (Edited for the diff test.)+}" in text.stdout


def test_diff_names_unknown_editions(run_cli, imported: dict) -> None:
    result = run_cli("rules", "diff", "2020-01-01", EDITION)
    assert result.exit_code == 2
    assert "no Comprehensive Rules edition named '2020-01-01'" in result.stderr
    assert f"'{EDITION}'" in result.stderr
    result = run_cli("rules", "diff", "April", EDITION)
    assert result.exit_code == 2 and "not an edition date" in result.stderr


def test_an_unwritable_data_directory_is_a_clear_error(
    run_cli, cr_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("MTGKB_DATA_DIR", str(blocker))
    monkeypatch.setenv("MTGKB_CACHE_DIR", str(tmp_path / "cache"))
    result = run_cli("import", "rules", str(cr_path), "--quiet")
    assert result.exit_code == 2
    assert "Error: cannot write" in result.stderr and "MTGKB_DATA_DIR" in result.stderr


def test_a_rule_shows_the_references_of_the_edition_it_shows(
    run_cli, cr_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MTGKB_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MTGKB_CACHE_DIR", str(tmp_path / "cache"))
    later = cr_path.read_text(encoding="utf-8").replace(
        "These rules are effective as of April 17, 2026.", "These rules are effective as of June 19, 2026."
    )
    later = "\n".join(
        line + " See rule 509.1h." if line.startswith("702.49d ") else line for line in later.split("\n")
    )
    (tmp_path / "later.txt").write_text(later, encoding="utf-8")
    for path in (cr_path, tmp_path / "later.txt"):
        assert run_cli("import", "rules", str(path), "--quiet").exit_code == 0

    def references(*edition: str) -> set[str]:
        result = run_cli("rule", "702.49d", *edition, "--json")
        assert result.exit_code == 0, result.stderr
        return {node["number"] for node in json.loads(result.stdout)["refers_to"]}

    assert "509.1h" in references()
    assert "509.1h" in references("--edition", DERIVED)
    assert "509.1h" not in references("--edition", "20260417")
