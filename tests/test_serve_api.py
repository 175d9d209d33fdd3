"""``mtgkb serve``'s JSON API gives the very objects the CLI's ``--json`` prints, for the same inputs;
names that match nothing are 404 with suggestions, other mistakes 400, as JSON error objects."""

from __future__ import annotations

import json
import urllib.parse
from pathlib import Path

import pytest
from serve_helpers import http, running_server

COMBAT = {
    "turn": "me",
    "step": "declare-blockers",
    "players": {
        "me": {
            "hand": ["Ninja of the Deep Hours", "Sudden Shock"],
            "battlefield": [{"card": "Grizzly Bears", "attacking": "opp", "blocked": False, "tapped": True}],
            "mana": "{1}{U}",
        },
        "opp": {"battlefield": [{"card": "Llanowar Elves"}]},
    },
}
BOARD = """turn: me
step: precombat-main
players:
  me:
    battlefield:
      - {card: Spark Double}
      - {card: Grizzly Bears}
"""


@pytest.fixture(scope="module")
def server(kb):
    with running_server() as running:
        yield running


@pytest.fixture(scope="session")
def cli_json(run_cli):
    """``cli_json(*args)``: the exit code and the parsed answer of ``mtgkb ARGS --json``."""

    def run(*args: str) -> tuple[int, object]:
        result = run_cli(*args, "--json")
        return result.exit_code, json.loads(result.stdout)

    return run


def api(server, path: str, body: str | None = None, **query: str | list[str]) -> tuple[int, object]:
    url = server.url + "api/" + urllib.parse.quote(path)
    if query:
        url += "?" + urllib.parse.urlencode(query, doseq=True)
    answer = http(
        url, body.encode("utf-8") if body is not None else None, method="POST" if body is not None else "GET"
    )
    assert answer.headers["content-type"].startswith("application/json")
    assert "Traceback" not in answer.text
    return answer.status, answer.json()


