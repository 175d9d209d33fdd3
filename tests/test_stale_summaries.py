"""Every summary in data/ records the Comprehensive Rules edition it was written against."""

from __future__ import annotations

from mtgkb.kb.cr_history import History
from mtgkb.lookups.stale_summaries import stale_summaries


def test_every_shipped_summary_records_its_edition() -> None:
    # No history to compare with: only summaries that record no edition are findings.
    findings = stale_summaries(history=History([]))
    assert findings == [], [f"{f.file}: {f.node}" for f in findings[:10]]
