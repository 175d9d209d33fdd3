"""The pool's cards by mechanic, for the verdict tests of the imported pool (test_verdicts_pool.py,
test_verdicts_pool_alternatives.py): each card with the cost its ability prints, the parts of those
costs no phrase reads, and how a test reports the cards whose verdict was not the one expected."""

from __future__ import annotations


def cards_with(kb, mechanic: str) -> list[tuple[str, str]]:
    """(name, ability cost) of every card with an ability of ``mechanic``, by name."""
    rows = kb.select(
        "SELECT DISTINCT ?name ?cost WHERE { ?card mtgkb:hasAbility ?a ; mtgkb:name ?name . "
        f"?a mtgkb:instantiates mechanic:{mechanic} ; mtgkb:abilityCost ?cost }} ORDER BY ?name"
    )
    return [(row["name"], row["cost"]) for row in rows]


def unread_parts(kb, mechanic: str) -> dict[str, set[str]]:
    """The cards whose ability of ``mechanic`` has a cost part no phrase reads ("Exile a land you
    control"), with those parts in lower case: their verdicts cannot tell."""
    rows = kb.select(
        "SELECT DISTINCT ?name ?part WHERE { ?card mtgkb:hasAbility ?a ; mtgkb:name ?name . "
        f"?a mtgkb:instantiates mechanic:{mechanic} ; mtgkb:unmodelledPart ?part }}"
    )
    found: dict[str, set[str]] = {}
    for row in rows:
        found.setdefault(row["name"], set()).add(row["part"].lower())
    return found


def report(what: str, cards: int, verdicts: int, problems: list[str]) -> None:
    """Print the counts (pytest -s shows them) and fail with the first twenty problems."""
    print(f"\n{what}: {cards} cards, {verdicts} verdicts")
    assert not problems, f"{len(problems)}:\n" + "\n".join(problems[:20])


#: Something of each kind a spell commonly targets, for the situations where a pool test expects a
#: spell to be castable (its targets are chosen as it is cast, 601.2c; an Aura's as well, 303.4a):
#: on the opponent's side creatures of two colours (one flying and tapped), an artifact, an
#: enchantment, basic and nonbasic lands and a planeswalker, and on mine a creature, a land and an
#: artifact; creature cards (green and black), instants and sorceries in both graveyards.
_TARGETS = {
    "opp": {
        "battlefield": [
            {"card": "Grizzly Bears"},
            {"card": "Serra Angel", "tapped": True},
            {"card": "Sol Ring"},
            {"card": "Propaganda"},
            {"card": "Forest"},
            {"card": "Island"},
            {"card": "Strip Mine"},
            {"card": "Jace Beleren"},
        ],
        "graveyard": ["Savannah Lions", "Opt", "Divination"],
    },
    "me": {
        "battlefield": [{"card": "Raging Goblin"}, {"card": "Mountain"}, {"card": "Mind Stone"}],
        "graveyard": ["Runeclaw Bear", "Walking Corpse", "Shock", "Ponder"],
    },
}
#: Spells on the stack to target, the opponent's and mine, for situations at an instant's time.
_SPELLS = (
    {"card": "Hill Giant", "controller": "opp"},
    {"card": "Lightning Bolt", "controller": "opp"},
    {"card": "Giant Growth", "controller": "me"},
)
#: Cards whose spell targets what no board of :func:`with_targets` has, by their Oracle text: in a
#: situation where they are otherwise castable, they are not (601.2c).
TARGETS_NOTHING_HERE = {
    "Order": "target attacking creature (a main phase has none)",
    "Nemesis Trap": "target attacking creature (a main phase has none)",
    "Spirit Flare": "target attacking or blocking creature (a main phase has none)",
    "Only the Best": "target Booster Fun card",
}


def with_targets(game: dict, spell: bool = False, mine: bool = True) -> dict:
    """``game`` with :data:`_TARGETS` added to its players' zones (and, with ``spell``, a spell of the
    opponent's and one of mine on the stack); without ``mine``, to the opponent's zones only."""
    players = {name: dict(zones) for name, zones in game["players"].items()}
    for name, zones in _TARGETS.items():
        if name == "me" and not mine:
            continue
        player = players.setdefault(name, {})
        for zone, objects in zones.items():
            player[zone] = [*player.get(zone, []), *objects]
    added = {"players": players}
    if spell:
        added["stack"] = [*game.get("stack", []), *_SPELLS]
    return game | added


def unread_targets(kb) -> set[str]:
    """The cards (and faces) with a spell target no phrase reads: casting them cannot tell."""
    rows = kb.select(
        "SELECT DISTINCT ?name WHERE { { ?card mtgkb:hasSpellTargets ?t } UNION "
        "{ ?c mtgkb:hasFace ?card . ?card mtgkb:hasSpellTargets ?t } "
        "?card mtgkb:name ?name . ?t mtgkb:unmodelledPart ?part }"
    )
    return {row["name"] for row in rows}


def is_instant(kb, name: str) -> bool:
    """Whether the card ``name`` is an instant: cast in a main phase, it may find a spell to target."""
    rows = kb.select('SELECT ?t WHERE { ?c mtgkb:name ?n ; mtgkb:cardType "Instant" } ', n=name)
    return bool(rows)


def unread_cast_sentences(kb) -> set[str]:
    """The cards (and faces) whose text has a sentence changing how they are cast that no reader
    reads ("As an additional cost to cast this spell, discard a card", "Cast this spell only during
    combat"): a cast that would be a yes cannot tell."""
    rows = kb.select("SELECT DISTINCT ?name WHERE { ?card mtgkb:unreadCastSentence ?s ; mtgkb:name ?name }")
    return {row["name"] for row in rows}
