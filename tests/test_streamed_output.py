"""Answers of any size: ``mtgkb sparql`` and ``mtgkb query`` write every format (table, JSON, CSV, TSV,
the RDF syntaxes) as the store computes it, in bounded memory, completely and correctly; a failed
write never exits 0, and a reader that goes away (``| head``) ends the command quietly."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
import time

import pyoxigraph as ox
import pytest

from mtgkb.app import open_kb
from mtgkb.cli.output import table, table_lines
from mtgkb.core.errors import MtgkbError
from mtgkb.kb.query_limits import CHUNK_BYTES, QueryTimeout, stream_with_limit

# Every triple of the starter store, 60 times over, with an 80-character column: about 400,000 rows
# and 60 to 120 MB in each format, several times the memory bound below.
COPIES = 60
PAD = "~" + "x" * 78 + "~"
BIG = (
    "SELECT ?s ?p ?n ?pad WHERE { ?s ?p ?o . VALUES ?n { "
    + " ".join(str(n) for n in range(COPIES))
    + f' }} BIND("{PAD}" AS ?pad) }}'
)
#: Growth of the peak memory allowed between a one-row answer and the big one.
MEMORY_BOUND_MB = 30


def _mtgkb(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "mtgkb", *args],
        env=os.environ.copy(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


# The peak memory a parent reads for its child counts the parent's own memory at the moment it forked
# (Linux keeps the figure across exec), so the test process's size would hide the command's: a small
# launcher forks the command and reports the command's own peak, in KB, on the last line of stderr.
LAUNCHER = (
    "import resource, subprocess, sys\n"
    "code = subprocess.call(sys.argv[1:])\n"
    "sys.stderr.write(f'\\n{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}\\n')\n"
    "sys.exit(code)\n"
)


def _run_measured(*args: str) -> tuple[bytes, bytes, int, int, float]:
    """The first and last kilobyte of stdout, its size in bytes, how often PAD occurs in it, and the
    peak resident memory of the mtgkb process in MB. Stdout is read as it comes and not kept."""
    process = subprocess.Popen(
        [sys.executable, "-c", LAUNCHER, sys.executable, "-m", "mtgkb", *args],
        env=os.environ.copy(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    errors: list[bytes] = []
    reader = threading.Thread(target=lambda: errors.append(process.stderr.read()), daemon=True)
    reader.start()
    marker = PAD.encode()
    head, tail, carry, size, pads = b"", b"", b"", 0, 0
    while chunk := process.stdout.read(1 << 20):
        if len(head) < 1024:
            head += chunk[: 1024 - len(head)]
        tail = (tail + chunk)[-1024:]
        size += len(chunk)
        data = carry + chunk
        pads += data.count(marker)
        carry = data[-(len(marker) - 1) :]  # too short to hold a whole PAD, so none is counted twice
    assert process.wait(timeout=300) == 0, errors
    reader.join(60)
    peak_kb = int(errors[0].decode().rstrip().rsplit("\n", 1)[-1])
    return head, tail, size, pads, peak_kb / 1024


@pytest.fixture(scope="module")
def triples(kb) -> int:
    return int(kb.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")[0]["n"])


@pytest.mark.parametrize("fmt", ["table", "csv", "tsv", "json"])
def test_a_huge_answer_streams_in_bounded_memory_and_comes_out_whole(kb, triples: int, fmt: str) -> None:
    *_, small = _run_measured("sparql", BIG + " LIMIT 1", "--format", fmt, "--timeout", "0")
    head, tail, size, pads, peak = _run_measured("sparql", BIG, "--format", fmt, "--timeout", "0")
    assert size > 1.5 * MEMORY_BOUND_MB * 1024 * 1024  # the answer is far larger than the bound
    assert peak - small < MEMORY_BOUND_MB, f"{peak:.0f} MB at peak against {small:.0f} MB for one row"
    assert pads == triples * COPIES  # every row is there
    first_line = head.split(b"\n")[0]
    if fmt == "table":
        assert first_line.split() == [b"s", b"p", b"n", b"pad"] and tail.endswith(b"\n")
    elif fmt == "csv":
        assert first_line == b"s,p,n,pad\r" and tail.endswith(PAD.encode() + b"\r\n")
    elif fmt == "tsv":
        assert first_line == b"?s\t?p\t?n\t?pad" and tail.endswith(f'"{PAD}"\n'.encode())
    else:
        assert head.startswith(b'{"head":{"vars":["s","p","n","pad"]}')
        assert tail.rstrip().endswith(f'"{PAD}"}}}}]}}}}'.encode())


QUERY = "SELECT ?s ?p ?o WHERE { ?s ?p ?o } ORDER BY ?s ?p ?o LIMIT 5000"


@pytest.mark.parametrize(
    ("fmt", "results_format"),
    [
        ("json", ox.QueryResultsFormat.JSON),
        ("csv", ox.QueryResultsFormat.CSV),
        ("tsv", ox.QueryResultsFormat.TSV),
    ],
)
def test_each_standard_format_is_what_oxigraph_writes(run_cli, kb, fmt: str, results_format) -> None:
    result = run_cli("sparql", QUERY, "--format", fmt)
    assert result.exit_code == 0, result.output
    # The store the command opened: an earlier test may have rebuilt the session's store since the
    # ``kb`` fixture opened it, and blank nodes are labelled afresh by each build.
    expected = open_kb().raw_query(QUERY).serialize(format=results_format)
    assert result.stdout_bytes == expected


def test_a_construct_answer_streams_every_triple(run_cli, kb, triples: int) -> None:
    result = run_cli("sparql", "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }", "--format", "nt")
    assert result.exit_code == 0, result.output
    written = set(ox.parse(result.stdout_bytes, format=ox.RdfFormat.N_TRIPLES))
    assert len(written) == triples


def test_the_table_holds_every_row_as_the_store_gives_it(run_cli, kb) -> None:
    from mtgkb.kb.sparql import compact_term

    result = run_cli("sparql", QUERY)
    assert result.exit_code == 0, result.output
    rows = [[compact_term(term) for term in row] for row in open_kb().raw_query(QUERY)]
    head = rows[:1000]  # the widths come from the first thousand rows
    widths = [max([len(v), *(min(len(line), 100) for r in head for line in (r[i] or "").splitlines())])
              for i, v in enumerate(["s", "p", "o"])]  # fmt: skip
    lines = result.stdout.splitlines()
    assert lines[1] == "  ".join("-" * w for w in widths)
    # Every value is there, in order, each piece of it where its column starts.
    starts = [0, widths[0] + 2, widths[0] + widths[1] + 4]
    texts = [[], [], []]
    for line in lines[2:]:
        for column, start in enumerate(starts):
            end = starts[column + 1] if column < 2 else None
            texts[column].append(line[start:end].rstrip())
    for column in range(3):  # wrapping only moves a value's text to the next lines, spaces aside
        assert "".join("".join(texts[column]).split()) == "".join(
            "".join(r[column] or "" for r in rows).split()
        )


def test_table_columns_come_from_the_first_rows_and_longer_values_wrap() -> None:
    rows = [["a", "short"], ["b", "tiny"], ["c", "a value wider than these two rows"]]
    lines = list(table_lines(["id", "text"], rows, sample=2, max_width=100))
    assert lines[:4] == ["id  text", "--  -----", "a   short", "b   tiny"]
    assert lines[4:] == ["c   a", "    value", "    wider", "    than", "    these", "    two", "    rows"]
    wide = [["x" * 300, "y"]]
    capped = list(table_lines(["h", "v"], wide, max_width=100))
    assert capped[1] == "-" * 100 + "  -" and len(capped) == 5
    assert "".join(line[:100] for line in capped[2:]) == "x" * 300
    # Without a sample or a cap, the whole-table view is as before: nothing wraps.
    assert table(["h", "v"], wide).splitlines()[2] == "x" * 300 + "  y"


def test_no_rows_and_ask_answers_still_read_as_before(run_cli, kb) -> None:
    empty = run_cli("sparql", "SELECT ?s WHERE { ?s a <http://example.org/none> }")
    assert empty.exit_code == 0 and empty.stdout == "s\n-\n(no rows)\n"
    ask = run_cli("sparql", "ASK { ?s ?p ?o }")
    assert ask.exit_code == 0 and ask.stdout == "true\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("fmt", ["table", "json", "csv", "tsv", "nt"])
def test_a_full_disk_exits_2_with_a_message_in_every_format(kb, fmt: str) -> None:
    form = "CONSTRUCT { ?s ?p ?o } WHERE" if fmt == "nt" else "SELECT * WHERE"
    with open("/dev/full", "wb") as full:
        process = subprocess.run(
            [sys.executable, "-m", "mtgkb", "sparql", f"{form} {{ ?s ?p ?o }}", "--format", fmt],
            env=os.environ.copy(),
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert process.returncode == 2, process.stderr
    assert process.stderr == "Error: cannot write the output: No space left on device\n"


def test_a_reader_that_goes_away_ends_the_command_quietly(kb) -> None:
    for fmt in ("table", "csv", "json"):
        process = _mtgkb("sparql", BIG, "--format", fmt, "--timeout", "0")
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.read(1000)  # as `| head -c 1000` reads
        process.stdout.close()
        err = process.stderr.read()
        assert process.wait(timeout=60) == 141  # what a shell reports for a process stopped by SIGPIPE
        assert err == b"", err


def test_a_timeout_after_part_of_the_answer_says_it_is_incomplete(kb) -> None:
    cartesian = "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f }"
    process = _mtgkb("sparql", cartesian, "--json", "--timeout", "1")
    assert process.stdout is not None and process.stderr is not None
    head = process.stdout.read(100)
    while process.stdout.read(1 << 20):
        pass
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == 2, err
    assert head.startswith(b'{"head"')  # the start of the answer, then no JSON error after it
    assert "ran longer than 1 s" in err and "incomplete" in err and "Traceback" not in err


# --- the stream itself -----------------------------------------------------------------------------


def test_the_stream_hands_over_every_byte_in_order() -> None:
    def produce(output) -> None:
        for n in range(50_000):
            output.write(f"{n}\n".encode())

    assert b"".join(stream_with_limit(produce, 5)) == "".join(f"{n}\n" for n in range(50_000)).encode()


def test_an_error_in_the_worker_reaches_the_reader() -> None:
    def produce(output) -> None:
        output.write(b"start")
        raise MtgkbError("the query failed")

    with pytest.raises(MtgkbError, match="the query failed"):
        list(stream_with_limit(produce, 5))


def test_a_worker_that_computes_too_long_is_stopped() -> None:
    with pytest.raises(QueryTimeout):
        list(stream_with_limit(lambda output: time.sleep(3), 0.3))


def test_a_slow_reader_does_not_count_against_the_time_limit() -> None:
    def produce(output) -> None:
        for _ in range(6):
            output.write(b"x" * CHUNK_BYTES)

    read = 0
    for chunk in stream_with_limit(produce, 0.5):
        time.sleep(0.2)  # six chunks read in 1.2 s: the worker waited, the reader did not
        read += len(chunk)
    assert read == 6 * CHUNK_BYTES


def test_a_reader_that_stops_early_stops_the_worker() -> None:
    finished = threading.Event()
    wrote = []

    def produce(output) -> None:
        try:
            for n in range(10_000):
                output.write(b"x" * 1024)
                wrote.append(n)
        finally:
            finished.set()

    stream = stream_with_limit(produce, 5)
    next(stream)
    stream.close()
    assert finished.wait(10), "the worker kept writing after the reader left"
    assert len(wrote) < 10_000


def test_an_error_after_the_start_of_the_answer_goes_to_stderr_even_with_json(monkeypatch) -> None:
    from mtgkb.cli import output

    def chunks():
        yield b'{"head"'
        raise QueryTimeout("the query ran longer than 1 s and was stopped")

    stdout = io.TextIOWrapper(io.BytesIO())
    monkeypatch.setattr(sys, "stdout", stdout)
    with pytest.raises(MtgkbError) as raised:
        output.emit_stream(chunks())
    assert "incomplete" in raised.value.message and raised.value.exit_code == 2
    stdout.flush()
    assert stdout.buffer.getvalue() == b'{"head"'
