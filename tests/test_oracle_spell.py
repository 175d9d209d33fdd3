"""The reader of a spell's targets (mtgkb.importers.oracle_spell): what an instant, a sorcery or an
Aura chooses as it is cast (601.2c, 303.4a), read through the phrase table; what it cannot read, or
chooses only on a condition, kept as unmodelled so that a verdict cannot tell."""

from __future__ import annotations

from mtgkb.importers.oracle_spell import read_spell_targets

INSTANT, SORCERY, AURA = ["Instant"], ["Sorcery"], ["Enchantment"]


def _texts(reading) -> list[str]:
    return [minted.text for minted in reading.numbered]


def test_a_plain_target_is_read() -> None:
    reading = read_spell_targets("Target creature gets +3/+3 until end of turn.", INSTANT, [], "Giant Growth")
    assert _texts(reading) == ["Target creature"] and not reading.unmodelled


def test_players_and_any_target_need_no_object() -> None:
    reading = read_spell_targets(
        "Lightning Bolt deals 3 damage to any target.", INSTANT, [], "Lightning Bolt"
    )
    assert reading is None or not (reading.numbered or reading.unmodelled)


def test_no_target_is_no_reading() -> None:
    assert read_spell_targets("Draw three cards.", SORCERY, [], "Divination") is None
    assert read_spell_targets("Target creature gets +1/+1.", ["Creature"], [], "Bear") is None


def test_an_aura_targets_what_it_enchants() -> None:
    text = "Enchant creature\nEnchanted creature can't attack."
    reading = read_spell_targets(text, AURA, ["Aura"], "Pacifism")
    assert _texts(reading) == ["target creature"]


def test_a_mode_without_a_target_frees_the_spell_of_the_others() -> None:
    text = "Choose one —\n• Cathartic Pyre deals 3 damage to target creature.\n• Draw a card."
    reading = read_spell_targets(text, INSTANT, [], "Cathartic Pyre")
    assert reading is None or not (reading.numbered or reading.unmodelled)


def test_modes_that_all_target_are_not_read() -> None:
    text = "Choose one —\n• Destroy target artifact.\n• Destroy target enchantment."
    reading = read_spell_targets(text, INSTANT, [], "Disenchant-ish")
    assert reading.unmodelled == ("• Destroy target artifact.", "• Destroy target enchantment.")


def test_a_target_on_a_condition_is_not_read() -> None:
    text = "Draw a card. If this spell was kicked, it deals 3 damage to target creature."
    reading = read_spell_targets(text, SORCERY, [], "Kicky")
    assert reading.unmodelled and not reading.numbered


def test_a_target_named_again_is_not_another_target() -> None:
    text = (
        "Light deals X damage to any target. It deals X plus 1 damage instead if that target is a creature."
    )
    reading = read_spell_targets(text, SORCERY, [], "Light")
    assert reading is None or not (reading.numbered or reading.unmodelled)


def test_a_quoted_ability_is_not_the_spells_target() -> None:
    text = 'Target creature gains "{T}: This creature deals 1 damage to target player."'
    reading = read_spell_targets(text, INSTANT, [], "Grant")
    assert _texts(reading) == ["Target creature"] and not reading.unmodelled


def test_one_or_two_targets_need_one() -> None:
    text = "Put a +1/+1 counter on each of one or two target creatures you control."
    reading = read_spell_targets(text, INSTANT, [], "Charge")
    assert [m.value for m in reading.numbered] == ["1"]


def test_a_qualifier_after_the_noun_is_not_dropped() -> None:
    reading = read_spell_targets("Destroy target creature with flying.", INSTANT, [], "Plummet")
    assert reading.unmodelled and not reading.numbered


def test_a_spell_or_a_permanent_is_not_read_as_a_spell() -> None:
    reading = read_spell_targets("Change the text of target spell or permanent.", INSTANT, [], "Alter")
    assert reading.unmodelled and not reading.numbered
