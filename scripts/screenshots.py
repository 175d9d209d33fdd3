"""Screenshots of the explorer page for the README, taken from the real page.

Starts ``mtgkb serve`` on a free port over the knowledge base of the environment (run it where the
whole pool is imported, as the README's examples are), drives headless Chromium (Debian's chromium
and chromium-driver, through selenium from the test extras) and writes three PNG files:

- ``explorer-landing.png``: the page as it opens;
- ``explorer-card.png``: a card's neighbourhood, its ability expanded, and the card's details;
- ``explorer-verdict.png``: a verdict asked with the form, its checks beside the graph of the situation.

Usage: ``python scripts/screenshots.py [--out docs/screenshots] [--width 1280]``. Each file must stay
well under 1 MB (the repository refuses larger ones); the script says so and exits 1 if one is not.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MOST_BYTES = 600_000
WAIT = 60


def start_server() -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "mtgkb", "serve", "--host", "127.0.0.1", "--port", "0", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    lines = []
    assert process.stdout is not None
    for line in process.stdout:
        lines.append(line)
        if line.rstrip() == "}":
            break
    else:
        raise SystemExit("mtgkb serve did not start")
    return process, json.loads("".join(lines))["url"]


def browser(width: int, height: int):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
        f"--user-data-dir={tempfile.mkdtemp(prefix='mtgkb-screenshots-')}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(
        service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options
    )
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )
    return driver


def wait(driver, condition, what: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, WAIT, poll_frequency=0.2).until(condition, f"the page did not {what}")


def settled(driver) -> bool:
    return driver.execute_script("return !!window.mtgkbExplorer && window.mtgkbExplorer.requests === 0")


def layouts(driver) -> int:
    return driver.execute_script("return window.mtgkbExplorer.layouts || 0")


def take(driver, out: Path, width: int) -> list[Path]:
    url = driver.current_url
    written = []

    def save(name: str, element=None) -> None:
        path = out / name
        time.sleep(0.5)  # the last frame drawn
        if element is None:
            driver.save_screenshot(str(path))
        else:
            element.screenshot(str(path))
        written.append(path)

    wait(
        driver,
        lambda d: len(d.find_elements("css selector", "#verdict-step option")) > 1 and settled(d),
        "load",
    )
    save("explorer-landing.png")

    before = layouts(driver)
    driver.execute_script("window.mtgkbExplorer.show(arguments[0])", "Yuriko, the Tiger's Shadow")
    wait(driver, lambda d: layouts(d) > before and settled(d), "draw the card")
    ability = driver.execute_script(
        "return window.mtgkbExplorer.cy.nodes().filter(n => n.data('kind') === 'ability').map(n => n.id())[0]"
    )
    if ability:
        before = layouts(driver)
        driver.execute_script("window.mtgkbExplorer.expand(arguments[0])", ability)
        wait(driver, lambda d: layouts(d) > before and settled(d), "expand the ability")
    wait(driver, lambda d: "Rulings" in d.find_element("id", "details").text and settled(d), "show the card")
    save("explorer-card.png")

    driver.get(url)
    wait(
        driver,
        lambda d: len(d.find_elements("css selector", "#verdict-step option")) > 1 and settled(d),
        "load",
    )
    button = driver.find_element("id", "verdict-ask")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    wait(
        driver,
        lambda d: d.execute_script("return window.mtgkbExplorer.lastVerdict !== null") and settled(d),
        "answer",
    )
    # An element's screenshot is cut at the window's edge: make the window as tall as the page.
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )
    driver.execute_script(
        "window.mtgkbExplorer.verdictGraph.resize(); window.mtgkbExplorer.verdictGraph.fit(undefined, 20)"
    )
    save("explorer-verdict.png", driver.find_element("id", "verdict-result"))
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "screenshots")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=820)
    arguments = parser.parse_args()
    arguments.out.mkdir(parents=True, exist_ok=True)
    process, url = start_server()
    driver = None
    try:
        driver = browser(arguments.width, arguments.height)
        driver.get(url)
        written = take(driver, arguments.out, arguments.width)
    finally:
        if driver is not None:
            driver.quit()
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=30)
    too_large = [path for path in written if path.stat().st_size > MOST_BYTES]
    for path in written:
        print(
            f"{path.relative_to(REPO) if path.is_relative_to(REPO) else path}: {path.stat().st_size:,} bytes"
        )
    if too_large:
        print(f"larger than {MOST_BYTES:,} bytes: {', '.join(map(str, too_large))}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
