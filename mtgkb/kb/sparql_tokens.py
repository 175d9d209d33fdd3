"""A SPARQL tokenizer, for the checks a query passes before Oxigraph ever parses it.

The checks (no SERVICE, nesting and size within limits, see :mod:`mtgkb.kb.query_shape`) must see the
query as Oxigraph's parser does, or text it reads as a keyword hides from them inside what they take
for a string, an IRI or a comment: a regex over the text was fooled by a prefixed name with an escaped
quote (``m:x\\'``, PN_LOCAL_ESC), which opened a "string" that hid the SERVICE after it. So this reads
the SPARQL 1.1 terminals as the grammar defines them: long and short strings with their escapes, IRIs,
prefixed names with ``\\`` escapes and ``%hh``, blank nodes, variables, numbers, language tags, and
comments (to the end of the line, ``\\n`` or ``\\r``, as Oxigraph ends them).

One character is read two ways by the grammar: ``<`` starts an IRI, or is "less than" in an
expression. Oxigraph's parser decides by the place it parses, which a tokenizer cannot know for sure;
where both readings are possible (inside parentheses, right after a value) and they would differ in
what matters (a ``#``, a quote or a bracket inside the would-be IRI, or the word SERVICE), the query
is refused as ambiguous rather than guessed at (:class:`AmbiguousQuery`). Everywhere else both
readings give the same tokens that matter, so the checks see what the parser sees.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from mtgkb.core.errors import MtgkbError

WORD = "word"  # a keyword, a function name, ``a``, ``true``
VAR = "var"
IRI = "iri"
PNAME = "pname"
BNODE = "bnode"
STRING = "string"
NUMBER = "number"
LANGTAG = "langtag"
PUNCT = "punct"


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    text: str
    start: int


class MalformedTokens(MtgkbError):
    """The query cannot be split into SPARQL tokens (a string left open)."""


class AmbiguousQuery(MtgkbError):
    """A ``<`` that Oxigraph might read as an IRI or as "less than", with a difference that matters."""


_ESCAPE = r"\\[_~.\-!$&'()*+,;=/?#@%]"
_PERCENT = r"%[0-9A-Fa-f]{2}"
# PN_PREFIX: starts with a letter, may hold dots but not end with one.
_PREFIX = r"(?:[^\W\d_](?:[\w\-]|\.(?=[\w\-.]*[\w\-]:))*)?"
# PN_LOCAL: starts with a name character, a colon, a digit, an escape or %hh; dots inside only.
_LOCAL_CHAR = rf"(?:[\w\-:\u00B7]|{_PERCENT}|{_ESCAPE})"
_LOCAL = rf"(?:(?:[\w:]|{_PERCENT}|{_ESCAPE})(?:{_LOCAL_CHAR}|\.+(?={_LOCAL_CHAR}))*+)?"
_UCHAR = r"\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}"

_PATTERNS: list[tuple[str, str]] = [
    (STRING, r'"""(?:[^"\\]|\\[\s\S]|"(?!""))*+"""'),
    (STRING, r"'''(?:[^'\\]|\\[\s\S]|'(?!''))*+'''"),
    (STRING, r'"(?:[^"\\\n\r]|\\[^\n\r])*+"'),
    (STRING, r"'(?:[^'\\\n\r]|\\[^\n\r])*+'"),
    (VAR, r"[?$][\w\u00B7]+"),
    (BNODE, r"_:[\w](?:[\w\-\u00B7]|\.+(?=[\w\-]))*+"),
    (PNAME, rf"{_PREFIX}:{_LOCAL}"),
    (NUMBER, r"\d+\.\d*[eE][+-]?\d+|\.?\d+[eE][+-]?\d+|\d*\.\d+|\d+"),
    (WORD, r"[^\W\d]\w*"),
    (LANGTAG, r"@[A-Za-z]+(?:-[A-Za-z0-9]+)*"),
    (PUNCT, r"\^\^|&&|\|\||!=|<=|>=|<<|>>|[{}()\[\].,;|/^!=<>+\-*@&]"),
]
_TOKEN = re.compile("|".join(f"(?P<g{index}>{pattern})" for index, (_, pattern) in enumerate(_PATTERNS)))
_KINDS = {f"g{index}": kind for index, (kind, _) in enumerate(_PATTERNS)}
_SKIP = re.compile(r"(?:\s++|#[^\n\r]*+)++")
_IRIREF = re.compile(rf"<(?:[^<>\"{{}}|^`\\\x00-\x20]|{_UCHAR})*+>")
# What, inside a would-be IRI, reads differently as "less than" followed by tokens: a comment, a
# string, brackets, or a keyword the checks look for.
_DIFFERS_AS_OPERATOR = re.compile(r"[#'()\[\]]|service", re.IGNORECASE)
_DATA, _ROW = "D", "R"
_OPEN_STRING = re.compile(r"\"\"\"|'''|\"|'")


def _ends_value(token: Token | None) -> bool:
    """Whether ``token`` can end an operand, so that a ``<`` after it may be "less than"."""
    if token is None:
        return False
    if token.kind in (VAR, IRI, PNAME, BNODE, STRING, NUMBER, LANGTAG):
        return True
    if token.kind == WORD:
        return token.text.lower() in ("true", "false")
    return token.text in (")", "]")


def tokens(query: str) -> Iterator[Token]:
    """The tokens of ``query`` (white space and comments left out), in order.

    :class:`MalformedTokens` for a string left open; :class:`AmbiguousQuery` for a ``<`` both
    readings of which Oxigraph might take and which differ in what the checks look at. A character
    that starts no token is a one-character :data:`PUNCT`: the parser will refuse it."""
    position, length = 0, len(query)
    brackets: list[str] = []
    previous: Token | None = None
    values_pending = False
    while True:
        skipped = _SKIP.match(query, position)
        if skipped:
            position = skipped.end()
        if position >= length:
            return
        character = query[position]
        token: Token | None = None
        if character == "<":
            iri = _IRIREF.match(query, position)
            if iri:
                ambiguous = brackets and brackets[-1] == "(" and _ends_value(previous)
                if ambiguous and _DIFFERS_AS_OPERATOR.search(iri.group(), 1):
                    raise _ambiguous(query, position)
                token = Token(IRI, iri.group(), position)
            elif query.startswith("<<", position) and (after := _IRIREF.match(query, position + 1)):
                # "<<x>" is "<<" and then x, or "<" and then the IRI <x>: read so when the two
                # readings differ in nothing that matters, and refuse it when they do.
                if _DIFFERS_AS_OPERATOR.search(after.group(), 1):
                    raise _ambiguous(query, position)
                token = Token(PUNCT, "<", position)
        if token is None:
            match = _TOKEN.match(query, position)
            if match is None:
                if _OPEN_STRING.match(query, position):
                    raise _unterminated(query, position)
                token = Token(PUNCT, character, position)
            else:
                kind = _KINDS[match.lastgroup or ""]
                token = Token(kind, match.group(), position)
        if token.kind == PUNCT:
            if token.text == "{" and values_pending:
                brackets.append(_DATA)  # VALUES data: terms only, never an expression
            elif token.text == "(" and brackets and brackets[-1] in (_DATA, _ROW):
                brackets.append(_ROW)
            elif token.text in "{([":
                brackets.append(token.text)
            elif token.text in "})]" and brackets:
                brackets.pop()
        if token.kind == WORD and token.text.upper() == "VALUES":
            values_pending = True
        elif not (token.kind == VAR or token.text in "()"):
            values_pending = False
        position += len(token.text)
        previous = token
        yield token


def line_and_column(query: str, position: int) -> tuple[int, int]:
    """1-based line and column of ``position`` in ``query``."""
    line = query.count("\n", 0, position) + 1
    return line, position - (query.rfind("\n", 0, position) + 1) + 1


def _unterminated(query: str, position: int) -> MalformedTokens:
    line, column = line_and_column(query, position)
    return MalformedTokens(
        f"malformed SPARQL query at line {line}, column {column}: a string is opened and never closed",
        'close the string with the same quote it opens with (escape a quote inside it as \\")',
    )


def _ambiguous(query: str, position: int) -> AmbiguousQuery:
    line, column = line_and_column(query, position)
    return AmbiguousQuery(
        f"the '<' at line {line}, column {column} may start an IRI or compare two values, and the "
        "two readings differ; the query is refused rather than guessed at",
        "put a space after '<' when it compares (?a < ?b), or write the IRI with a PREFIX",
    )
