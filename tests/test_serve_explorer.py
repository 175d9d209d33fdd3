"""The explorer page in a real browser: headless Chromium (Debian's chromium and chromium-driver),
driven by selenium, against ``mtgkb serve`` on 127.0.0.1, in a window 1400 px wide and in one 420 px
wide. It opens at its top; it searches a card, draws and expands nodes, each with a human label, laid
out readably; the verdict form answers as the command line does for the same situation; and on the
whole pool a card's legalities are one labelled node that pulls in no other card. Skipped, with a
message, only where no Chromium is installed (``.ci/run`` installs it)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from serve_browser import chromium, wait
from serve_helpers import running_server

WIDTHS = (1400, 420)
NINJA = "https://w3id.org/mtgkb/card/ninja-of-the-deep-hours"


@pytest.fixture(scope="module")
def server(kb):
    with running_server() as running:
        yield running


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as chrome:
        yield chrome


@pytest.fixture(params=WIDTHS, ids=lambda width: f"{width}px")
def browser(driver, request):
    """The browser with a viewport of the parameter's width (a desktop, a phone)."""
    width = request.param
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600},
    )
    driver.width = width
    return driver


def _wait(driver, condition, message: str):
    return wait(driver, condition, message)


def _script(driver, script: str, *args):
    return driver.execute_script(script, *args)


def _count(driver, what: str) -> int:
    return _script(driver, f"return window.mtgkbExplorer.cy.{what}().length")


def _open(driver, url: str) -> None:
    driver.get(url)
    _wait(
        driver, lambda d: _script(d, "return !!(window.mtgkbExplorer && window.mtgkbExplorer.cy)"), "no graph"
    )
    _wait(
        driver, lambda d: len(d.find_elements("css selector", "#verdict-step option")) > 1, "no steps listed"
    )


def _settled(driver) -> bool:
    return _script(driver, "return window.mtgkbExplorer.requests === 0")


def _draw(driver, call: str, node: str) -> None:
    """``window.mtgkbExplorer.show`` or ``.expand`` of ``node``, once its layout is done."""
    before = _script(driver, "return window.mtgkbExplorer.layouts || 0")
    _script(driver, f"window.mtgkbExplorer.{call}(arguments[0])", node)
    _wait(
        driver,
        lambda d: (_script(d, "return window.mtgkbExplorer.layouts || 0") > before) and _settled(d),
        f"{call} {node} drew nothing",
    )


def _show(driver, text: str) -> None:
    _draw(driver, "show", text)


def _expand(driver, iri: str) -> None:
    _draw(driver, "expand", iri)


_RAW = re.compile(r"://|^[a-z][a-z0-9-]*:[A-Za-z0-9_./-]+$|^(null|undefined|)$")


def _labels(driver, graph: str = "cy") -> dict[str, str]:
    return _script(
        driver,
        f"const l = {{}}; window.mtgkbExplorer.{graph}.nodes()"
        ".forEach(n => l[n.id()] = n.data('label')); return l",
    )


def _assert_human(labels: dict[str, str]) -> None:
    raw = {iri: label for iri, label in labels.items() if _RAW.search(str(label).strip())}
    assert not raw, f"labels that are no names: {raw}"


def _no_null(driver) -> None:
    text = driver.find_element("tag name", "body").text
    assert not re.search(r"\b(null|undefined)\b", text), "the page shows a literal null or undefined"


# --- the page opens at its top ---------------------------------------------------------------------


@pytest.mark.parametrize("path", ["", "?node=Ninja%20of%20the%20Deep%20Hours"])
def test_the_page_opens_at_the_top(server, browser, path: str) -> None:
    _open(browser, server.url + path)
    _wait(browser, _settled, "requests still running")
    assert _script(browser, "return window.scrollY") == 0
    focused = _script(
        browser, "return document.activeElement ? document.activeElement.closest('#yasgui') !== null : false"
    )
    assert not focused, "the SPARQL editor took the focus"
    assert _script(browser, "return document.documentElement.scrollWidth") <= browser.width + 1, (
        "wider than the window"
    )


# --- the graph: names, layout, details -------------------------------------------------------------


