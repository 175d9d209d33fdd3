"""``mtgkb fetch`` against a hostile server of the test's own on 127.0.0.1: addresses whose last
segment climbs out of the downloads folder, links and listings to ``file:`` addresses, endless and
trickled answers, and files that the import refuses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_peer import Answer, hostile_peer

RULES_NAME = "MagicCompRules-20260417.txt"


def _downloads(user_dirs) -> Path:
    return user_dirs.data / "downloads"


def _files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) if folder.exists() else []


@pytest.mark.parametrize(
    "segment",
    [
        "..%2F..%2F..%2Fvictim.txt",
        "%2E%2E%2F%2E%2E%2F%2E%2E%2Fvictim.txt",
        "ABSOLUTE",
        "..%5C..%5Cvictim.txt",
    ],
)
def test_a_download_name_cannot_leave_the_downloads_folder(
    run_cli, user_dirs, tmp_path: Path, segment
) -> None:
    victim = user_dirs.base / "victim.txt"
    victim.write_text("keep me\n")
    if segment == "ABSOLUTE":
        segment = str(victim).replace("/", "%2F")
    # Not a rules text: the import refuses it, after the download.
    with hostile_peer({f"/{segment}": Answer(b"server content, not rules\n")}) as peer:
        result = run_cli("fetch", "rules", "--url", peer.url(f"/{segment}"))
        assert peer.requests, "the file was never asked for"
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert victim.read_text() == "keep me\n"
    assert not list(user_dirs.base.rglob("*server content*"))
    # Nothing of the refused file stays behind, not even its staging folder.
    assert _files_under(_downloads(user_dirs)) == []
    written = [p for p in tmp_path.rglob("*") if p.is_file() and b"server content" in p.read_bytes()]
    assert written == []


def test_a_hostile_name_is_made_safe_and_the_file_lands_in_the_downloads_folder(
    run_cli, user_dirs, shared_data: Path
) -> None:
    rules = (shared_data / "rules" / RULES_NAME).read_bytes()
    segment = "..%2F..%2F%00evil%0A" + "x" * 300 + ".txt"
    with hostile_peer({f"/{segment}": Answer(rules)}) as peer:
        result = run_cli("fetch", "rules", "--url", peer.url(f"/{segment}"), "--json")
    assert result.exit_code == 0, result.output
    path = Path(json.loads(result.stdout)["downloads"][0]["path"])
    assert path.parent == _downloads(user_dirs).resolve()
    assert path.read_bytes() == rules
    assert len(path.name) <= 120 and path.name.endswith(".txt")
    assert not any(character in path.name for character in "/\\\x00\n") and ".." not in path.name
    assert _files_under(_downloads(user_dirs)) == [path.name]


def test_links_of_a_rules_page_are_held_to_the_same_rules(run_cli, user_dirs) -> None:
    victim = user_dirs.base / "victim.txt"
    victim.write_text("keep me\n")
    page = f'<a href="/..%2F..%2F..%2F{victim.name}?MagicCompRules.txt">rules</a>'.encode()
    with hostile_peer({"/rules.html": Answer(page, content_type="text/html")}) as peer:
        peer.answers[f"/..%2F..%2F..%2F{victim.name}"] = Answer(b"server content")
        result = run_cli("fetch", "rules", "--url", peer.url("/rules.html"))
    assert result.exit_code == 2, result.output
    assert victim.read_text() == "keep me\n"
    assert _files_under(_downloads(user_dirs)) == []


@pytest.mark.parametrize(
    "address", ["file:///etc/passwd#MagicCompRules.txt", "ftp://127.0.0.1/MagicCompRules.txt"]
)
def test_a_rules_page_linking_to_a_file_address_is_refused(run_cli, user_dirs, address: str) -> None:
    page = f'<a href="{address}">rules</a>'.encode()
    # The link must end in .txt for the page reader to take it.
    page = page.replace(b'">', b'.txt">') if not address.endswith(".txt") else page
    with hostile_peer({"/rules.html": Answer(page, content_type="text/html")}) as peer:
        result = run_cli("fetch", "rules", "--url", peer.url("/rules.html"))
    assert result.exit_code == 2, result.output
    assert "not an http(s) URL" in result.stderr and "Traceback" not in result.output
    assert _files_under(_downloads(user_dirs)) == []


def test_a_bulk_listing_with_a_file_address_is_refused_before_anything_is_read(run_cli, user_dirs) -> None:
    listing = {"data": [{"type": "oracle_cards", "download_uri": "file:///etc/passwd"}]}
    with hostile_peer(
        {"/bulk": Answer(json.dumps(listing).encode(), content_type="application/json")}
    ) as peer:
        result = run_cli("fetch", "cards", "--url", peer.url("/bulk"))
        assert peer.requests == ["GET /bulk"]
    assert result.exit_code == 2, result.output
    assert "file:///etc/passwd" in result.stderr and "not an http(s) URL" in result.stderr
    assert _files_under(_downloads(user_dirs)) == []


@pytest.mark.parametrize("target", ["file:///etc/passwd", "ftp://127.0.0.1/oracle.json"])
def test_a_redirect_off_the_web_is_not_followed(run_cli, user_dirs, target: str) -> None:
    with hostile_peer() as peer:
        listing = {"data": [{"type": "oracle_cards", "download_uri": peer.url("/cards")}]}
        peer.answers["/bulk"] = Answer(json.dumps(listing).encode(), content_type="application/json")
        peer.answers["/cards"] = Answer(status=302, headers={"Location": target})
        result = run_cli("fetch", "cards", "--url", peer.url("/bulk"))
    assert result.exit_code == 2, result.output
    assert "is not followed" in result.stderr and "Traceback" not in result.output
    assert _files_under(_downloads(user_dirs)) == []


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:9/rules\x00.html", "http://[::1/rules.html", "http://127.0.0.1:x/"]
)
def test_an_address_that_cannot_be_sent_is_a_clear_error(run_cli, user_dirs, url: str) -> None:
    result = run_cli("fetch", "rules", "--url", url)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("Error: ") and "Traceback" not in result.output


def test_a_failed_import_leaves_the_earlier_download_in_place(run_cli, user_dirs) -> None:
    earlier = _downloads(user_dirs) / RULES_NAME
    earlier.parent.mkdir(parents=True)
    earlier.write_text("the download of last week\n")
    with hostile_peer({f"/{RULES_NAME}": Answer(b"not the rules at all\n")}) as peer:
        result = run_cli("fetch", "rules", "--url", peer.url(f"/{RULES_NAME}"))
    assert result.exit_code == 2, result.output
    assert earlier.read_text() == "the download of last week\n"
    assert _files_under(_downloads(user_dirs)) == [RULES_NAME]


def test_an_endless_page_stops_at_the_page_limit(run_cli, user_dirs) -> None:
    with hostile_peer({"/rules.html": Answer(b"<html>", content_type="text/html", endless=True)}) as peer:
        result = run_cli("fetch", "rules", "--url", peer.url("/rules.html"), env={"MTGKB_MAX_PAGE_MB": "1"})
    assert result.exit_code == 2, result.output
    assert "larger than 1 MB" in result.stderr and "MTGKB_MAX_PAGE_MB" in result.stderr


def test_an_endless_download_stops_at_the_download_limit(run_cli, user_dirs) -> None:
    with hostile_peer({f"/{RULES_NAME}": Answer(b"", endless=True)}) as peer:
        result = run_cli(
            "fetch", "rules", "--url", peer.url(f"/{RULES_NAME}"), env={"MTGKB_MAX_DOWNLOAD_MB": "2"}
        )
    assert result.exit_code == 2, result.output
    assert "larger than 2 MB" in result.stderr and "MTGKB_MAX_DOWNLOAD_MB" in result.stderr
    assert _files_under(_downloads(user_dirs)) == []


@pytest.mark.parametrize("path", ["/rules.html", f"/{RULES_NAME}"])
@pytest.mark.parametrize("body_only", [False, True], ids=["headers", "body"])
def test_a_trickling_server_is_given_up_on_at_the_total_time_limit(
    user_dirs, path: str, body_only: bool
) -> None:
    # A byte every half second: every read is answered long before any per-read timeout, so only a
    # limit on the whole download ends it. If the limit were per read, this would run forever (the
    # subprocess timeout below then fails the test).
    body = b"<html>" if path.endswith("html") else b"100.1. rules"
    answer = Answer(body, trickle=0.5, trickle_body_only=body_only, endless=True)
    with hostile_peer({path: answer}) as peer:
        done = subprocess.run(
            [sys.executable, "-m", "mtgkb", "fetch", "rules", "--url", peer.url(path), "--timeout", "2"],
            env=os.environ.copy(),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2, done.stderr
    assert "took longer than 2 s in all" in done.stderr and "Traceback" not in done.stderr
    assert _files_under(_downloads(user_dirs)) == []


def test_a_server_that_stops_before_the_length_it_claimed_is_a_clear_error(run_cli, user_dirs) -> None:
    with hostile_peer({f"/{RULES_NAME}": Answer(b"100.1. The rules", claimed_length=100_000)}) as peer:
        result = run_cli("fetch", "rules", "--url", peer.url(f"/{RULES_NAME}"))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "stopped after 16 of 100000 bytes" in result.stderr
    assert _files_under(_downloads(user_dirs)) == []
