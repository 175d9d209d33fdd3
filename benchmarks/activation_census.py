"""How many cards with an activated ability (mana abilities aside) get a real verdict from
``can-activate``: a random sample of the pool's cards, each in its ability's zone in a plain
situation (my precombat main phase, an empty stack, a creature, a land and a card in hand beside it,
a creature of the opponent's, mana left unsaid). A real verdict is a yes or a no with every check
decided; the rest cannot tell, and the figure is printed with the most common reasons why.

Run it on the store you want measured (import the whole pool first):

    python benchmarks/activation_census.py [--sample 300] [--seed 21] [--all]
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


def situation(card: str, zone: str) -> dict:
    me: dict = {
        "battlefield": [{"card": "Grizzly Bears"}, {"card": "Forest"}],
        "hand": ["Island"],
        "graveyard": ["Lightning Bolt"],
    }
    if zone == "battlefield":
        me["battlefield"].append({"card": card})
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
    options = parser.parse_args()

    from mtgkb.app import open_kb
    from mtgkb.core.errors import MtgkbError
    from mtgkb.reasoning.actions.questions import can_activate

    kb = open_kb()
    rows = kb.raw_query(
        "SELECT ?name ?text WHERE { ?c a <https://w3id.org/mtgkb/vocab#Card> ; "
        "<https://w3id.org/mtgkb/vocab#name> ?name ; <https://w3id.org/mtgkb/vocab#oracleText> ?text "
        "FILTER NOT EXISTS { ?c <https://w3id.org/mtgkb/vocab#isFunny> true } }"
    )
    cards = sorted({r["name"].value for r in rows if has_non_mana_activated(r["text"].value)})
    print(f"{len(cards)} cards with a non-mana activated ability", file=sys.stderr)
    chosen = (
        cards if options.all else random.Random(options.seed).sample(cards, min(options.sample, len(cards)))
    )
    answers: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    started = time.perf_counter()
    for name in chosen:
        verdict = None
        for zone in ("battlefield", "hand", "graveyard"):
            try:
                verdict = can_activate(kb, situation(name, zone), name)
            except MtgkbError as error:
                reasons[f"error: {str(error)[:50]}"] += 1
                break
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
        if verdict is None:
            answers["error"] += 1
            continue
        kind = {True: "yes", False: "no", None: "cannot tell"}[verdict.answer]
        answers[kind] += 1
        if verdict.answer is None:
            reasons[reason(verdict)] += 1
    seconds = time.perf_counter() - started
    real = answers["yes"] + answers["no"]
    total = sum(answers.values())
    print(f"sample: {total} cards (seed {options.seed}), {seconds:.1f} s")
    print(f"real verdicts: {real} of {total} = {100 * real / max(total, 1):.1f}%  {dict(answers)}")
    print("top reasons for cannot tell:")
    for text, count in reasons.most_common(15):
        print(f"  {count:4d}  {text}")


if __name__ == "__main__":
    main()