def test_search_draw_expand_and_details(server, browser, tmp_path: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    _open(browser, server.url)
    search = browser.find_element(By.ID, "search")
    search.send_keys("Ninja of the De")
    suggestion = _wait(
        browser,
        lambda d: next(
            (
                li
                for li in d.find_elements(By.CSS_SELECTOR, "#suggestions li")
                if "Ninja of the Deep Hours" in li.text
            ),
            False,
        ),
        "no suggestion for the card",
    )
    ActionChains(browser).click(suggestion).perform()
    _wait(browser, lambda d: _count(d, "edges") > 0 and _settled(d), "no edges drawn for the card")
    assert _script(browser, f"return window.mtgkbExplorer.cy.getElementById('{NINJA}').nonempty()")
    _wait(browser, lambda d: "Rulings" in d.find_element(By.ID, "details").text, "no card details")
    details = browser.find_element(By.ID, "details").text
    assert "Ninjutsu" in details and "2021-03-19" in details
    nodes, edges = _count(browser, "nodes"), _count(browser, "edges")
    assert f"{nodes} nodes, {edges} edges" in browser.find_element(By.ID, "graph-stats").text

    # Clicking a node expands it (the ability, then its mechanic).
    ability = _script(
        browser,
        "return window.mtgkbExplorer.cy.nodes()"
        ".filter(n => n.data('kind') === 'ability').map(n => n.id())[0]",
    )
    assert ability, "the card's ability should be drawn"
    graph = browser.find_element(By.ID, "graph")
    position = _script(
        browser,
        "return Object.values(window.mtgkbExplorer.cy.getElementById(arguments[0]).renderedPosition())",
        ability,
    )
    size = graph.size
    ActionChains(browser).move_to_element_with_offset(
        graph, int(position[0] - size["width"] / 2), int(position[1] - size["height"] / 2)
    ).click().perform()
    _wait(
        browser,
        lambda d: _script(d, f"return window.mtgkbExplorer.expanded.has('{ability}')") and _settled(d),
        "no expansion",
    )
    _expand(browser, "https://w3id.org/mtgkb/mechanic/ninjutsu")
    assert _count(browser, "nodes") > nodes
    _assert_human(_labels(browser))
    _no_null(browser)
    browser.save_screenshot(str(tmp_path / f"explorer-expanded-{browser.width}.png"))


def test_expanded_nodes_are_spread_out_with_readable_labels(server, browser) -> None:
    """After two expansions, 28 nodes stood in a narrow column with unreadable labels."""
    _open(browser, server.url)
    _show(browser, "Ninja of the Deep Hours")
    _expand(browser, "https://w3id.org/mtgkb/ability/ninja-of-the-deep-hours/ninjutsu")
    _expand(browser, "https://w3id.org/mtgkb/mechanic/ninjutsu")
    shape = _script(
        browser,
        "const cy = window.mtgkbExplorer.cy; const bb = cy.nodes().boundingBox();"
        "const boxes = cy.nodes().map(n => n.boundingBox({includeLabels: true, includeOverlays: false}));"
        "let overlaps = 0;"
        "for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {"
        "  const a = boxes[i], b = boxes[j];"
        "  if (a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2) overlaps++; }"
        "return {w: bb.w, h: bb.h, zoom: cy.zoom(), nodes: boxes.length, overlaps};",
    )
    assert shape["nodes"] >= 20
    assert 1 / 3 <= shape["w"] / shape["h"] <= 3, f"a narrow band, not a graph: {shape}"
    assert shape["zoom"] >= 0.7 - 1e-9, "labels drawn too small to read"
    assert shape["overlaps"] <= shape["nodes"] // 4, f"labels on top of each other: {shape}"


def test_a_rule_without_subrules_and_a_mechanic_show_no_null_and_no_raw_terms(server, browser) -> None:
    from selenium.webdriver.common.by import By

    _open(browser, server.url + "?node=702.49d")
    _wait(
        browser,
        lambda d: "CR 702.49d" in d.find_element(By.ID, "details").text and _settled(d),
        "no rule details",
    )
    _no_null(browser)
    _assert_human(_labels(browser))
    _show(browser, "mechanic:ninjutsu")
    _wait(
        browser, lambda d: "Rulings (" in d.find_element(By.ID, "details").text, "no rulings on the mechanic"
    )
    details = browser.find_element(By.ID, "details").text
    assert "enters attacking" in details and "a Mechanic" in details
    assert "mtgkb:" not in details, "a raw predicate in the details"
    _no_null(browser)


def test_the_page_reports_an_unknown_name(server, browser) -> None:
    from selenium.webdriver.common.by import By

    browser.get(server.url + "?node=Thrasois")
    _wait(
        browser,
        lambda d: "did you mean" in d.find_element(By.ID, "graph-stats").text,
        "no did-you-mean shown",
    )


def test_the_sparql_editor_is_there_and_offline(server, driver) -> None:
    from selenium.webdriver.common.by import By

    driver.get(server.url + "#sparql")
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#yasgui .yasqe"), "YASGUI did not load")
    endpoint = driver.execute_script("return window.mtgkbExplorer.yasgui.getTab().getEndpoint()")
    assert endpoint == server.url + "sparql"
    sources = driver.execute_script(
        "return [...document.scripts].map(s => s.src)"
        ".concat([...document.querySelectorAll('link')].map(l => l.href))"
    )
    assert sources and all(source.startswith(server.url) for source in sources if source)


# --- the verdict form answers as the command line --------------------------------------------------

#: (question, card, via, step, creatures [(name, state)], mana): the form's fields, and the CLI's options.
CASES = {
    "ninjutsu in the declare blockers step": (
        "can-activate",
        "Ninja of the Deep Hours",
        None,
        "declare-blockers",
        [("Grizzly Bears", "unblocked")],
        "{1}{U}",
    ),
    "ninjutsu with the attacker blocked": (
        "can-activate",
        "Ninja of the Deep Hours",
        None,
        "combat-damage",
        [("Grizzly Bears", "blocked")],
        "{1}{U}",
    ),
    "sneak with too little mana": (
        "can-cast",
        "Splinter, Hamato Yoshi",
        "sneak",
        "declare-blockers",
        [("Grizzly Bears", "unblocked")],
        "{U}",
    ),
    "every option of the turn": (
        "options",
        None,
        None,
        "declare-blockers",
        [("Grizzly Bears", "unblocked")],
        None,
    ),
}


def _type(element, text: str) -> None:
    from selenium.webdriver.common.keys import Keys

    element.send_keys(Keys.CONTROL, "a")
    element.send_keys(Keys.BACK_SPACE)
    if text:
        element.send_keys(text)


def _fill_form(driver, question, card, via, step, creatures, mana) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element(By.ID, "verdict-question")).select_by_value(question)
    if card is not None:
        _type(driver.find_element(By.ID, "verdict-card"), card)
    if question == "can-cast":
        Select(driver.find_element(By.ID, "verdict-via")).select_by_value(via or "")
    Select(driver.find_element(By.ID, "verdict-step")).select_by_value(step)
    for remove in driver.find_elements(By.CSS_SELECTOR, "#verdict-creatures .row button"):
        remove.click()
    for name, state in creatures:
        driver.find_element(By.ID, "verdict-add-creature").click()
        row = driver.find_elements(By.CSS_SELECTOR, "#verdict-creatures .row")[-1]
        _type(row.find_element(By.TAG_NAME, "input"), name)
        Select(row.find_element(By.TAG_NAME, "select")).select_by_value(state)
    _type(driver.find_element(By.ID, "verdict-mana"), mana or "")


