"""A name's two parts and the surname order, worked by hand."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.factories import build
from tournament.models import Player
from tournament.names import NameParts, full_name, sorted_by_surname, split_name, surname_first

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "text, parts",
    [
        ("Anna Nowak", ("Anna", "Nowak")),
        ("  Anna   Maria  Nowak ", ("Anna Maria", "Nowak")),
        ("Krystyna Wiśniewska-Szczepańska", ("Krystyna", "Wiśniewska-Szczepańska")),
        ("Jan van Dijk", ("Jan", "van Dijk")),
        ("Maria de la Cruz", ("Maria", "de la Cruz")),
        ("van Dijk", ("van", "Dijk")),  # at least one given name stays in front
        ("Nowak", ("", "Nowak")),
        ("", ("", "")),
        ("Nowak, Anna", ("Anna", "Nowak")),
        ("Nowak-Kowalska ,  Anna Maria", ("Anna Maria", "Nowak-Kowalska")),
        ("Nowak,", ("", "Nowak")),
    ],
)
def test_a_whole_name_is_split_with_the_surname_last(text, parts):
    assert split_name(text) == parts


def test_a_surname_first_column_and_a_comma_that_is_kept():
    assert split_name("Nowak Anna Maria", surname_first=True) == ("Anna Maria", "Nowak")
    assert split_name("Nowak, Anna", surname_first=True) == ("Anna", "Nowak")
    assert split_name("Nowak, Anna", comma=False) == ("Nowak,", "Anna")


@given(st.text(alphabet="abcĆŁżź ,-", max_size=30))
def test_the_parts_give_the_name_back(text):
    given_names, surname = split_name(text, comma=False)
    assert full_name(given_names, surname) == " ".join(text.split())
    assert surname or not text.split()


def test_how_a_name_is_written():
    assert full_name("Anna Maria", "Nowak") == "Anna Maria Nowak"
    assert surname_first("Anna Maria", "Nowak") == "Nowak Anna Maria"
    assert full_name("", "Nowak") == surname_first("", "Nowak") == "Nowak"


def test_surname_order_is_polish_alphabetical_then_given_names():
    people = [
        NameParts(*reversed(name.split(" ", 1)))
        for name in [
            "Żak Barbara",
            "Lis Łukasz",
            "Ćwik Jan",
            "Łukasz Adam",
            "Cebula Anna",
            "Lis Ewa",
            "Nowak Andrzej",
            "Czech Zofia",
            "Zając Zenon",
            "Źrebiec Irena",
            "Nowakowska Alicja",
            "Nowak Żaneta",
        ]
    ]
    assert [surname_first(p.given_names, p.surname) for p in sorted_by_surname(people)] == [
        "Cebula Anna",
        "Czech Zofia",
        "Ćwik Jan",  # ć after every c
        "Lis Ewa",
        "Lis Łukasz",
        "Łukasz Adam",  # ł after l, in the surname and in the given names
        "Nowak Andrzej",
        "Nowak Żaneta",
        "Nowakowska Alicja",  # the whole surname first, then the given names
        "Zając Zenon",
        "Źrebiec Irena",
        "Żak Barbara",  # ż last
    ]


def test_a_player_keeps_the_name_and_its_parts_together():
    tournament = build(1)
    organisation = tournament.organisations.get()
    player = Player.objects.create(
        tournament=tournament,
        organisation=organisation,
        name="Anna  Maria Nowak",
        start_number=2,
        ext_id="x",
        org_slot=2,
    )
    assert (player.given_names, player.surname, player.name, player.surname_first) == (
        "Anna Maria",
        "Nowak",
        "Anna Maria Nowak",
        "Nowak Anna Maria",
    )
    player.surname, player.given_names = "Nowak-Lis", "Anna"
    player.save()
    player.refresh_from_db()
    assert (player.name, player.surname_first) == ("Anna Nowak-Lis", "Nowak-Lis Anna")
    player.name = "Ewa  van Dijk"  # a whole name set alone is split again
    player.save(update_fields=["name"])
    player = Player.objects.get(pk=player.pk)
    assert (player.given_names, player.surname, player.name) == ("Ewa", "van Dijk", "Ewa van Dijk")
