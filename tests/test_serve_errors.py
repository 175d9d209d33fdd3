"""Failures inside the server, in process (issue 18): an answer whose rows fail part way while a worker
writes them, and a bug in the server's own process, each end as an error answer and one line in the
log, never a traceback or half an answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from serve_helpers import asgi_request

from mtgkb.serve.app import create_app
from mtgkb.serve.guard import RequestGuard
from mtgkb.serve.jobs import Job, run_job
from mtgkb.serve.limits import Limits


class _RowsThatFail:
    """A SELECT's rows that fail after the first has been written (as a damaged store's do)."""

    def serialize(self, output: Any, format: Any) -> None:
        output.write(b"card,name\r\n")
        output.write(b"https://w3id.org/mtgkb/card/x,X\r\n")
        raise ValueError("the third row cannot be read")


class _StoreWithFailingRows:
    def raw_query(self, *arguments: Any) -> Any:
        return _RowsThatFail()


def test_rows_that_fail_part_way_give_an_error_not_half_an_answer(capsys) -> None:
    job = Job("sparql", {"query": "SELECT * WHERE { ?card ?p ?name }", "accept": "text/csv"})
    reply = run_job(_StoreWithFailingRows(), job, Limits())  # type: ignore[arg-type]
    assert reply.status == 500
    text = reply.body.decode()
    assert "failed while it was written" in text and "third row" in text
    assert "card,name" not in text  # nothing of the half-written answer is sent
    log = capsys.readouterr().err
    assert log.count("\n") == 1 and "third row" in log and "Traceback" not in log


def test_a_bug_in_the_servers_own_process_is_a_500_and_one_line(capsys) -> None:
    # Without its lifespan the application has no worker pool: a /sparql query then fails in this
    # process, as a bug would.
    limits = Limits()
    app = RequestGuard(create_app(Path("/nowhere"), [], limits), limits)
    sent = asgi_request(app, "/sparql", b"query=ASK%7B%7D")
    assert sent[0]["status"] == 500
    assert b"internal error: AttributeError" in sent[1]["body"]
    log = capsys.readouterr().err
    assert log.count("\n") == 1 and "AttributeError" in log and "app.py" in log
    assert "Traceback" not in log
