"""``mtgkb sparql``, ``mtgkb queries`` and ``mtgkb query``: SPARQL over the knowledge base."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from mtgkb.cli import cli, completion, json_option, progress_reporter
from mtgkb.cli.option_types import Seconds, memory_option
from mtgkb.cli.output import emit

if TYPE_CHECKING:
    from mtgkb.kb.sparql import SparqlResult

# For query results --json means the W3C SPARQL results JSON, not a dump of our dataclass.
results_json_option = click.option("--json", "as_json", is_flag=True, help="Same as --format json.")

_FORMATS = ("table", "json", "csv", "tsv", "ttl", "nt", "jsonld")

format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(_FORMATS),
    default=None,
    help="table (default; columns sized from the first 1,000 rows and at most 100 characters wide, "
    "a longer value wraps within its column), or the SPARQL results formats json/csv/tsv (values "
    "whole); CONSTRUCT/DESCRIBE give Turtle (table, ttl), N-Triples (nt) or JSON-LD (json, jsonld). "
    "Every format is written as it is computed: an answer of any size takes the same memory.",
)
param_option = click.option(
    "--param",
    "-p",
    "params",
    multiple=True,
    metavar="VAR=VALUE",
    help="Bind ?VAR before the query runs (repeatable): an IRI, a prefixed name (card:x), a name "
    '("Yuriko, the Tiger\'s Shadow", ninjutsu) or a "quoted string".',
)


timeout_option = click.option(
    "--timeout",
    type=Seconds(),
    default=None,
    metavar="SECONDS",
    help="Stop the query once it has computed for SECONDS (default 60; 0: no limit); time spent "
    "waiting for a slow reader of the output does not count. Ctrl-C stops it at any time.",
)


max_memory_option = memory_option("Stop the query once the process holds more than MB of memory, with exit 2")

endpoint_option = click.option(
    "--endpoint",
    metavar="URL",
    help="Ask this SPARQL endpoint (e.g. one 'mtgkb push' filled) instead of the local store; "
    "names given with --param are looked up in the local knowledge base.",
)


class _LocalKb:
    """The local knowledge base, opened only when something asks for it: a remote query needs it
    only to turn a name given with --param into an IRI."""

    def __init__(self) -> None:
        self._kb: Any = None

    def __getattr__(self, name: str) -> Any:
        if self._kb is None:
            from mtgkb.app import open_kb

            self._kb = open_kb(progress_reporter())
        return getattr(self._kb, name)


def _remote(endpoint: str, text: str, params: dict[str, str], fmt: str, timeout: float | None) -> Any:
    from mtgkb.kb.query_limits import DEFAULT_TIMEOUT
    from mtgkb.kb.remote import remote_query

    return remote_query(endpoint, text, params, fmt, DEFAULT_TIMEOUT if timeout is None else timeout)


def _answer(run: Callable[[], SparqlResult], timeout: float | None, max_memory_mb: int | None) -> None:
    """Write the answer of ``run()`` to stdout as it is computed, under the time limit and the memory
    bound, Ctrl-C stopping it at once (see mtgkb.kb.query_limits)."""
    from mtgkb.cli.output import emit_stream
    from mtgkb.cli.render.sparql import write_result
    from mtgkb.core.memory import ENV, ceilings, default_limit_mb
    from mtgkb.kb.query_limits import DEFAULT_TIMEOUT, stream_with_limit

    limit = DEFAULT_TIMEOUT if timeout is None else timeout
    bound = default_limit_mb() if max_memory_mb is None else max_memory_mb
    held_under = ceilings(bound, f"--max-memory-mb or ${ENV}")
    emit_stream(stream_with_limit(lambda output: write_result(run(), output), limit, held_under))


def _format(fmt: str | None, as_json: bool) -> str:
    if as_json and fmt not in (None, "json"):
        raise click.UsageError("--json is --format json; give only one of them")
    return "json" if as_json else (fmt or "table")


@cli.command()
@click.argument("query")
@format_option
@param_option
@timeout_option
@max_memory_option
@endpoint_option
@results_json_option
def sparql(
    query: str,
    fmt: str | None,
    params: tuple[str, ...],
    timeout: float | None,
    max_memory_mb: int | None,
    endpoint: str | None,
    as_json: bool,
) -> None:
    """Run a SPARQL query: QUERY is the query text, a .rq file, or - for stdin.

    The default graph holds every source's facts, each once (GRAPH ?g says which source states
    one); the usual prefixes (mtgkb:, card:, mechanic:,
    step:, zone:, cr:, rdfs:, …) are predeclared.

    \b
    Examples:
      mtgkb sparql 'SELECT ?step WHERE { ?step a mtgkb:Step }'
      mtgkb sparql queries/mechanic-steps.rq --format csv
      echo 'ASK { card:yuriko-the-tigers-shadow ?p ?o }' | mtgkb sparql -
      mtgkb sparql 'SELECT * WHERE { ?s ?p ?o } LIMIT 5' --endpoint http://localhost:7878/query
    """
    from mtgkb.app import open_kb
    from mtgkb.cli.render.sparql import render_result
    from mtgkb.kb.sparql import bind_params, read_query_argument, run_query

    output_format = _format(fmt, as_json)
    text = read_query_argument(query)
    given: dict[str, str] = {}
    if params:  # only then: the parameter machinery is a tenth of a quick query's start-up
        from mtgkb.kb.named_queries import parse_param_options

        given = parse_param_options(params)
    if endpoint is not None:
        bound = bind_params(_LocalKb(), text, given) if given else {}  # type: ignore[arg-type]
        emit(_remote(endpoint, text, bound, output_format, timeout), False, render_result)
        return
    kb = open_kb(progress_reporter())
    bound = bind_params(kb, text, given) if given else {}
    _answer(lambda: run_query(kb, text, bound, output_format), timeout, max_memory_mb)


@cli.command()
@json_option
def queries(as_json: bool) -> None:
    """List the named queries in queries/ with their parameters.

    \b
    Example:
      mtgkb queries
    """
    from mtgkb.cli.render.sparql import render_catalogue
    from mtgkb.kb.named_queries import catalogue

    emit(catalogue(), as_json, render_catalogue)


@cli.command()
@click.argument("name", shell_complete=completion.complete_query_names)
@format_option
@param_option
@timeout_option
@max_memory_option
@endpoint_option
@results_json_option
def query(
    name: str,
    fmt: str | None,
    params: tuple[str, ...],
    timeout: float | None,
    max_memory_mb: int | None,
    endpoint: str | None,
    as_json: bool,
) -> None:
    """Run the named query NAME (see 'mtgkb queries').

    \b
    Examples:
      mtgkb query mechanic-steps
      mtgkb query card-rulings --param card="Ninja of the Deep Hours"
      mtgkb query cards-by-mechanic -p mechanic=mechanic:partner --format csv
      mtgkb query legal-partner-pairs --endpoint http://localhost:7878/query
    """
    from mtgkb.app import open_kb
    from mtgkb.cli.render.sparql import render_result
    from mtgkb.kb.named_queries import bind_params, check_params, get_query, parse_param_options, run_named

    output_format = _format(fmt, as_json)
    given = parse_param_options(params)
    named = get_query(name)  # an unknown name or a missing parameter is reported before the store is opened
    check_params(named, given)
    if endpoint is not None:
        bound = bind_params(_LocalKb(), named, given)  # type: ignore[arg-type]
        emit(_remote(endpoint, named.text, bound, output_format, timeout), False, render_result)
        return
    kb = open_kb(progress_reporter())
    _answer(lambda: run_named(kb, name, given, output_format), timeout, max_memory_mb)
