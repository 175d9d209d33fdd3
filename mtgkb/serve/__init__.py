"""``mtgkb serve``: the knowledge base over HTTP. A front end beside the CLI, in the top layer: may
import anything in mtgkb below it, and :func:`mtgkb.core.jsonable.to_jsonable` so that the API answers
with the JSON ``--json`` prints; only ``mtgkb.cli.serve`` imports it.

- :mod:`mtgkb.serve.app`: the Starlette application and its routes;
- :mod:`mtgkb.serve.sparql_protocol`: ``/sparql``, the SPARQL 1.1 Protocol and Service Description;
- :mod:`mtgkb.serve.negotiation`: which result format an ``Accept`` header asks for;
- :mod:`mtgkb.serve.api`: ``/api/…``, the CLI's lookups and verdicts as the JSON of ``--json``;
- :mod:`mtgkb.serve.explore`: what the explorer page draws (completions, neighbourhoods, details);
- :mod:`mtgkb.serve.static`: the explorer page and its vendored JavaScript;
- :mod:`mtgkb.serve.limits`: time, answer-size, request-size, header and connection limits;
- :mod:`mtgkb.serve.guard`: the checks of every request's headers (Host, their number and size);
- :mod:`mtgkb.serve.http_protocol`: the HTTP connection, oversized heads answered 413/431;
- :mod:`mtgkb.serve.pool`: the worker processes that run queries and can be stopped;
- :mod:`mtgkb.serve.jobs`: what a worker does with one request.
"""
