"""A cheap estimate, before a query runs, of whether it is heavy: the server runs heavy queries on fewer
workers than it has, so that light ones keep a worker (see :mod:`mtgkb.serve.pool`).

The estimate reads the query's tokens (:mod:`mtgkb.kb.sparql_tokens`), in one pass, and looks for
the one shape that makes a short query run for minutes: a cartesian product. In each group ``{ … }``
the triple patterns are joined by the variables (and blank node labels) they share; a pattern that
shares none with the rest of its group multiplies the rows of the others by its own, so a group whose
patterns fall apart into two or more such sets is heavy (``?a ?b ?c . ?d ?e ?f`` over n triples is
n² rows, whatever LIMIT or COUNT follows). A nested group (OPTIONAL, GRAPH, a sub-query, the branches
of a UNION taken together) counts as one pattern of its group, with all its variables; variables in
parentheses (FILTER, BIND, expressions) join nothing, as a filter does not stop a product being made.

A query longer than :data:`MAX_ESTIMATED_CHARS` is heavy without being read: reading it would take
the server's own process longer than running a light query (a 900 KB query takes a third of a
second to tokenize), and few light queries are that long.

It is an estimate: a query it calls light may still run long (the pool then counts it as heavy while
it runs), and one it calls heavy may be quick on a small store. Queries that cannot be read as
tokens are light: the worker refuses them at once.

Each estimate also carries the query's ``fingerprint``: its tokens with comments and spacing left
out and its variables numbered in order of appearance, so that the pool can remember a query that
ran long and call it heavy the next time it comes, however it is spaced or its variables named.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from mtgkb.core.errors import MtgkbError
from mtgkb.kb.sparql_tokens import BNODE, PUNCT, VAR, WORD, tokens

#: Keywords that start a new pattern in a group (and end the one before, even without a ".").
_PATTERN_STARTS = frozenset({"OPTIONAL", "MINUS", "FILTER", "BIND", "VALUES", "GRAPH", "SERVICE"})
#: Characters of a query the estimate reads (about 10 ms); a longer query is heavy.
MAX_ESTIMATED_CHARS = 32 * 1024


@dataclass(frozen=True)
class QueryCost:
    heavy: bool
    #: Why it is heavy, in a sentence; None when it is light.
    reason: str | None
    #: The same for the same query however it is spaced, commented or its variables named.
    fingerprint: str


@dataclass
class _Group:
    patterns: list[set[str]] = field(default_factory=list)
    current: set[str] = field(default_factory=set)
    parentheses: int = 0
    template: bool = False  # a CONSTRUCT template: triples written out, not joined
    union_next: bool = False  # a UNION was read: the next group joins the pattern before it

    def close_pattern(self) -> None:
        if self.current:
            self.patterns.append(self.current)
        self.current = set()

    def variables(self) -> set[str]:
        return set().union(self.current, *self.patterns)


def estimate_cost(query: str) -> QueryCost:
    """Whether ``query`` is heavy (a cartesian product in one of its groups), why, and its fingerprint."""
    if len(query) > MAX_ESTIMATED_CHARS:
        digest = hashlib.blake2b(query.encode("utf-8", "replace"), digest_size=16).hexdigest()
        return QueryCost(True, f"it is longer than {MAX_ESTIMATED_CHARS:,} characters", "long:" + digest)
    groups: list[_Group] = []
    reason: str | None = None
    template_next = False  # CONSTRUCT read, its WHERE not yet
    numbered: dict[str, str] = {}
    digest = hashlib.blake2b(digest_size=16)
    try:
        for token in tokens(query):
            text = token.text
            if token.kind == WORD:
                text = text.upper()  # keywords are read whatever their case
            elif token.kind in (VAR, BNODE):
                text = numbered.setdefault(token.text[1:] if token.kind == VAR else text, f"?{len(numbered)}")
            digest.update(text.encode("utf-8", "surrogatepass") + b"\x00")
            if not groups:
                if token.kind == WORD and token.text.upper() in ("CONSTRUCT", "WHERE"):
                    template_next = token.text.upper() == "CONSTRUCT"
                elif token.kind == PUNCT and token.text == "{":
                    groups.append(_Group(template=template_next))
                    template_next = False
                continue
            group = groups[-1]
            if token.kind == PUNCT:
                if token.text == "{":
                    groups.append(_Group())
                elif token.text == "}":
                    groups.pop()
                    group.close_pattern()
                    if reason is None and not group.template and _apart(group.patterns):
                        reason = "its patterns share no variable: the query makes a cartesian product of them"
                    if groups and groups[-1].parentheses == 0:
                        parent = groups[-1]
                        if not parent.union_next:
                            parent.close_pattern()
                        parent.current |= group.variables()
                        parent.union_next = False
                elif token.text == "(":
                    group.parentheses += 1
                elif token.text == ")":
                    group.parentheses = max(group.parentheses - 1, 0)
                elif token.text == "." and group.parentheses == 0:
                    group.close_pattern()
            elif token.kind == WORD and group.parentheses == 0:
                keyword = text
                if keyword == "UNION":
                    group.union_next = True
                elif keyword in _PATTERN_STARTS:
                    group.close_pattern()
            elif token.kind in (VAR, BNODE) and group.parentheses == 0:
                group.current.add(text)
    except MtgkbError:  # not SPARQL tokens: refused by the worker at once
        return QueryCost(
            False, None, "unreadable:" + hashlib.blake2b(query.encode("utf-8", "replace")).hexdigest()
        )
    return QueryCost(reason is not None, reason, digest.hexdigest())


def _apart(patterns: list[set[str]]) -> bool:
    """Whether ``patterns`` (each a set of variables) fall into two or more sets sharing no variable."""
    joined: list[set[str]] = []
    for pattern in patterns:
        touching = [part for part in joined if part & pattern]
        merged = set(pattern).union(*touching)
        joined = [part for part in joined if not part & pattern] + [merged]
    return len(joined) > 1
