"""A grammar-aware generator of SPARQL queries for the fuzz tests: group patterns nested through every
construct (groups, UNION, OPTIONAL, MINUS, GRAPH, FILTER, BIND, VALUES, subqueries, EXISTS), property
paths, expressions with every operator and function shape, terms with escapes in names and strings,
comments wherever white space may stand, and SERVICE spelled every way the parser takes it, aimed at
a listener of the test's own. Sometimes one construct is repeated thousands of times, deep or long,
to reach the limits of :mod:`mtgkb.kb.query_limits`.

A query comes with whether it holds a SERVICE, so that the test can insist that it was refused."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

PREFIXES = "PREFIX m: <http://example.org/m/> PREFIX e: <http://example.org/e/> "


@dataclass(frozen=True)
class Generated:
    text: str
    service: bool


def _join(parts: list[str], separators: list[str]) -> str:
    out = []
    for index, part in enumerate(parts):
        if index:
            out.append(separators[index % len(separators)])
        out.append(part)
    return "".join(out)


# White space and comments, with the characters a regex would have taken for quotes and brackets.
gaps = st.sampled_from(
    [" ", "  ", "\n", "\t", " # a comment\n", " #'\n", ' #"""\n', " # SERVICE <x> {\n", " #c\r", " #{(\n"]
)
variables = st.sampled_from(["?s", "?p", "?o", "?x", "$y", "?card", "?service", "?_1"])
iris = st.sampled_from(
    [
        "<http://example.org/a>",
        "<http://example.org/a#b>",
        "<http://example.org/SERVICE>",
        "<http://example.org/a'b>",
        "<urn:x:(y)>",
        "<http://example.org/\\u0041>",
        "mtgkb:Card",
        "card:yuriko-the-tigers-shadow",
        "m:x\\'",
        "m:x\\#y",
        "m:a\\(b\\)",
        "m:%41b",
        "m:a.b",
        "e:",
        ":local",
        "a",
    ]
)
strings = st.sampled_from(
    [
        '"x"',
        "'x'",
        '"a\\"b"',
        "'a\\'b'",
        '"""long "" string\n SERVICE <x> { """',
        "'''long '' string\n } '''",
        '"x"@en',
        '"1"^^xsd:integer',
        '"\\n\\t\\\\"',
        "''",
    ]
)
numbers = st.sampled_from(["1", "-2", "3.5", ".5", "1e3", "+4", "0"])
terms = st.one_of(variables, iris, strings, numbers, st.sampled_from(["true", "false", "[]", "()"]))


def paths() -> st.SearchStrategy[str]:
    step = st.one_of(iris, st.sampled_from(["a", "m:p", "^m:p", "!m:p", "!(m:p|^a)", "!()"]))
    return st.recursive(
        step,
        lambda inner: st.one_of(
            st.tuples(inner, inner).map(lambda pair: f"{pair[0]}/{pair[1]}"),
            st.tuples(inner, inner).map(lambda pair: f"{pair[0]}|{pair[1]}"),
            inner.map(lambda path: f"({path})"),
            st.tuples(inner, st.sampled_from("*+?")).map("".join),
            inner.map(lambda path: f"^{path}"),
        ),
        max_leaves=8,
    )


