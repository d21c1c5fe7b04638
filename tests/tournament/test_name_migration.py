"""The migration that splits each player's one `name` into given names and a surname, run on
players saved before it."""

import pytest

from tests.support.migrations import latest, migrate

BEFORE = [("tournament", "0001_initial")]
AFTER = [("tournament", "0003_player_surname_not_empty")]

NAMES = {
    "Anna Nowak": ("Anna", "Nowak"),
    "Anna Maria Nowak-Kowalska": ("Anna Maria", "Nowak-Kowalska"),
    "Jan van der Berg": ("Jan", "van der Berg"),
    "Kowalski": ("", "Kowalski"),
    "Łucja Żak 0": ("Łucja Żak", "0"),
    "Nowak, Anna": ("Nowak,", "Anna"),  # the name is kept as it was: no comma rule here
}


@pytest.mark.django_db(transaction=True)
def test_existing_names_are_split_with_the_last_word_as_the_surname():
    old = migrate(BEFORE)
    Tournament, Organisation, Player = (
        old.get_model("tournament", name) for name in ("Tournament", "Organisation", "Player")
    )
    tournament = Tournament.objects.create(name="Stary", slug="stary", date="2026-02-10")
    for number, name in enumerate(NAMES, start=1):
        organisation = Organisation.objects.create(tournament=tournament, name=f"Klub {number}")
        Player.objects.create(
            tournament=tournament, organisation=organisation, name=name, start_number=number, ext_id=f"p{number}"
        )
    try:
        new = migrate(AFTER)
        rows = new.get_model("tournament", "Player").objects.values_list("name", "given_names", "surname")
        assert {name: (given_names, surname) for name, given_names, surname in rows} == NAMES
    finally:
        migrate(latest())
