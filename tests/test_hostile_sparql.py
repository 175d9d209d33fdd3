"""SPARQL as a hostile user writes it: federated SERVICE clauses, queries that would run for hours,
Ctrl-C while one runs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from processes import start_mtgkb

CARTESIAN = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"


def test_a_service_clause_is_refused_with_a_message(run_cli, kb) -> None:
    result = run_cli("sparql", "SELECT * WHERE { SERVICE <http://127.0.0.1:9/x> { ?s ?p ?o } }")
    assert result.exit_code == 2, result.output
    assert "SERVICE" in result.stderr and "Traceback" not in result.output
    # The word in a string, an IRI or a comment is no clause.
    quoted = 'SELECT ?s WHERE { ?s ?p "SERVICE" } # SERVICE\n LIMIT 1'
    assert run_cli("sparql", quoted).exit_code == 0
    iri = "ASK { <https://example.org/SERVICE> ?p ?o }"
    assert run_cli("sparql", iri).exit_code == 0


def test_a_query_past_its_time_limit_is_stopped_with_a_message(kb) -> None:
    started = time.monotonic()
    process = start_mtgkb("sparql", CARTESIAN, "--timeout", "1")
    _, err = process.communicate(timeout=120)
    assert process.returncode == 2, err
    assert "ran longer than 1 s" in err and "--timeout" in err
    assert time.monotonic() - started < 60


def test_ctrl_c_stops_a_running_query_at_once(kb) -> None:
    process = start_mtgkb("sparql", CARTESIAN, "--timeout", "0")
    time.sleep(3)  # the store is open and the query running
    assert process.poll() is None, process.communicate()
    process.send_signal(signal.SIGINT)
    started = time.monotonic()
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Aborted" not in err and "Traceback" not in err
    assert time.monotonic() - started < 10


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_failed_write_of_the_answer_never_exits_0(kb) -> None:
    for command in (["sparql", "SELECT * WHERE { ?s ?p ?o }", "--format", "csv"], ["rule", "702.49d"]):
        with open("/dev/full", "w") as full:
            process = subprocess.run(
                [sys.executable, "-m", "mtgkb", *command],
                env=os.environ.copy(),
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                timeout=120,
            )
        assert process.returncode == 2, process.stderr
        assert "cannot write the output" in process.stderr and "Traceback" not in process.stderr
