"""How many cards get a real verdict: with an activated ability (mana abilities aside) from
``can-activate``, and with an alternative way to be cast from ``can-cast --via FAMILY``. Each figure
is a random sample of the pool's cards, each in its ability's zone (or the zone its permission works
from: a graveyard for flashback, exile with ``foretold`` or ``plotted`` for those) in a plain
situation (my precombat main phase, an empty stack, a creature, a land and cards in hand and
graveyard beside it, a creature of the opponent's, mana left unsaid). A real verdict is a yes or a no
with every check decided; the rest cannot tell (or the family is refused), and the figure is printed
with the most common reasons why. First it counts the sentences on a card's own action ("This ability
costs {1} less to activate ...", "Cast this spell only ...") by the reader claiming each, and those no
reader claims.

Run it on the store you want measured (import the whole pool first):

    python benchmarks/activation_census.py [--sample 300] [--seed 21] [--all] [--only activate|cast]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections import Counter

# A "[Cost]: [Effect]" line, or an activated keyword ability, outside quotation marks.
_ACTIVATED = re.compile(
    r"^(?:[A-Z][A-Za-z' ]{2,30} \u2014 )?(?:[^:\"\u201c.]{1,120}): |^\[?(?:[+\u2212-]?(?:\d+|X))\]?: "
    r"|^(?:Equip|Cycling|[A-Z][a-z]+cycling|Basic landcycling|Unearth|Crew|Level up|Outlast|Fortify"
    r"|Embalm|Eternalize|Encore|Scavenge|Reconfigure|Transmute|Ninjutsu|Channel)\b",
    re.MULTILINE,
)
_MANA_ONLY = re.compile(r"^[^:]*: Add [^.]*\.?$")
_TRIGGER = re.compile(r"^(?:When|Whenever|At) ")


def has_non_mana_activated(text: str) -> bool:
    for line in text.splitlines():
        line = re.sub(r"\([^()]*\)", "", line).strip()
        if _TRIGGER.match(line) or not _ACTIVATED.match(line):
            continue
        if not _MANA_ONLY.match(line):
            return True
    return False


# The ways to cast the issue names, each with the zone it works from and how the card got there; a
# card is counted under the first family its Oracle text shows.
_CAST_FAMILIES: dict[str, tuple[str, dict]] = {
    **dict.fromkeys(
        ("flashback", "escape", "retrace", "jump-start", "disturb", "aftermath", "harmonize", "mayhem"),
        ("graveyard", {}),
    ),
    "foretell": ("exile", {"foretold": True}),
    "plot": ("exile", {"plotted": True}),
    "suspend": ("exile", {"suspended": True, "counters": {"time": 0}}),
    "madness": ("exile", {"madness": True}),
    **dict.fromkeys(
        (
            "adventure",
            "miracle",
            "evoke",
            "dash",
            "blitz",
            "overload",
            "bestow",
            "prototype",
            "mutate",
            "emerge",
            "spectacle",
            "surge",
            "prowl",
            "freerunning",
            "warp",
            "impending",
            "cleave",
            "morph",
            "megamorph",
            "disguise",
            "alternative",
        ),
        ("hand", {}),
    ),
}
_CAST_KEYWORD = re.compile(
    r"^(Flashback|Escape|Retrace|Jump-start|Disturb|Harmonize|Mayhem|Foretell|Plot|Suspend|Madness"
    r"|Miracle|Evoke|Dash|Blitz|Overload|Bestow|Prototype|Mutate|Emerge|Spectacle|Surge|Prowl"
    r"|Freerunning|Warp|Impending|Cleave|Megamorph|Morph|Disguise)(?= \{| \d| X\b|\u2014|$)",
    re.MULTILINE,
)
# The card's own alternative cost ("You may pay {W} rather than pay this spell's mana cost", "If ...,
# you may cast this spell without paying its mana cost"), not an effect casting other cards ("you may
# cast it without paying its mana cost" of a card Galvanoth reveals, "rather than pay its mana cost"
# of a spell cast from Bolas's Citadel's library).
_RATHER_THAN = re.compile(
    r"rather than pay this spell's mana cost|cast this spell without paying its mana cost", re.IGNORECASE
)


def cast_family(text: str, layout: str) -> str | None:
    """The way to cast a card's Oracle text shows first, as ``--via`` names it; None for none."""
    if layout == "adventure":
        return "adventure"
    if "Aftermath" in text:
        return "aftermath"
    plain = re.sub(r"\([^()]*\)", "", text)  # reminder text: cascade's says "without paying"
    match = _CAST_KEYWORD.search(plain)
    if match:
        return match.group(1).lower()
    if _RATHER_THAN.search(plain):
        return "alternative"
    return None


def situation(card: str, zone: str, exiled: dict | None = None) -> dict:
    me: dict = {
        "battlefield": [{"card": "Grizzly Bears"}, {"card": "Forest"}],
        "hand": ["Island"],
        "graveyard": ["Lightning Bolt", "Shock", "Opt", "Llanowar Elves", "Grizzly Bears", "Swamp"],
        "exile": [],
    }
    if zone == "battlefield":
        me["battlefield"].append({"card": card})
    elif zone == "exile":
        me["exile"].append({"card": card, **(exiled or {})})
    else:
        me[zone].append(card)
    return {
        "turn": "me",
        "step": "precombat-main",
        "players": {"me": me, "opp": {"battlefield": [{"card": "Storm Crow"}]}},
    }


