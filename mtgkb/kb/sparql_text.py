"""Writing values into SPARQL text safely, and reading result terms back as Python values."""

from __future__ import annotations

import re
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


def bind_values(sparql: str, params: dict[str, str]) -> str:
    """``sparql`` with ``VALUES ?name { term }`` for each parameter at the head of each group pattern
    that uses it (the WHERE clause, a subquery: see :mod:`mtgkb.kb.sparql_bind`)."""
    from mtgkb.kb.sparql_bind import bind

    terms = {}
    for name, value in params.items():
        if not _VARIABLE.match(name):
            raise ValueError(f"not a SPARQL variable name: {name!r}")
        terms[name] = sparql_iri(value) if value.startswith(("https://", "http://")) else sparql_string(value)
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
