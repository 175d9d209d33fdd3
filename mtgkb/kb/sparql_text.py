"""Writing values into SPARQL text safely, and reading result terms back as Python values."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

_IRI = re.compile(r"^https?://[^\s<>\"{}|^`\\]+$")


_VARIABLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def sparql_iri(iri: str) -> str:
    """``<iri>`` for writing into a query, after checking nothing in it can be read as syntax."""
    if not _IRI.match(iri):
        raise ValueError(f"not an IRI that can be written into a query: {iri!r}")
    return f"<{iri}>"


def sparql_string(text: str) -> str:
    """``text`` as a SPARQL string literal, escaped so that nothing in it is read as syntax."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    return f'"{escaped}"'


class PlainText(str):
    """A parameter value bound as a string literal even when it looks like an IRI (a search word)."""


class WrittenTerm(str):
    """A parameter value already written as SPARQL by the store itself (``str()`` of a pyoxigraph
    term read from it: ``<iri>``, ``"text"``, ``"true"^^<…#boolean>``), bound as it is."""


#: A parameter's value: one value, or several (each a row of the VALUES block; none matches nothing).
ParamValue = str | Sequence[str]


def sparql_term(value: str) -> str:
    """A parameter value as SPARQL: an IRI when it starts with ``http://`` or ``https://`` (unless it
    is :class:`PlainText`), else a string literal, escaped so that nothing in it is read as syntax;
    a :class:`WrittenTerm` as it is."""
    if isinstance(value, WrittenTerm):
        return str(value)
    if value.startswith(("https://", "http://")) and not isinstance(value, PlainText):
        return sparql_iri(value)
    return sparql_string(value)


def bind_values(sparql: str, params: Mapping[str, ParamValue]) -> str:
    """``sparql`` with ``VALUES ?name { term … }`` for each parameter, wherever the query uses it
    (see :mod:`mtgkb.kb.sparql_bind`): the one way values reach a query."""
    from mtgkb.kb.sparql_bind import bind

    terms = {}
    for name, value in params.items():
        if not _VARIABLE.match(name):
            raise ValueError(f"not a SPARQL variable name: {name!r}")
        values = [value] if isinstance(value, str) else list(dict.fromkeys(value))
        terms[name] = [sparql_term(one) for one in values]
    return bind(sparql, terms)


def to_python(term: Any) -> Any:
    """pyoxigraph term -> str / int / float / bool / None."""
    if term is None:
        return None
    datatype = getattr(term, "datatype", None)
    if datatype is not None:
        kind = datatype.value.rsplit("#", 1)[-1]
        if kind in {"integer", "int", "long", "nonNegativeInteger"}:
            return int(term.value)
        if kind in {"decimal", "double", "float"}:
            number = float(term.value)
            return int(number) if number.is_integer() else number
        if kind == "boolean":
            return term.value == "true"
    return term.value
