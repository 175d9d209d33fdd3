"""Errors a user can cause. The CLI turns them into a message and exit status 2, never a traceback."""

from __future__ import annotations


def shown(value: str, limit: int = 80) -> str:
    """``value`` as a message quotes it: cut to ``limit`` characters, so that a 10,000-character name
    or query gives a message that still fits a screen."""
    return value if len(value) <= limit else value[: limit - 1] + "…"


class MtgkbError(Exception):
    """A problem with the user's input or environment, with a hint on what to type next."""

    exit_code = 2

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class NotFoundError(MtgkbError):
    """A name or number that matches nothing; ``suggestions`` are the closest known names."""

    def __init__(self, what: str, query: str, suggestions: list[str]) -> None:
        hint = None
        if suggestions:
            quoted = ", ".join(f"'{s}'" for s in suggestions)
            hint = f"did you mean {quoted}?"
        super().__init__(f"no {what} named '{shown(query)}'", hint)
        self.what = what
        self.query = query
        self.suggestions = suggestions


class AmbiguousNameError(MtgkbError):
    def __init__(self, what: str, query: str, candidates: list[str]) -> None:
        listed = ", ".join(f"'{c}'" for c in candidates[:8])
        more = f" and {len(candidates) - 8} more" if len(candidates) > 8 else ""
        super().__init__(f"'{shown(query)}' matches several {what}s: {listed}{more}", "type more of the name")
        self.candidates = candidates


class StoreError(MtgkbError):
    """The store could not be built or opened (unwritable cache, broken data file)."""


class ImportFileError(MtgkbError):
    """A file handed to an importer is not what that importer reads."""


class Interrupted(MtgkbError):
    """Ctrl-C: the message says what was and was not done; exit status 130 as shells expect."""

    exit_code = 130


class AnswerCutShort(MtgkbError):
    """An error after part of an answer was written: the message says the answer is incomplete, and it
    goes to stderr even with ``--json``, whose stdout already holds the start of the answer."""

    def __init__(self, error: MtgkbError) -> None:
        super().__init__(f"{error.message} (the answer written before this is incomplete)", error.hint)
        self.exit_code = error.exit_code