def reason(verdict) -> str:
    undecided = [c for c in verdict.checks if c.holds is None]
    if not undecided:
        return "?"
    text = undecided[0].because
    quoted = re.findall(r"\u201c([^\u201d]+)\u201d", text)
    if quoted:
        text = quoted[0]
    text = re.sub(r"\d+", "N", text.lower())
    return " ".join(text.split()[:6])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--all", action="store_true", help="every such card, not a sample")
    parser.add_argument("--only", choices=("activate", "cast"), help="one of the two figures")
    options = parser.parse_args()

    from mtgkb.app import open_kb

    kb = open_kb()
    rows = kb.raw_query(
        "SELECT ?name ?text (SAMPLE(?l) AS ?layout) WHERE { ?c a <https://w3id.org/mtgkb/vocab#Card> ; "
        "<https://w3id.org/mtgkb/vocab#name> ?name ; <https://w3id.org/mtgkb/vocab#oracleText> ?text "
        "OPTIONAL { ?c <https://w3id.org/mtgkb/vocab#layout> ?l } "
        "FILTER NOT EXISTS { ?c <https://w3id.org/mtgkb/vocab#isFunny> true } } GROUP BY ?name ?text"
    )
    texts = [
        (r["name"].value, r["text"].value, r["layout"].value if r["layout"] is not None else "") for r in rows
    ]
    _report_sentences(texts)
    if options.only != "cast":
        activated = sorted({name for name, text, _ in texts if has_non_mana_activated(text)})
        print(f"{len(activated)} cards with a non-mana activated ability", file=sys.stderr)
        _report("can-activate", _sample(activated, options), options, lambda name: _activate(kb, name))
    if options.only != "activate":
        families = {name: cast_family(text, layout) for name, text, layout in texts}
        castable = sorted(name for name, family in families.items() if family)
        print(f"{len(castable)} cards with an alternative way to be cast", file=sys.stderr)
        _report(
            "can-cast --via",
            _sample(castable, options),
            options,
            lambda name: _cast(kb, name, families[name]),
        )


def _report_sentences(texts: list[tuple[str, str, str]]) -> None:
    """How many sentences on a card's own spell or ability (its cost, who may activate it, when it
    may be cast) each reader claims, and how many no reader claims (issue 38, class 4)."""
    from mtgkb.importers.oracle_sentences import claimed_sentences

    readers: Counter[str] = Counter()
    unclaimed: Counter[str] = Counter()
    for name, text, _layout in texts:
        # A card's faces are one text here ("A // B"): each face's sentence still names its card.
        for claim in claimed_sentences(text, name.split(" // ")[0]):
            readers[claim.reader or "none"] += 1
            if claim.reader is None:
                unclaimed[claim.sentence] += 1
    total = sum(readers.values())
    print(f"sentences on a card's own action: {total}, claimed by no reader: {readers['none']}")
    print("  by reader: " + ", ".join(f"{reader} {count}" for reader, count in readers.most_common()))
    for sentence, count in unclaimed.most_common(5):
        print(f"  {count:4d}  {sentence[:100]}")


def _sample(cards: list[str], options: argparse.Namespace) -> list[str]:
    if options.all:
        return cards
    return random.Random(options.seed).sample(cards, min(options.sample, len(cards)))


def _activate(kb, name: str):
    from mtgkb.reasoning.actions.questions import can_activate

    verdict = None
    for zone in ("battlefield", "hand", "graveyard"):
        verdict = can_activate(kb, situation(name, zone), name)
        zones_fail = [c for c in verdict.checks if c.holds is False and "zone" not in c.check.lower()]
        in_zone = not any(
            c.holds is False
            and (
                "hand" in c.check.lower()
                or "graveyard" in c.check.lower()
                or "battlefield" in c.check.lower()
            )
            for c in verdict.checks
        )
        if in_zone or zones_fail:
            break
    return verdict


def _cast(kb, name: str, family: str):
    from mtgkb.reasoning.actions.questions import can_cast

    zone, exiled = _CAST_FAMILIES[family]
    return can_cast(kb, situation(name, zone, exiled), name, family)


def _report(
    title: str, chosen: list[str], options: argparse.Namespace, ask, families: dict | None = None
) -> None:
    from mtgkb.core.errors import MtgkbError

    answers: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    started = time.perf_counter()
    for name in chosen:
        try:
            verdict = ask(name)
        except MtgkbError as error:
            answers["refused"] += 1
            family = f" (--via {families[name]})" if families else ""
            plain = re.sub(r"^.*? has no ability", "no ability", str(error))
            reasons[f"refused{family}: {plain[:50]}"] += 1
            continue
        kind = {True: "yes", False: "no", None: "cannot tell"}[verdict.answer]
        answers[kind] += 1
        if verdict.answer is None:
            family = f"(--via {families[name]}) " if families else ""
            reasons[family + reason(verdict)] += 1
    seconds = time.perf_counter() - started
    real = answers["yes"] + answers["no"]
    total = sum(answers.values())
    print(f"{title}: sample of {total} cards (seed {options.seed}), {seconds:.1f} s")
    print(f"real verdicts: {real} of {total} = {100 * real / max(total, 1):.1f}%  {dict(answers)}")
    print("top reasons for cannot tell or refused:")
    for text, count in reasons.most_common(25):
        print(f"  {count:4d}  {text}")


if __name__ == "__main__":
    main()
