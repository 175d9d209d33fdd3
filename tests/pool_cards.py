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
