"""Long work reports progress on stderr: a bar on a terminal, a line per tenth in a log."""

from __future__ import annotations

import io

from mtgkb.cli.progress_display import ProgressDisplay
from mtgkb.core.progress import ProgressUpdate, Ticker


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_ticker_reports_each_hundredth_once() -> None:
    updates: list[str] = []
    ticker = Ticker(updates.append, "writing cards", 1000)
    for done in range(1, 1001):
        ticker.update(done)
    assert len(updates) == 100
    assert isinstance(updates[-1], ProgressUpdate)
    assert updates[-1] == "writing cards: 100% (1,000/1,000)"


def test_a_log_gets_a_line_per_tenth_and_plain_messages_as_they_come() -> None:
    log = io.StringIO()
    display = ProgressDisplay(log)
    display("rebuilding the store")
    ticker = Ticker(display, "loading mtgjson.nq", 500)
    for done in range(0, 501, 5):
        ticker.update(done)
    lines = log.getvalue().splitlines()
    assert lines[0] == "rebuilding the store"
    assert len(lines) == 1 + 11  # 0% is never sent; 1%, then 10% .. 100%
    assert lines[-1] == "loading mtgjson.nq: 100% (500/500)"


def test_a_terminal_gets_one_bar_redrawn_in_place() -> None:
    terminal = _Terminal()
    display = ProgressDisplay(terminal)
    for done in (10, 50, 100):
        display(ProgressUpdate("writing rulings", done, 100))
    display("done")
    output = terminal.getvalue()
    assert output.count("\r") == 3
    assert "writing rulings [" + "#" * 30 + "] 100%\n" in output
    assert output.endswith("done\n")
