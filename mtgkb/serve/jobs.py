"""What a query worker does with one request: a SPARQL query, or a call of the JSON API.

Runs inside a worker process (see :mod:`mtgkb.serve.pool`) over the store opened read-only. Every
outcome is a :class:`Reply`, errors included: a user mistake is its status and message, and anything
unexpected is a 500 that names the error without a traceback, so the worker keeps serving.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtgkb.core.errors import MtgkbError, NotFoundError, shown
from mtgkb.serve.limits import CappedBuffer, HeadersTooLarge, Limits, ResultTooLarge
from mtgkb.serve.negotiation import ResultFormat, choose, media_types

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

JSON = "application/json"
TEXT = "text/plain; charset=utf-8"


@dataclass
class Reply:
    status: int
    media_type: str
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Job:
    kind: str  # "sparql" or "api"
    payload: dict[str, Any]


def run_job(kb: KnowledgeBase, job: Job, limits: Limits) -> Reply:
    """The reply to ``job``; never raises."""
    try:
        if job.kind == "sparql":
            return sparql_reply(kb, job.payload, limits)
        return api_reply(kb, job.payload, limits)
    except MtgkbError as error:
        return error_reply(error, json_body=job.kind == "api")
    except Exception as error:  # a bug: say what it was, keep no traceback in the answer or the log
        problem = f"{type(error).__name__}: {shown(str(error), 300)}"
        sys.stderr.write(f"mtgkb serve: a {job.kind} request failed: {problem}\n")
        return error_reply(
            MtgkbError(f"internal error: {problem}", "please report this"),
            json_body=job.kind == "api",
            status=500,
        )


# --- errors --------------------------------------------------------------------------------------


def status_of(error: MtgkbError) -> int:
    """The HTTP status for a library error."""
    from mtgkb.kb.query_limits import QueryTimeout, ServiceRefused
    from mtgkb.kb.sparql import UpdateRefused
    from mtgkb.serve.limits import RequestTooLarge

    if isinstance(error, NotFoundError) or isinstance(error.__cause__, NotFoundError):
        return 404  # a name that matches nothing (also when reported as a field of a situation)
    if isinstance(error, UpdateRefused | ServiceRefused | ResultTooLarge):
        return 403
    if isinstance(error, RequestTooLarge):
        return 413
    if isinstance(error, HeadersTooLarge):
        return 431
    if isinstance(error, QueryTimeout):
        return 503
    return 400


#: Characters of an error's message or hint, and names of its lists, that an answer carries: each
#: place that quotes the request cuts what it quotes, and this bounds whatever one of them missed.
MESSAGE_CHARS = 2000
LISTED_NAMES = 50


def error_document(error: MtgkbError) -> dict[str, Any]:
    """The JSON error object, as ``--json`` prints it for a failed command (without the exit status)."""
    document: dict[str, Any] = {"error": error.message, "hint": error.hint}
    for extra in ("suggestions", "candidates"):
        for source in (error, error.__cause__):
            if hasattr(source, extra):
                document[extra] = getattr(source, extra)
                break
    return document


def error_reply(error: MtgkbError, json_body: bool, status: int | None = None) -> Reply:
    status = status or status_of(error)
    message = shown(error.message, MESSAGE_CHARS)
    hint = shown(error.hint, MESSAGE_CHARS) if error.hint else error.hint
    if json_body:
        document = {**error_document(error), "error": message, "hint": hint, "status": status}
        for extra in ("suggestions", "candidates"):
            if isinstance(document.get(extra), list):
                document[extra] = [shown(str(name), 200) for name in document[extra][:LISTED_NAMES]]
        return Reply(status, JSON, json.dumps(document, ensure_ascii=False).encode("utf-8"))
    text = f"Error: {message}\n" + (f"Hint: {hint}\n" if hint else "")
    return Reply(status, TEXT, text.encode("utf-8"))


# --- SPARQL --------------------------------------------------------------------------------------


def sparql_reply(kb: KnowledgeBase, payload: dict[str, Any], limits: Limits) -> Reply:
    """Evaluate the query with the CLI's checks (mtgkb.kb.sparql.evaluate: no update, no SERVICE, the
    parser's message for a malformed query), then write it in the negotiated format within the
    result-size limit."""
    import pyoxigraph as ox

    from mtgkb.kb.sparql import evaluate

    answer = evaluate(kb, payload["query"], None, payload.get("default_graphs"), payload.get("named_graphs"))
    graph = isinstance(answer, ox.QueryTriples)
    form = "graph" if graph else "solutions"
    chosen = choose(payload.get("accept"), form)
    if chosen is None:
        what = "CONSTRUCT or DESCRIBE" if graph else "SELECT or ASK"
        return error_reply(
            MtgkbError(
                f"none of the formats the request accepts ({shown(payload.get('accept') or '')}) can carry "
                f"a {what} answer",
                f"accept one of {media_types(form)}",
            ),
            json_body=False,
            status=406,
        )
    buffer = CappedBuffer(limits.max_result_bytes)
    try:
        if graph:
            write_graph(answer, chosen, buffer)
        else:
            answer.serialize(buffer, _results_format(chosen))
    except MtgkbError:
        raise
    except RuntimeError as error:  # the query's own failure, raised while the rows are computed
        raise MtgkbError(f"the query failed: {shown(str(error), 300)}") from error
    except Exception as error:  # the store or the writer failed part way: nothing of it is sent
        problem = f"{type(error).__name__}: {shown(str(error), 300)}"
        sys.stderr.write(f"mtgkb serve: a query's answer failed while it was written: {problem}\n")
        return error_reply(
            MtgkbError(
                f"the answer failed while it was written ({problem})",
                "try again; if it fails again, the store may be damaged: 'mtgkb build --full' rebuilds it",
            ),
            json_body=False,
            status=500,
        )
    return Reply(200, media_type_header(chosen), buffer.getvalue())


def write_graph(
    triples: Any, chosen: ResultFormat, output: Any, prefixes: dict[str, str] | None = None
) -> None:
    """Triples in an RDF syntax, streamed into ``output``; Turtle and RDF/XML with ``prefixes`` (default:
    ours)."""
    import pyoxigraph as ox

    from mtgkb.kb.vocab import PREFIXES

    syntax = {
        "ttl": ox.RdfFormat.TURTLE,
        "nt": ox.RdfFormat.N_TRIPLES,
        "jsonld": ox.RdfFormat.JSON_LD,
        "rdfxml": ox.RdfFormat.RDF_XML,
    }[chosen.key]
    wanted = (PREFIXES if prefixes is None else prefixes) if chosen.key in ("ttl", "rdfxml") else None
    ox.serialize(triples, output, syntax, prefixes=wanted)


def media_type_header(chosen: ResultFormat) -> str:
    textual = chosen.media_type.startswith("text/") or chosen.key in ("nt",)
    return chosen.media_type + ("; charset=utf-8" if textual else "")


def _results_format(chosen: ResultFormat) -> Any:
    import pyoxigraph as ox

    return {
        "json": ox.QueryResultsFormat.JSON,
        "xml": ox.QueryResultsFormat.XML,
        "csv": ox.QueryResultsFormat.CSV,
        "tsv": ox.QueryResultsFormat.TSV,
    }[chosen.key]


# --- the JSON API --------------------------------------------------------------------------------


def api_reply(kb: KnowledgeBase, payload: dict[str, Any], limits: Limits) -> Reply:
    """Call the library function behind ``payload["call"]`` and answer with the JSON that the CLI's
    ``--json`` prints for the same result (mtgkb.core.jsonable.to_jsonable)."""
    from mtgkb.core.jsonable import to_jsonable

    call = API_CALLS.get(payload["call"])
    if call is None:
        raise NotFoundError("API call", payload["call"], sorted(API_CALLS))
    result = call(kb, payload.get("args", {}))
    buffer = CappedBuffer(limits.max_result_bytes)
    buffer.write(json.dumps(to_jsonable(result), ensure_ascii=False).encode("utf-8"))
    return Reply(200, JSON, buffer.getvalue())


def _situation(args: dict[str, Any], required: bool = True) -> dict[str, Any] | None:
    from mtgkb.reasoning.situation import SituationError, parse_situation_text

    text = args.get("situation")
    if text is None or not text.strip():
        if not required:
            return None
        raise SituationError(
            "", "post the situation as the request body, in JSON or YAML", "see the README's situation format"
        )
    return parse_situation_text(text, "the posted situation")


def _card(kb: KnowledgeBase, args: dict[str, Any]) -> Any:
    from mtgkb.app import card_with_timing

    return card_with_timing(kb, args["name"])


def _rule(kb: KnowledgeBase, args: dict[str, Any]) -> Any:
    from mtgkb.lookups.rule import rule_report

    return rule_report(kb, args["number"], args.get("edition"), args.get("depth"), args.get("limit") or None)


def _rulings(kb: KnowledgeBase, args: dict[str, Any]) -> Any:
    from mtgkb.lookups.rulings import rulings_report

    return rulings_report(kb, args["name"], args.get("limit") or None)


def _search(kb: KnowledgeBase, args: dict[str, Any]) -> Any:
    from mtgkb.lookups.search import search

    return search(kb, args["text"], args.get("limit") or 10)


def _timing(kb: KnowledgeBase, args: dict[str, Any]) -> Any:
    from mtgkb.reasoning.actions.timing import timing_report

    return timing_report(kb, args["card"])


def _partners(kb: KnowledgeBase, args: dict[str, Any]) -> Any:
    from mtgkb.reasoning.commanders.partner_graph import partners_report

    return partners_report(kb, args["card"], args.get("limit"))


def _commanders(kb: KnowledgeBase, args: dict[str, Any]) -> Any:
    from mtgkb.reasoning.commanders.verdict import commanders_verdict

    names = args.get("cards") or []
    if not names or any(not name.strip() for name in names):
        raise MtgkbError("name the cards: ?card=NAME, once per card", "e.g. /api/commanders?card=Thrasios")
    return commanders_verdict(kb, names)


def _can_activate(kb: KnowledgeBase, args: dict[str, Any]) -> Any:
    from mtgkb.reasoning.actions.questions import can_activate

    return can_activate(kb, _situation(args), args["card"], args.get("ability"), args.get("player"))


def _can_cast(kb: KnowledgeBase, args: dict[str, Any]) -> Any:
    from mtgkb.reasoning.actions.questions import can_cast

    return can_cast(kb, _situation(args), args["card"], args.get("via"), args.get("player"), args.get("face"))


def _options(kb: KnowledgeBase, args: dict[str, Any]) -> Any:
    from mtgkb.reasoning.actions.questions import options

    return options(kb, _situation(args), args.get("player"))


def _copy(kb: KnowledgeBase, args: dict[str, Any]) -> Any:
    from mtgkb.reasoning.copy.verdict import copy_verdict

    game = None
    situation = _situation(args, required=False)
    if situation is not None:
        from mtgkb.reasoning.copy.situation import read_copy_situation

        game = read_copy_situation(kb, situation)
    return copy_verdict(kb, args["card"], args["target"], game)


def _names(kb: KnowledgeBase, args: dict[str, Any]) -> Any:
    from mtgkb.serve.explore import complete

    return complete(kb, args["text"], args.get("limit") or 12)


def _graph(kb: KnowledgeBase, args: dict[str, Any]) -> Any:
    from mtgkb.serve.explore import neighbourhood

    return neighbourhood(kb, args["node"], args.get("limit") or 40)


def _node(kb: KnowledgeBase, args: dict[str, Any]) -> Any:
    from mtgkb.serve.explore import node_details

    return node_details(kb, args["node"])


API_CALLS: dict[str, Callable[[KnowledgeBase, dict[str, Any]], Any]] = {
    "card": _card,
    "rule": _rule,
    "rulings": _rulings,
    "search": _search,
    "timing": _timing,
    "partners": _partners,
    "commanders": _commanders,
    "can-activate": _can_activate,
    "can-cast": _can_cast,
    "options": _options,
    "copy": _copy,
    "names": _names,
    "graph": _graph,
    "node": _node,
}
