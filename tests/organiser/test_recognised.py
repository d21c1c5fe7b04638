"""A returning person typed otherwise (issue 48.2): the import's answer and the players' form name
each player recognised as a known person ("Lucja Wojcik → Łucja Wójcik, UTW Kraków, 1 earlier
tournament"), and the players' page gives the person's spelling in one tap, audited, once."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from organiser import selectors, services
from tests.support.people import LINE, known_people
from tournament.models import AuditEntry, Player
from tournament.refusals import Refused

pytestmark = pytest.mark.django_db


def upload(text):
    return {"file": SimpleUploadedFile("lista.csv", f"imię i nazwisko;organizacja\n{text}".encode())}


def test_the_imports_answer_names_each_recognised_player(organiser_client):
    known_people()
    response = organiser_client.post(
        "/staff/test/players/import/",
        upload("Lucja Wojcik;UTW Kraków\nAnna Nowak;UTW Kraków\nJan Lis;Klub Seniora\n"),
        follow=True,
    )
    text = response.content.decode()
    assert "3 players imported." in text
    assert (
        f"Recognised as people known from earlier tournaments: Anna Nowak, UTW Kraków, 1 earlier tournament; {LINE}."
        in text
    )
    assert "Jan Lis," not in text  # a new person: nothing to recognise
    lucja = Player.objects.get(tournament__slug="test", surname="Wojcik")
    assert f'action="/staff/test/players/{lucja.pk}/spelling/"' in text  # offered in one tap
    assert "Use “Łucja Wójcik”" in text
    assert text.count('class="recognised__item"') == 1  # Anna Nowak is spelled as before


def test_the_players_form_names_the_recognised_person(organiser_client):
    known_people()
    data = {"surname": "WOJCIK", "given_names": "lucja", "organisation": "UTW Kraków"}
    text = organiser_client.post("/staff/test/players/", data, follow=True).content.decode()
    assert (
        "Recognised as a person known from earlier tournaments: "
        "lucja WOJCIK → Łucja Wójcik, UTW Kraków, 1 earlier tournament." in text
    )


def test_one_tap_gives_the_persons_spelling_audited_and_a_second_tap_changes_nothing(organiser_client, organiser):
    tournament = known_people()
    organiser_client.post("/staff/test/players/import/", upload("Lucja Wojcik;UTW Kraków\n"))
    lucja = Player.objects.get(tournament=tournament)
    response = organiser_client.post(f"/staff/test/players/{lucja.pk}/spelling/", follow=True)
    assert "Lucja Wojcik is now spelled Łucja Wójcik." in response.content.decode()
    lucja.refresh_from_db()
    assert (lucja.name, lucja.surname, lucja.given_names) == ("Łucja Wójcik", "Wójcik", "Łucja")
    entry = AuditEntry.objects.get(action="player_spelling")
    assert (entry.tournament_id, entry.user_id) == (tournament.pk, organiser.pk)
    assert entry.before == {"player": lucja.ext_id, "name": "Lucja Wojcik"}
    assert entry.after == {"player": lucja.ext_id, "name": "Łucja Wójcik"}
    # a double tap: the name is the person's already, nothing more is written
    organiser_client.post(f"/staff/test/players/{lucja.pk}/spelling/")
    assert AuditEntry.objects.filter(action="player_spelling").count() == 1
    assert selectors.recognised_players(tournament)[0].differs is False
    assert "recognised__item" not in organiser_client.get("/staff/test/players/").content.decode()


def test_a_player_without_a_person_has_no_spelling_to_take():
    tournament = known_people()
    lucja = services.add_player(tournament, name="Lucja Wojcik", organisation="UTW Kraków", user=None)
    Player.objects.filter(pk=lucja.pk).update(person=None)
    with pytest.raises(Refused) as refused:
        services.use_person_spelling(lucja, user=None)
    assert refused.value.code == "person_not_offered"
    lucja.refresh_from_db()
    assert lucja.name == "Lucja Wojcik"
    assert not AuditEntry.objects.filter(action="player_spelling").exists()


def test_the_recognised_players_read_one_query(django_assert_num_queries):
    tournament = known_people()
    services.add_player(tournament, name="Lucja Wojcik", organisation="UTW Kraków", user=None)
    with django_assert_num_queries(1):
        found = selectors.recognised_players(tournament)
    assert [(one.player.name, one.person_name, one.club, one.earlier, one.differs) for one in found] == [
        ("Lucja Wojcik", "Łucja Wójcik", "UTW Kraków", 1, True)
    ]
