"""Shell completion of mtgkb's arguments (bash, zsh and fish, through click's shell completion).

Commands, options and choices come from click itself. Card, mechanic, step, zone and rules-concept
names come from the name index written beside the store of the current sources (``names.json``):
the store is never opened, let alone built, so a completion costs the reading of one file, and with
no store yet it offers no names rather than wait. Stdlib and click only: a command's module imports
this to declare its arguments, and a completion loads only the command being completed.

Install: ``eval "$(_MTGKB_COMPLETE=bash_source mtgkb)"`` in ~/.bashrc, the same with
``zsh_source`` in ~/.zshrc, or ``_MTGKB_COMPLETE=fish_source mtgkb > ~/.config/fish/completions/mtgkb.fish``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:  # imported when a completion runs: a command's module imports this one
    from click.shell_completion import CompletionItem

#: At most this many names are offered: a letter or two would otherwise list thousands of cards.
MOST = 100

Completer = Callable[[click.Context, click.Parameter, str], "list[CompletionItem]"]

_NAMES: list[list[str]] | None = None


def index_names() -> list[list[str]]:
    """[name, IRI, kind] of everything a user may name, from the current store's name index; none
    when the store is not built yet (or its index cannot be read)."""
    global _NAMES
    if _NAMES is None:
        import json

        from mtgkb.kb.store import current_store_path

        _NAMES = []
        try:
            path = current_store_path()
            if path is not None:
                _NAMES = json.loads((path / "names.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pass
    return _NAMES


def names_of(kinds: Sequence[str]) -> Completer:
    """Completes the names of ``kinds`` (card, mechanic, step, zone, concept) that start with what is
    typed, ignoring case, accents and punctuation as the look-ups do. For an argument of several
    words (``mtgkb card yuriko the``) the words already given count, and the rest of the name is
    offered."""

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        from click.shell_completion import CompletionItem

        from mtgkb.kb.names import normalise

        before = _words_before(ctx, param)
        typed = normalise(" ".join([*before, incomplete]))
        found: dict[str, str] = {}
        if not typed:  # nothing typed: the few names that are not cards, not 30,000 cards
            for name, _iri, kind in index_names():
                if kind in kinds and kind != "card":
                    found.setdefault(name, kind)
        for match in _prefixed(typed) if typed else ():
            if match.kind in kinds and match.name not in found:
                found[match.name] = match.kind
        items = []
        for name in sorted(found, key=lambda name: (kinds.index(found[name]), name.lower()))[:MOST]:
            words = name.split(" ")
            rest = " ".join(words[len(before) :]) if before else name
            if rest:
                items.append(CompletionItem(_quoted(rest), help=found[name] if len(kinds) > 1 else None))
        return items

    return complete


def _prefixed(typed: str) -> list[Any]:
    from mtgkb.kb.names import _Cache

    names = index_names()
    if not names:
        return []
    return _Cache.index(names, typed[:3]).prefixed(typed)


def complete_steps(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The steps and main phases as --step takes them (declare-blockers, precombat-main)."""
    from click.shell_completion import CompletionItem

    items = []
    for name, iri, kind in index_names():
        slug = iri.rstrip("/").rsplit("/", 1)[-1]
        if kind == "step" and slug.startswith(incomplete.lower()):
            items.append((slug, name))
    return [CompletionItem(slug, help=name) for slug, name in sorted(set(items))]


def complete_query_names(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The named queries of queries/."""
    from click.shell_completion import CompletionItem

    from mtgkb.core.paths import queries_dir

    folder = queries_dir()
    names = sorted(path.stem for path in folder.glob("*.rq")) if folder.is_dir() else []
    return [CompletionItem(name) for name in names if name.startswith(incomplete)]


def _words_before(ctx: click.Context, param: click.Parameter) -> list[str]:
    """The words already given to an argument of several words (nargs=-1)."""
    if not isinstance(param, click.Argument) or param.nargs != -1:
        return []
    given = ctx.params.get(param.name or "") or ()
    return [str(word) for word in given]


_SHELL_SPECIAL = re.compile(r"([^\w@%+=:,./-])")


def _quoted(value: str) -> str:
    """``value`` as bash must insert it. zsh (compadd) and fish quote what they insert themselves;
    bash inserts the text as it is, so a name with spaces or an apostrophe is escaped, unless the
    word being completed opened a quote of its own."""
    if not os.environ.get("_MTGKB_COMPLETE", "").startswith("bash"):
        return value
    words = os.environ.get("COMP_WORDS", "").split("\n")
    try:
        current = words[int(os.environ.get("COMP_CWORD", ""))]
    except (ValueError, IndexError):
        current = ""
    if current[:1] in ("'", '"'):
        return value
    return _SHELL_SPECIAL.sub(r"\\\1", value)


#: The completers of the kinds of argument mtgkb takes.
CARDS = names_of(("card",))
MECHANICS = names_of(("mechanic",))
RULINGS_SUBJECTS = names_of(("mechanic", "step", "zone", "concept", "card"))
NODES = names_of(("card", "mechanic", "step", "zone", "concept"))
