"""The rulings a verdict carries: the card's own first, then the mechanic's general rulings from other
cards that have it, each naming its card, the rest counted with the commands that list them."""

from __future__ import annotations

import json

import pytest

from mtgkb.lookups.verdict_rulings import _names_its_card, _said_before

NINJA = "Ninja of the Deep Hours"
COMBAT = ["--step", "declare-blockers", "--unblocked", "Grizzly Bears", "--mana", "{1}{U}{B}"]


def test_a_ruling_that_names_its_card_is_about_that_card() -> None:
    assert _names_its_card(
        "As you activate Yuffie's ninjutsu ability, you reveal Yuffie", "Yuffie, Materia Hunter"
    )
    assert _names_its_card("Kaito enters attacking the same player", "Kaito, Bane of Nightmares")
    assert not _names_its_card(
        "As you activate a ninjutsu ability, you reveal the Ninja card", "Biting-Palm Ninja"
    )
    assert not _names_its_card("The creature with ninjutsu enters attacking", "Orochi Soul-Reaver")


def test_a_reworded_general_ruling_is_said_once() -> None:
    said = "the creature with ninjutsu enters the battlefield attacking the same player or planeswalker"
    shown = [set(f"{said} that the returned creature was attacking".split(" "))]
    reworded = (
        "the creature with ninjutsu enters the battlefield attacking the same player planeswalker or battle "
        "that the returned creature was attacking"
    )
    assert _said_before(reworded, shown)
    assert not _said_before(
        "the ninjutsu ability can be activated only after blockers have been declared", shown
    )


@pytest.mark.shared
def test_a_ninjutsu_verdict_shows_the_cards_own_rulings_first_then_general_ones(run_cli_on_pool) -> None:
    result = run_cli_on_pool("can-activate", NINJA, *COMBAT, "--json")
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.stdout)
    rulings = verdict["rulings"]
    own = [r for r in rulings if not r["general"]]
    assert len(own) == 6 and all(r["about"] == NINJA for r in own)
    assert rulings[: len(own)] == own, "the card's own rulings come first"
    general = [r for r in rulings if r["general"]]
    for ruling in general:
        assert ruling["about"] and ruling["about"] != NINJA
        first = ruling["about"].split(",")[0]
        assert first not in (ruling["text"] or ""), f"{ruling['about']}'s ruling names its card"
    texts = " ".join(r["text"] or "" for r in rulings)
    for other in ("Yuffie", "Kaito", "Automated Artificer", "Gideon", "Puff of smoke"):
        assert other not in texts
    assert verdict["rulings_more"] > 0
    assert "mtgkb rulings ninjutsu" in verdict["rulings_see"]
    text = run_cli_on_pool("can-activate", NINJA, *COMBAT).stdout
    assert f"Rulings on {NINJA}:" in text
    assert "General rulings on ninjutsu, from other cards with it:" in text
    for ruling in general:
        assert f"{ruling['about']}: " in text
    assert "more, listed by: " in text and "mtgkb rulings ninjutsu" in text


@pytest.mark.shared
def test_a_commander_ninjutsu_verdict_takes_general_ninjutsu_rulings_too(run_cli_on_pool) -> None:
    card = "Yuriko, the Tiger's Shadow"
    result = run_cli_on_pool("can-activate", card, "--zone", "command", *COMBAT, "--json")
    verdict = json.loads(result.stdout)
    own = [r for r in verdict["rulings"] if not r["general"]]
    assert own and all(r["about"] == card for r in own)
    assert any(r["general"] for r in verdict["rulings"])
    assert {'mtgkb rulings "commander ninjutsu"', "mtgkb rulings ninjutsu"} <= set(verdict["rulings_see"])
