"""``/api/…``: the CLI's lookups and verdicts as JSON, the very objects ``--json`` prints.

| route | the CLI command |
| --- | --- |
| ``GET /api/card/NAME`` | ``mtgkb card NAME`` |
| ``GET /api/rule/NUMBER?edition=&depth=&limit=`` | ``mtgkb rule NUMBER`` (limit 20 unless given; 0: all) |
| ``GET /api/rulings/NAME?limit=`` | ``mtgkb rulings NAME`` |
| ``GET /api/search?q=TEXT&limit=`` | ``mtgkb search TEXT`` |
| ``GET /api/timing/CARD`` | ``mtgkb timing CARD`` |
| ``GET /api/partners/CARD?limit=`` | ``mtgkb partners CARD`` |
| ``GET /api/commanders?card=A&card=B`` | ``mtgkb commanders A B`` |
| ``POST /api/can-activate?card=&ability=&player=`` | ``mtgkb can-activate CARD --situation FILE`` |
| ``POST /api/can-cast?card=&via=&player=&face=`` | ``mtgkb can-cast CARD --situation FILE`` |
| ``POST /api/options?player=`` | ``mtgkb options --situation FILE`` |
| ``POST /api/copy?card=&target=`` | ``mtgkb copy CARD --target TARGET [--situation FILE]`` |

A POST's body is the situation, JSON or YAML, exactly as ``--situation FILE`` reads it. A verdict
that says no is still 200 (its ``answer`` is false), and so is one that cannot tell (its ``answer``
is null, a check with ``holds`` null says what is not modelled: the CLI's exit status 3); a name
that matches nothing is 404 with ``suggestions``, other mistakes 400, each as the JSON error object
of ``--json``. The explorer page also reads ``/api/names?q=``, ``/api/graph?node=`` and ``/api/node?node=``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.routing import Route

from mtgkb.core.errors import MtgkbError, shown
from mtgkb.serve.jobs import Job, error_reply
from mtgkb.serve.sparql_protocol import ProtocolError, read_body, reply_response

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response


def _integer(request: Request, name: str, default: int | None = None, minimum: int = 0) -> int | None:
    value = request.query_params.get(name)
    if value is None or value == "":
        return default
    try:
        number = int(value)
    except ValueError:
        raise MtgkbError(f"'{name}' must be a whole number, not '{shown(value)}'") from None
    if number < minimum:
        raise MtgkbError(f"'{name}' must be at least {minimum}")
    return number


def _required(request: Request, name: str, example: str) -> str:
    value = request.query_params.get(name)
    if value is None or not value.strip():
        raise MtgkbError(f"the parameter '{name}' is missing", f"e.g. {example}")
    return value


def _optional(request: Request, name: str) -> str | None:
    value = request.query_params.get(name)
    return value if value else None


async def _situation_text(request: Request) -> str:
    limit = request.app.state.limits.max_request_bytes
    body = await read_body(request, limit, "the posted situation")
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise MtgkbError(f"the posted situation is not UTF-8 text (byte {error.start})") from None


async def _call(request: Request) -> dict[str, Any]:
    """The worker call for an API request: its name and arguments."""
    call = request.path_params["call"]
    path = request.path_params.get("rest", "")
    args: dict[str, Any] = {}
    if call in ("card", "rulings", "timing", "partners"):
        if not path.strip():
            raise MtgkbError(f"name the card: /api/{call}/NAME", f"e.g. /api/{call}/Thrasios")
        key = "name" if call in ("card", "rulings") else "card"
        args[key] = path
        if call in ("rulings", "partners"):
            args["limit"] = _integer(
                request, "limit", 20 if call == "rulings" else None, 0 if call == "rulings" else 1
            )
    elif call == "rule":
        if not path.strip():
            raise MtgkbError("give the rule number: /api/rule/NUMBER", "e.g. /api/rule/702.49d")
        args.update(
            number=path,
            edition=_optional(request, "edition"),
            depth=_integer(request, "depth"),
            limit=_integer(request, "limit", 20),
        )
    elif call == "search":
        args.update(text=_required(request, "q", "/api/search?q=unblocked+attacker"))
        args["limit"] = _integer(request, "limit", 10, 1)
    elif call == "commanders":
        args["cards"] = request.query_params.getlist("card")
    elif call in ("names", "graph", "node"):
        key = "text" if call == "names" else "node"
        args[key] = _required(request, "q" if call == "names" else "node", f"/api/{call}?…")
        args["limit"] = _integer(request, "limit", None, 1)
    elif call in ("can-activate", "can-cast", "options", "copy"):
        if call != "options":
            args["card"] = _required(request, "card", f"/api/{call}?card=NAME")
        args["player"] = _optional(request, "player")
        if call == "can-activate":
            args["ability"] = _optional(request, "ability")
        elif call == "can-cast":
            args["via"] = _optional(request, "via")
            args["face"] = _optional(request, "face")
        elif call == "copy":
            args["target"] = _required(request, "target", "/api/copy?card=Clone&target=Grizzly+Bears")
        args["situation"] = await _situation_text(request)
    if path and call not in ("card", "rulings", "timing", "partners", "rule"):
        raise ProtocolError(404, f"no API route {shown(f'/api/{call}/{path}')}", "see the list in the README")
    return {"call": call, "args": args}


_GET = {"card", "rule", "rulings", "search", "timing", "partners", "commanders", "names", "graph", "node"}
_POST = {"can-activate", "can-cast", "options", "copy"}


async def api_endpoint(request: Request) -> Response:
    call = request.path_params["call"]
    try:
        if call not in _GET | _POST:
            raise ProtocolError(
                404, f"no API route /api/{shown(call)}", "routes: " + ", ".join(sorted(_GET | _POST))
            )
        wanted = "GET" if call in _GET else "POST"
        if request.method != wanted:
            raise ProtocolError(405, f"/api/{call} takes {wanted}, not {request.method}")
        payload = await _call(request)
    except ProtocolError as error:
        return reply_response(error_reply(error, json_body=True, status=error.status))
    except MtgkbError as error:
        return reply_response(error_reply(error, json_body=True))
    reply = await request.app.state.pool.run(Job("api", payload))
    return reply_response(reply)


routes = [
    Route("/api/{call}", api_endpoint, methods=["GET", "POST"]),
    Route("/api/{call}/{rest:path}", api_endpoint, methods=["GET", "POST"]),
]
