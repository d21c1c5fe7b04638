"""People: the matching key, and the players of earlier releases made into people."""

import datetime

import pytest

from tournament.models import HostOrganisation, Organisation, Person, Player, Tournament
from tournament.text import match_key


@pytest.mark.parametrize(
    "a, b", [("Łukasz  Wójcik", "lukasz wojcik"), ("ANNA NOWAK", "Anna Nowak"), ("Zofia Żółć", "zofia zolc")]
)
def test_match_key_ignores_case_spacing_and_polish_diacritics(a, b):
    assert match_key(a) == match_key(b)


def test_match_key_tells_different_names_apart():
    assert match_key("Anna Nowak") != match_key("Anna Nowacka")


@pytest.mark.django_db
def test_a_person_keeps_the_key_of_its_name():
    host = HostOrganisation.objects.create(name="Klub", slug="klub")
    person = Person.objects.create(host=host, surname="Wójcik", given_names="Łucja")
    assert person.name_key == "lucja wojcik"
    person.surname = "Kowalska"
    person.save(update_fields=["surname"])
    person.refresh_from_db()
    assert person.name_key == "lucja kowalska"


@pytest.mark.django_db
def test_a_player_may_be_a_person():
    tournament = Tournament.objects.create(name="T", slug="t", date=datetime.date(2026, 1, 10))
    organisation = Organisation.objects.create(tournament=tournament, name="UTW")
    person = Person.objects.create(host=tournament.host, surname="Nowak", given_names="Anna", club="UTW")
    player = Player.objects.create(
        tournament=tournament, organisation=organisation, name="Anna Nowak", start_number=1, ext_id="p1", person=person
    )
    assert list(person.players.all()) == [player]
