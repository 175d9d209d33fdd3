"""The explorer page in a real browser: headless Chromium (Debian's chromium and chromium-driver),
driven by selenium, against ``mtgkb serve`` on 127.0.0.1. It searches a card, checks the nodes and
edges drawn, clicks a node to expand it, asks a verdict, and saves screenshots in the test's temporary
folder. Skipped, with a message, only where no Chromium is installed (``.ci/run`` installs it)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from serve_helpers import running_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
WAIT = 60


@pytest.fixture(scope="module")
def server(kb):
    with running_server() as running:
        yield running


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.skip("no Chromium here: apt-get install chromium chromium-driver (as .ci/run does)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1400,1800",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(WAIT)
    yield driver
    driver.quit()


def _wait(driver, condition, message: str):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT, poll_frequency=0.2).until(condition, message)


def _count(driver, what: str) -> int:
    return driver.execute_script(f"return window.mtgkbExplorer.cy.{what}().length")


def test_search_draw_expand_and_ask_a_verdict(server, browser, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    browser.get(server.url)
    _wait(
        browser,
        lambda d: d.execute_script("return !!(window.mtgkbExplorer && window.mtgkbExplorer.cy)"),
        "the page did not set up its graph",
    )

    # Search a card: the suggestions offer it, picking it draws its neighbourhood.
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
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).click(suggestion).perform()
    _wait(browser, lambda d: _count(d, "edges") > 0, "no edges drawn for the card")
    nodes, edges = _count(browser, "nodes"), _count(browser, "edges")
    assert nodes >= 3 and edges >= 2
    card = "https://w3id.org/mtgkb/card/ninja-of-the-deep-hours"
    assert browser.execute_script(f"return window.mtgkbExplorer.cy.getElementById('{card}').nonempty()")
    _wait(
        browser,
        # The pane first says "Loading <name>…": wait for the details themselves.
        lambda d: "Rulings" in d.find_element(By.ID, "details").text,
        "no card details",
    )
    details = browser.find_element(By.ID, "details").text
    assert "Ninjutsu" in details and "Rulings" in details and "2021-03-19" in details
    assert f"{nodes} nodes, {edges} edges" in browser.find_element(By.ID, "graph-stats").text
    browser.save_screenshot(str(tmp_path / "explorer-card.png"))

    # Click the ninjutsu ability's mechanic... first the ability node, which is drawn, to expand it.
    ability = browser.execute_script(
        "return window.mtgkbExplorer.cy.nodes().filter(n => n.data('kind') === 'ability').map(n => n.id())[0]"
    )
    assert ability, "the card's ability should be drawn"
    position = browser.execute_script(
        "const n = window.mtgkbExplorer.cy.getElementById(arguments[0]); const p = n.renderedPosition();"
        "const r = window.mtgkbExplorer.cy.container().getBoundingClientRect(); return [p.x, p.y];",
        ability,
    )
    graph = browser.find_element(By.ID, "graph")
    size = graph.size
    ActionChains(browser).move_to_element_with_offset(
        graph, int(position[0] - size["width"] / 2), int(position[1] - size["height"] / 2)
    ).click().perform()
    _wait(
        browser,
        lambda d: (
            d.execute_script(f"return window.mtgkbExplorer.expanded.has('{ability}')")
            and _count(d, "nodes") > nodes
        ),
        "clicking the ability did not expand it",
    )
    mechanic = "https://w3id.org/mtgkb/mechanic/ninjutsu"
    assert browser.execute_script(f"return window.mtgkbExplorer.cy.getElementById('{mechanic}').nonempty()")
    assert _count(browser, "edges") > edges
    browser.save_screenshot(str(tmp_path / "explorer-expanded.png"))

    # Ask a verdict from the form (prefilled with a combat where ninjutsu works): checks with citations.
    verdict = browser.find_element(By.ID, "verdict")
    browser.execute_script("arguments[0].scrollIntoView()", verdict)
    browser.find_element(By.ID, "verdict-ask").click()
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#verdict-result .answer"), "no verdict shown")
    result = browser.find_element(By.ID, "verdict-result")
    assert result.find_element(By.CSS_SELECTOR, ".answer").text == "YES"
    checks = result.find_elements(By.CSS_SELECTOR, "li")
    assert len(checks) >= 4 and all(check.find_elements(By.CSS_SELECTOR, ".cite") for check in checks)
    assert "CR 702.49a" in result.text
    browser.save_screenshot(str(tmp_path / "explorer-verdict.png"))

    # A citation is a link into the graph: clicking one draws the rule.
    result.find_element(By.XPATH, ".//span[@class='cite' and text()='CR 702.49a']").click()
    _wait(
        browser,
        lambda d: d.execute_script(
            "return window.mtgkbExplorer.cy.getElementById('https://w3id.org/mtgkb/cr/702.49a').nonempty()"
        ),
        "clicking a citation did not draw the rule",
    )


def test_the_sparql_editor_is_there_and_offline(server, browser) -> None:
    from selenium.webdriver.common.by import By

    browser.get(server.url + "#sparql")
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#yasgui .yasqe"), "YASGUI did not load")
    endpoint = browser.execute_script("return window.mtgkbExplorer.yasgui.getTab().getEndpoint()")
    assert endpoint == server.url + "sparql"
    # Every script and stylesheet the page loads comes from this server.
    sources = browser.execute_script(
        "return [...document.scripts].map(s => s.src)"
        ".concat([...document.querySelectorAll('link')].map(l => l.href))"
    )
    assert sources and all(source.startswith(server.url) for source in sources if source)


def test_the_page_reports_an_unknown_name(server, browser) -> None:
    from selenium.webdriver.common.by import By

    browser.get(server.url + "?node=Thrasois")
    _wait(
        browser,
        lambda d: "did you mean" in d.find_element(By.ID, "graph-stats").text,
        "no did-you-mean shown",
    )


def test_a_mechanic_shows_its_facts_and_the_rulings_on_it(server, browser) -> None:
    from selenium.webdriver.common.by import By

    browser.get(server.url + "?node=mechanic:ninjutsu")
    _wait(
        browser, lambda d: "Rulings (" in d.find_element(By.ID, "details").text, "no rulings on the mechanic"
    )
    details = browser.find_element(By.ID, "details").text
    assert "Ninjutsu" in details and "mtgkb:Mechanic" in details
    assert _count(browser, "nodes") > 1
