"""Running a named query (``queries/*.rq``, read by :mod:`mtgkb.kb.query_files`) with the values a
user gives: ``--param VAR=VALUE``, defaults, and names resolved to IRIs for the parameters whose
description says "IRI" (a full IRI, a prefixed name such as ``mechanic:ninjutsu``, or a name the
knowledge base knows: ``Ninjutsu``, ``Yuriko, the Tiger's Shadow``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from mtgkb.core.errors import MtgkbError
from mtgkb.kb.iri_arguments import resolve_iri
from mtgkb.kb.query_files import NamedQuery, get_query

if TYPE_CHECKING:
    from mtgkb.kb.sparql import SparqlResult
    from mtgkb.kb.store import KnowledgeBase


def parse_param_options(options: tuple[str, ...] | list[str]) -> dict[str, str]:
    """``("card=Yuriko", "?x=1")`` -> ``{"card": "Yuriko", "x": "1"}``."""
    values: dict[str, str] = {}
    for option in options:
        name, separator, value = option.partition("=")
        name = name.strip().lstrip("?$")
        if not separator or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise MtgkbError(
                f"cannot read --param '{option}'", "write --param VAR=VALUE, e.g. --param card=card:x"
            )
        values[name] = value
    return values


def bind_params(kb: KnowledgeBase, query: NamedQuery, given: dict[str, str]) -> dict[str, str]:
    """The bindings for ``query``: given values and defaults, with names resolved to IRIs."""
    declared = {param.name: param for param in query.params}
    unknown = sorted(set(given) - set(declared))
    if unknown:
        names = ", ".join(f"?{name}" for name in declared) or "none"
        raise MtgkbError(
            f"query '{query.name}' has no parameter ?{unknown[0]}", f"its parameters are: {names}"
        )
    bound: dict[str, str] = {}
    for param in query.params:
        value = given.get(param.name, param.default)
        if value is None:
            if param.optional:
                continue
            raise MtgkbError(
                f"query '{query.name}' needs --param {param.name}=…", f"?{param.name}: {param.description}"
            )
        bound[param.name] = resolve_iri(kb, value, param.kind) if param.is_iri else value
    return bound


def run_named(
    kb: KnowledgeBase, name: str, given: dict[str, str] | None = None, fmt: str = "table"
) -> SparqlResult:
    from mtgkb.kb.sparql import run_query

    query = get_query(name)
    return run_query(kb, query.text, bind_params(kb, query, given or {}), fmt)