def _ask(driver) -> tuple[dict, dict]:
    from selenium.webdriver.common.by import By

    button = driver.find_element(By.ID, "verdict-ask")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    _wait(
        driver,
        lambda d: _script(d, "return window.mtgkbExplorer.lastVerdict !== null") and _settled(d),
        "no verdict",
    )
    return _script(driver, "return window.mtgkbExplorer.lastRequest"), _script(
        driver, "return window.mtgkbExplorer.lastVerdict"
    )


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_the_verdict_form_answers_as_the_cli(server, browser, run_cli, case: str) -> None:
    from mtgkb.reasoning.situation_options import TableOptions, situation_from_options

    question, card, via, step, creatures, mana = CASES[case]
    _open(browser, server.url)
    _fill_form(browser, question, card, via, step, creatures, mana)
    request, page = _ask(browser)

    # The form posts the situation the CLI makes of the same options ...
    options = {"step": step}
    for name, state in creatures:
        options.setdefault(state, []).append(name)
    if mana:
        options["mana"] = mana
    assert json.loads(request["body"]) == situation_from_options(card, TableOptions(**options))
    # ... and the server's answer is the CLI's, word for word.
    argv = [question] + ([card] if card else []) + ["--step", step]
    for name, state in creatures:
        argv += [f"--{'permanent' if state == 'battlefield' else state}", name]
    argv += ["--mana", mana] if mana else []
    argv += ["--via", via] if via else []
    result = run_cli(*argv, "--json")
    assert result.exit_code in (0, 1), result.output
    assert page == json.loads(result.stdout)
    assert page["answer"] == (result.exit_code == 0)

    # Beside the checks: the situation, each check, the requirement it evaluated and its rules.
    labels = _labels(browser, "verdictGraph")
    _assert_human(labels)
    kinds = _script(browser, "return window.mtgkbExplorer.verdictGraph.nodes().map(n => n.data('kind'))")
    assert kinds.count("holds") + kinds.count("fails") == len(page["checks"])
    assert {f"cr:{number}" for check in page["checks"] for number in check["cites"]} <= set(labels)
    evaluated = {check["evaluates"] for check in page["checks"] if check.get("evaluates")}
    assert evaluated <= set(labels)
    assert "player:me" in labels and "situation:step" in labels
    _no_null(browser)


