"""`mtgkb fetch` against a local HTTP server on 127.0.0.1 that serves the ../shared files."""

from __future__ import annotations

import functools
import json
import shutil
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from card_pool import oracle_card


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    root = tmp_path / "site"
    root.mkdir()
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", root
    finally:
        server.shutdown()
        server.server_close()


def test_fetch_rules_follows_the_rules_page_link_and_imports(
    run_cli, site, user_dirs, shared_data: Path
) -> None:
    base, root = site
    shutil.copy(shared_data / "rules" / "MagicCompRules-20260417.txt", root / "MagicCompRules 20260417.txt")
    (root / "rules.html").write_text(
        '<html><body><a href="/MagicCompRules%2020260417.txt">Comprehensive Rules (TXT)</a></body></html>'
    )
    result = run_cli("fetch", "rules", "--url", f"{base}/rules.html", "--json")
    assert result.exit_code == 0, result.stderr
    downloaded = Path(json.loads(result.stdout)["downloads"][0]["path"])
    assert downloaded.read_bytes() == (root / "MagicCompRules 20260417.txt").read_bytes()
    assert not list(downloaded.parent.glob("*.part"))

    rule = run_cli("rule", "702.49d", "--json")
    assert rule.exit_code == 0, rule.stderr
    assert "command zone" in json.dumps(json.loads(rule.stdout))


def test_fetch_cards_reads_the_bulk_data_listing_and_imports(
    run_cli, site, user_dirs, shared_data: Path
) -> None:
    base, root = site
    subset = json.loads((shared_data / "cards" / "subset-ninjutsu-partner.json").read_text())
    records = [r for r in subset["cards"] if r.get("scryfall_oracle_id") and r.get("mana_cost") is not None]
    yuriko = next(r for r in records if r["name"] == "Yuriko, the Tiger's Shadow")
    (root / "oracle-cards.json").write_text(json.dumps([oracle_card(r) for r in records]))
    rulings = [
        {
            "object": "ruling",
            "oracle_id": yuriko["scryfall_oracle_id"],
            "source": "wotc",
            "published_at": ruling["date"],
            "comment": ruling["text"],
        }
        for ruling in yuriko["rulings"]
    ]
    (root / "rulings.json").write_text(json.dumps(rulings))
    listing = {
        "object": "list",
        "data": [
            {"type": "oracle_cards", "download_uri": f"{base}/oracle-cards.json"},
            {"type": "rulings", "download_uri": f"{base}/rulings.json"},
        ],
    }
    (root / "bulk-data.json").write_text(json.dumps(listing))

    result = run_cli("fetch", "cards", "--url", f"{base}/bulk-data.json", "--json")
    assert result.exit_code == 0, result.stderr
    assert len(json.loads(result.stdout)["downloads"]) == 2

    card = run_cli("rulings", "Yuriko, the Tiger's Shadow", "--json")
    assert card.exit_code == 0, card.stderr
    texts = json.dumps(json.loads(card.stdout))
    assert all(r["comment"][:40] in texts for r in rulings[:3])


def test_an_unreachable_server_is_a_clear_error(run_cli, user_dirs) -> None:
    result = run_cli("fetch", "rules", "--url", "http://127.0.0.1:9/rules.html")
    assert result.exit_code == 2
    assert "cannot download" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_page_without_a_rules_link_is_a_clear_error(run_cli, site, user_dirs) -> None:
    base, root = site
    (root / "empty.html").write_text("<html><body>nothing here</body></html>")
    result = run_cli("fetch", "rules", "--url", f"{base}/empty.html")
    assert result.exit_code == 2
    assert "links no Comprehensive Rules" in result.stderr