@pytest.fixture(scope="module")
def situation_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("situations") / "combat.json"
    path.write_text(json.dumps(COMBAT), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def board_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("situations") / "board.yaml"
    path.write_text(BOARD, encoding="utf-8")
    return path


def test_card_is_the_cli_json(cli_json, server) -> None:
    status, document = api(server, "card/Ninja of the Deep Hours")
    assert status == 200
    assert document == cli_json("card", "Ninja of the Deep Hours")[1]
    assert document["name"] == "Ninja of the Deep Hours"


def test_rule_is_the_cli_json_with_the_same_options(cli_json, server) -> None:
    assert api(server, "rule/702.49")[1] == cli_json("rule", "702.49")[1]
    assert (
        api(server, "rule/702.49", depth="0", limit="2")[1]
        == cli_json("rule", "702.49", "--depth", "0", "--limit", "2")[1]
    )


def test_can_activate_posts_the_situation_the_cli_reads(cli_json, server, situation_file: Path) -> None:
    body = situation_file.read_text(encoding="utf-8")
    status, document = api(server, "can-activate", body, card="Ninja of the Deep Hours")
    exit_code, expected = cli_json(
        "can-activate", "Ninja of the Deep Hours", "--situation", str(situation_file)
    )
    assert (status, exit_code) == (200, 0)
    assert document == expected
    assert document["answer"] is True and all(check["cites"] for check in document["checks"])


def test_cannot_tell_is_still_200_with_answer_null(cli_json, server, situation_file: Path) -> None:
    # Grizzly Bears has no activated ability of the kinds modelled: the CLI exits 3, the API says 200.
    body = situation_file.read_text(encoding="utf-8")
    status, document = api(server, "can-activate", body, card="Grizzly Bears")
    exit_code, expected = cli_json("can-activate", "Grizzly Bears", "--situation", str(situation_file))
    assert (status, exit_code) == (200, 3)
    assert document == expected and document["answer"] is None
    assert [check["holds"] for check in document["checks"]] == [None]


def test_can_cast_no_is_still_200_with_answer_false(cli_json, server, situation_file: Path) -> None:
    body = situation_file.read_text(encoding="utf-8")
    status, document = api(server, "can-cast", body, card="Grizzly Bears")
    exit_code, expected = cli_json("can-cast", "Grizzly Bears", "--situation", str(situation_file))
    assert (status, exit_code) == (200, 1)
    assert document == expected and document["answer"] is False


def test_commanders_is_the_cli_json(cli_json, server) -> None:
    status, document = api(server, "commanders", card=["Thrasios, Triton Hero", "Tymna the Weaver"])
    assert status == 200
    assert document == cli_json("commanders", "Thrasios, Triton Hero", "Tymna the Weaver")[1]


def test_copy_with_and_without_a_situation(cli_json, server, board_file: Path) -> None:
    status, document = api(server, "copy", "", card="Spark Double", target="Grizzly Bears")
    assert status == 200
    assert document == cli_json("copy", "Spark Double", "--target", "Grizzly Bears")[1]
    status, on_board = api(server, "copy", BOARD, card="Spark Double", target="Grizzly Bears")
    expected = cli_json("copy", "Spark Double", "--target", "Grizzly Bears", "--situation", str(board_file))[
        1
    ]
    assert status == 200 and on_board == expected


def test_other_lookups_are_the_cli_json(cli_json, server) -> None:
    assert api(server, "rulings/ninjutsu", limit="3")[1] == cli_json("rulings", "ninjutsu", "--limit", "3")[1]
    assert (
        api(server, "timing/Ninja of the Deep Hours")[1] == cli_json("timing", "Ninja of the Deep Hours")[1]
    )
    assert api(server, "partners/Thrasios")[1] == cli_json("partners", "Thrasios")[1]
    assert api(server, "search", q="unblocked attacker")[1] == cli_json("search", "unblocked", "attacker")[1]


def test_an_unknown_name_is_404_with_the_clis_suggestions(cli_json, server) -> None:
    status, document = api(server, "card/thrasois")
    exit_code, expected = cli_json("card", "thrasois")
    assert (status, exit_code) == (404, 2)
    assert document["error"] == expected["error"] == "no card named 'thrasois'"
    assert (
        document["suggestions"] == expected["suggestions"]
        and "Thrasios, Triton Hero" in document["suggestions"]
    )
    status, document = api(server, "can-activate", json.dumps(COMBAT), card="Ninja of the Deep Hourz")
    assert status == 404 and "Ninja of the Deep Hours" in document["suggestions"]


@pytest.mark.parametrize(
    ("path", "body", "query", "status", "words"),
    [
        ("can-activate", "{not json: [", {"card": "Ninja of the Deep Hours"}, 400, "neither JSON nor YAML"),
        ("can-activate", "", {"card": "Ninja of the Deep Hours"}, 400, "post the situation"),
        ("can-activate", json.dumps(COMBAT), {}, 400, "'card' is missing"),
        ("can-cast", json.dumps({**COMBAT, "step": "lunch"}), {"card": "Sudden Shock"}, 400, "lunch"),
        ("rule/702.49", None, {"limit": "many"}, 400, "whole number"),
        ("commanders", None, {}, 400, "name the cards"),
        ("frobnicate", None, {}, 404, "no API route"),
        ("card", None, {}, 400, "name the card"),
        ("rule/702.999", None, {}, 404, "702.999"),
        ("rule/9999.1", None, {}, 400, "not a rule number"),
        ("graph", None, {"node": "<img src=x onerror=a:b>"}, 404, "<img src=x onerror=a:b>"),
        ("node", None, {"node": "<a b:c>"}, 404, "<a b:c>"),
    ],
)
def test_mistakes_are_clear_json_errors(server, path, body, query, status, words) -> None:
    got, document = api(server, path, body, **query)
    assert got == status, document
    assert words in document["error"] + " " + (document.get("hint") or ""), document
    assert document["status"] == status


def test_the_wrong_method_is_405(server) -> None:
    answer = http(server.url + "api/can-activate?card=Ninja")
    assert answer.status == 405 and "POST" in answer.json()["error"]


def test_an_oversized_situation_is_413(server) -> None:
    body = json.dumps({**COMBAT, "padding": "x" * (1024 * 1024 + 10)}).encode()
    answer = http(server.url + "api/can-activate?card=Ninja", body, method="POST")
    assert answer.status == 413 and "situation" in answer.json()["error"]


def test_the_explorer_calls(server) -> None:
    status, names = api(server, "names", q="ninja of")
    assert status == 200 and names["matches"][0]["label"] == "Ninja of the Deep Hours"
    status, rule = api(server, "names", q="702.49")
    assert rule["matches"][0] == {
        "iri": "https://w3id.org/mtgkb/cr/702.49",
        "label": "CR 702.49 Ninjutsu",
        "kind": "rule",
    }
    status, graph = api(server, "graph", node="Ninja of the Deep Hours")
    assert status == 200 and graph["node"]["kind"] == "card"
    shown = {node["iri"] for node in graph["nodes"]} | {graph["node"]["iri"]}
    assert graph["links"] and all(
        link["source"] in shown and link["target"] in shown for link in graph["links"]
    )
    status, details = api(server, "node", node="mechanic:ninjutsu")
    assert status == 200 and details["node"]["label"] == "Ninjutsu" and "mtgkb:Mechanic" in details["types"]
    # Properties and classes by their labels in the ontology, links with their targets' labels.
    labelled = {prop["property"]: prop["label"] for prop in details["properties"]}
    assert labelled["mtgkb:entersAttacking"] == "enters attacking" and details["type_labels"] == ["Mechanic"]
    links = {(link["label"], link["target"]["label"]) for link in details["links"]}
    assert ("functions in", "hand") in links
    # A ruling is named by its card, date and the start of its text.
    status, ninja = api(server, "graph", node="Ninja of the Deep Hours")
    rulings = [node["label"] for node in ninja["nodes"] if node["kind"] == "ruling"]
    assert rulings and all(
        label.startswith("Ninja of the Deep Hours, 20") and "“" in label for label in rulings
    )
