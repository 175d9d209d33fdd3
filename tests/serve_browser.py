"""Headless Chromium for the explorer's tests (Debian's chromium and chromium-driver, driven by
selenium): a browser that keeps its console and records every Content-Security-Policy violation of
every page and frame it opens in ``window.__cspViolations``, with the helpers the tests share."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
WAIT = 60

#: Run in each document before its own scripts: the CSP violations it meets, for the test to read.
_RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const where = `${event.sourceFile}:${event.lineNumber}`;
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${where}`);
});
"""


@contextlib.contextmanager
def chromium(profile: Path) -> Iterator[Any]:
    """A headless Chromium with its profile in ``profile``; skips the test where none is installed."""
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
        "--window-size=1400,1000",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    chrome = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    chrome.set_page_load_timeout(WAIT)
    chrome.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _RECORD_VIOLATIONS})
    try:
        yield chrome
    finally:
        chrome.quit()


def wait(driver: Any, condition: Any, message: str) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT, poll_frequency=0.2).until(condition, message)


def violations(driver: Any) -> list[str]:
    """The CSP violations the current document met, and those its console told of since the last call."""
    recorded = driver.execute_script("return window.__cspViolations || []")
    logged = [
        entry["message"]
        for entry in driver.get_log("browser")
        if "Content Security Policy" in entry["message"] or "Content-Security-Policy" in entry["message"]
    ]
    return recorded + logged