def expressions(patterns: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    operand = st.one_of(terms, st.sampled_from(["STR(?o)", "NOW()", "RAND()", "COUNT(*)"]))
    binary = st.sampled_from(
        [" && ", " || ", " = ", " != ", " < ", " > ", " <= ", " >= ", " + ", "*", "/", "<"]
    )
    functions = st.sampled_from(["STR", "REGEX", "SUBSTR", "IF", "COALESCE", "CONCAT"])
    return st.recursive(
        operand,
        lambda inner: st.one_of(
            st.tuples(inner, binary, inner).map("".join),
            inner.map(lambda expression: f"({expression})"),
            inner.map(lambda expression: f"!({expression})"),
            st.tuples(functions, inner, inner).map(lambda parts: f"{parts[0]}({parts[1]}, {parts[2]})"),
            st.tuples(inner, st.lists(terms, max_size=3)).map(lambda p: f"{p[0]} IN ({', '.join(p[1])})"),
            patterns.map(lambda pattern: f"EXISTS {{ {pattern} }}"),
        ),
        max_leaves=6,
    )


def service_keyword(url: str) -> st.SearchStrategy[str]:
    """SERVICE and the service it names, in every spelling seen to reach Oxigraph."""
    return st.sampled_from(
        [
            f"SERVICE <{url}>",
            f"service <{url}>",
            f"SeRvIcE <{url}>",
            f"SERVICE SILENT <{url}>",
            f"SERVICE{' '}?svc",
            f"SERVICE<{url}>",
            f"SERVICESILENT<{url}>",
            "SERVICEm:x",
            "SERVICE:x",
            f"SERVICE # hidden\n <{url}>",
            f"SERVICE\r<{url}>",
        ]
    )


@st.composite
def queries(draw: st.DrawFn, url: str) -> Generated:
    triple = st.tuples(terms, paths(), terms, gaps).map(lambda p: f"{p[0]} {p[1]} {p[2]} .{p[3]}")
    patterns = st.deferred(lambda: pattern)
    filters = expressions(triple).map(lambda expression: f"FILTER({expression})")
    binds = st.tuples(expressions(triple), variables).map(lambda p: f"BIND({p[0]} AS ?b{p[1][1:]})")
    values = st.lists(terms, max_size=3).map(lambda row: "VALUES ?v { " + " ".join(row) + " }")
    pattern = st.recursive(
        st.one_of(triple, filters, binds, values),
        lambda inner: st.one_of(
            st.lists(inner, min_size=1, max_size=3).map(" ".join),
            inner.map(lambda body: f"{{ {body} }}"),
            st.tuples(inner, inner).map(lambda pair: f"{{ {pair[0]} }} UNION {{ {pair[1]} }}"),
            inner.map(lambda body: f"OPTIONAL {{ {body} }}"),
            inner.map(lambda body: f"MINUS {{ {body} }}"),
            inner.map(lambda body: f"GRAPH ?g {{ {body} }}"),
            inner.map(lambda body: f"{{ SELECT * WHERE {{ {body} }} LIMIT 3 }}"),
            st.tuples(service_keyword(url), inner).map(lambda pair: f"{pair[0]} {{ {pair[1]} }}"),
        ),
        max_leaves=10,
    )
    body = draw(patterns)
    if draw(st.integers(0, 9)) == 0:  # one construct repeated deep or long, to reach the limits
        body = draw(_huge(body))
    forms = ["SELECT * WHERE", "ASK", "SELECT (COUNT(*) AS ?n) WHERE", "CONSTRUCT WHERE"]
    form = draw(st.sampled_from(forms))
    tail = draw(st.sampled_from([" LIMIT 5", " ORDER BY ?s LIMIT 3", "", " GROUP BY ?s"]))
    text = f"{PREFIXES}{draw(gaps)}{form} {{ {body} }}{tail}"
    # Only the SERVICE spellings name the listener, ?svc, or glue the keyword to a prefix.
    service = any(mark in body for mark in (url, "?svc", "SERVICEm:x", "SERVICE:x"))
    return Generated(text, service)


@st.composite
def _huge(draw: st.DrawFn, body: str) -> str:
    times = draw(st.sampled_from([13, 65, 301, 1001, 3000, 10_000]))
    kind = draw(st.sampled_from(["group", "union", "optional", "path", "and", "bang", "paren", "triples"]))
    if kind == "group":
        return "{ " * times + body + " }" * times
    if kind == "union":
        return " UNION ".join([f"{{ {body} }}"] * times)
    if kind == "optional":
        return "OPTIONAL { ?s ?p ?o " * times + "}" * times
    if kind == "path":
        return "?s " + "/".join(["m:p"] * times) + " ?o"
    if kind == "and":
        return "FILTER(" + " && ".join(["?o"] * times) + ")"
    if kind == "bang":
        return "m:x\\' ?p ?o FILTER(" + "!(" * min(times, 40) + "?o"
    if kind == "paren":
        return "FILTER(" + "(" * times + "?o" + ")" * times + ")"
    return " . ".join(f"?s ?p ?o{index}" for index in range(times))