def test_the_situation_json_stays_available_and_is_posted_as_edited(
    server, driver, run_cli, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    _open(driver, server.url)
    driver.find_element(By.CSS_SELECTOR, "#verdict-json-details summary").click()
    area = driver.find_element(By.ID, "verdict-situation")
    situation = json.loads(area.get_attribute("value"))
    situation["players"]["me"]["graveyard"] = ["Sudden Shock"]
    situation["players"]["me"]["mana"] = "{U}"
    _type(area, json.dumps(situation))
    request, page = _ask(driver)
    assert json.loads(request["body"]) == situation
    file = tmp_path / "situation.json"
    file.write_text(request["body"], encoding="utf-8")
    result = run_cli("can-activate", "Ninja of the Deep Hours", "--situation", str(file), "--json")
    assert page == json.loads(result.stdout) and page["answer"] is False
    # The form writes it again on request.
    driver.find_element(By.ID, "verdict-from-form").click()
    assert "graveyard" not in driver.find_element(By.ID, "verdict-situation").get_attribute("value")


# --- on the whole pool: legalities are a labelled hub ----------------------------------------------


@pytest.fixture(scope="module")
def pool_server(card_pool):
    import os

    with running_server(env={**os.environ, **card_pool.env}) as running:
        yield running


def test_on_the_pool_a_cards_legalities_are_one_labelled_node_that_pulls_in_no_other_card(
    pool_server, driver
) -> None:
    _open(driver, pool_server.url)
    _show(driver, "Yuriko, the Tiger's Shadow")
    labels = _labels(driver)
    _assert_human(labels)
    legality = [iri for iri in labels if "/legality/" in iri]
    assert len(legality) == 1 and labels[legality[0]].startswith("legal in ")
    # Four rulings of one day, each told apart by its text.
    rulings = [label for iri, label in labels.items() if "/ruling/" in iri]
    assert len(rulings) == len(set(rulings)) >= 4
    assert all(label.startswith("Yuriko, the Tiger's Shadow, 2020-11-10: “") for label in rulings)
    cards = _count_kind(driver, "card")
    _expand(driver, legality[0])
    assert _count_kind(driver, "card") == cards, "the legalities node pulled other cards in"
    _assert_human(_labels(driver))


def _count_kind(driver, kind: str) -> int:
    return _script(
        driver,
        "return window.mtgkbExplorer.cy.nodes().filter(n => n.data('kind') === arguments[0]).length",
        kind,
    )
