"""The card IRI scheme: one node per Oracle id, the slug of the name, a suffix only on a clash, and
nodes that other sources already hold reused."""

from __future__ import annotations

from mtgkb.importers.card_iris import KnownCards, assign_card_iris
from mtgkb.importers.card_model import CardRecord
from mtgkb.kb.iris import mint


def test_records_sharing_an_oracle_id_are_one_node_named_by_the_ordinary_record() -> None:
    records = [
        CardRecord("Sol Ring // Sol Ring", oracle_id="o1", layout="reversible_card"),
        CardRecord("Sol Ring", oracle_id="o1", layout="normal"),
    ]
    nodes = assign_card_iris(records)
    assert [record.layout for record in nodes.kept] == ["normal"]
    assert nodes.iris == {
        "Sol Ring": mint("card", "Sol Ring"),
        "Sol Ring // Sol Ring": mint("card", "Sol Ring"),
    }
    assert nodes.also_named == {}
    assert set(nodes.merged) == {"Sol Ring // Sol Ring"}


def test_a_second_name_of_one_card_is_kept_as_another_name() -> None:
    nodes = assign_card_iris(
        [CardRecord("Rick, Steadfast Leader", oracle_id="o2"), CardRecord("Greymond", oracle_id="o2")]
    )
    iri = mint("card", "Greymond")
    assert nodes.names == {iri: "Greymond"} and nodes.also_named == {iri: ["Rick, Steadfast Leader"]}


def test_a_meld_card_goes_by_its_front_face() -> None:
    nodes = assign_card_iris(
        [CardRecord("Mishra, Claimed by Gix // Mishra, Lost to Phyrexia", layout="meld")]
    )
    assert list(nodes.names.values()) == ["Mishra, Claimed by Gix"]


def test_only_the_card_with_the_more_punctuated_name_gets_a_suffix_whatever_the_order() -> None:
    for records in (
        [CardRecord("Lava, Axe"), CardRecord("Lava Axe")],
        [CardRecord("Lava Axe"), CardRecord("Lava, Axe")],
    ):
        nodes = assign_card_iris(records)
        assert nodes.iris["Lava Axe"] == mint("card", "lava-axe")
        assert nodes.iris["Lava, Axe"].startswith(mint("card", "lava-axe") + "-")
        assert len(nodes.kept) == 2 and nodes.merged == {}


def test_a_name_without_letters_still_gets_a_node() -> None:
    nodes = assign_card_iris([CardRecord("_____")])
    assert nodes.iris["_____"].startswith(mint("card", "card") + "-")


def test_a_node_another_source_holds_is_reused_by_oracle_id_then_by_name() -> None:
    known = KnownCards()
    known.add(mint("card", "Old Name"), "Old Name", "o3")
    known.add(mint("card", "Lava, Axe"), "Lava, Axe", None)
    nodes = assign_card_iris(
        [CardRecord("New Name", oracle_id="o3"), CardRecord("Lava Axe"), CardRecord("Lava, Axe")], known
    )
    assert nodes.iris["New Name"] == mint("card", "Old Name")
    assert nodes.names[mint("card", "Old Name")] == "Old Name"
    assert nodes.also_named[mint("card", "Old Name")] == ["New Name"]
    # The known card keeps its IRI: the newcomer with the plainer name is the one suffixed.
    assert nodes.iris["Lava, Axe"] == mint("card", "lava-axe")
    assert nodes.iris["Lava Axe"].startswith(mint("card", "lava-axe") + "-")


def test_a_merged_name_s_own_iri_points_to_the_node_it_joined() -> None:
    from mtgkb.importers.card_iris import replaced_iris

    nodes = assign_card_iris(
        [
            CardRecord("Sol Ring // Sol Ring", oracle_id="o1", layout="reversible_card"),
            CardRecord("Sol Ring", oracle_id="o1"),
            CardRecord("Lava Axe"),
            CardRecord("Lava, Axe"),
        ]
    )
    assert replaced_iris(nodes) == {mint("card", "Sol Ring // Sol Ring"): mint("card", "Sol Ring")}
