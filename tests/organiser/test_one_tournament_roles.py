"""What an organiser of one tournament (a role for that tournament alone) may do with people
(SPEC §10): correct its own players' names as this tournament prints them, on the player's page.
The organisation's people list, a person's page (their other tournaments), merges, "add from
earlier tournaments" and the organisation's server errors belong to the organisation's organisers.
Each door is tried both ways."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import Role, TournamentRole
from organiser import services
from organiser.interchange import import_tournament
from tests.factories import build, tournament_data
from tournament.models import Person, Player, ServerError

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(organiser):
    """Earlier tournaments with Anna Nowak and Ania Nowak (one person recorded twice), the
    tournament `test` where Anna plays, and a one-tournament organiser of `test`."""
    data = tournament_data(0, settings={"players_per_organisation": 4})
    data["tournament"].update(slug="styczen", name="Turniej styczeń", date="2026-01-10")
    data["players"] = [{"id": "p1", "name": "Anna Nowak", "organisation": "UTW"}]
    import_tournament(data)
    data["tournament"].update(slug="luty", name="Turniej luty", date="2026-02-10")
    data["players"] = [{"id": "p1", "name": "Ania Nowak", "organisation": "UTW"}]
    import_tournament(data)
    tournament = build(0, settings={"players_per_organisation": 4})
    anna = Person.objects.get(players__name="Anna Nowak")
    player = services.add_player(
        tournament, surname="Nowak", given_names="Anna", organisation="UTW", person=str(anna.pk), user=None
    )
    one = User.objects.create_user("one-tournament", password="secret-pass-123")
    TournamentRole.objects.create(user=one, tournament=tournament, role=Role.ORGANISER)
    member, only_one = Client(), Client()
    member.force_login(organiser)
    only_one.force_login(one)
    return {
        "tournament": tournament,
        "anna": anna,
        "ania": Person.objects.get(players__name="Ania Nowak"),
        "player": player,
        "member": member,
        "one": only_one,
    }


@pytest.mark.parametrize("path", ["/staff/test/people/", "/staff/test/people/?q=nowak", "/staff/test/players/earlier/"])
def test_the_organisations_people_lists_are_its_organisers_only(world, path):
    assert world["member"].get(path).status_code == 200
    assert world["one"].get(path).status_code == 403


def test_a_persons_page_with_their_other_tournaments_is_the_organisations_organisers_only(world):
    path = f"/staff/test/people/{world['anna'].pk}/"
    shown = world["member"].get(path)
    assert shown.status_code == 200 and "Turniej styczeń" in shown.content.decode()
    refused = world["one"].get(path)
    assert refused.status_code == 403
    assert "Turniej styczeń" not in refused.content.decode()


def test_a_one_tournament_organiser_cannot_rename_the_organisations_person(world):
    before = Person.objects.get(pk=world["anna"].pk)
    data = {"surname": "Kowalska", "given_names": "Anna", "club": "UTW", "birth_year": ""}
    assert world["one"].post(f"/staff/test/people/{world['anna'].pk}/", data).status_code == 403
    assert Person.objects.get(pk=world["anna"].pk).name == before.name
    assert Player.objects.get(tournament__slug="styczen", person=world["anna"]).name == "Anna Nowak"


def test_merging_and_its_undo_are_the_organisations_organisers_only(world):
    ania, anna = world["ania"], world["anna"]
    merge = f"/staff/test/people/{ania.pk}/merge/"
    undo = f"/staff/test/people/{ania.pk}/undo/"
    assert world["one"].post(merge, {"survivor": anna.pk, "reason": "to ona"}).status_code == 403
    assert Person.objects.get(pk=ania.pk).merged_into_id is None
    assert world["member"].post(merge, {"survivor": anna.pk, "reason": "to ona"}).status_code == 302
    assert Person.objects.get(pk=ania.pk).merged_into_id == anna.pk
    assert world["one"].post(undo, {"reason": "pomyłka"}).status_code == 403
    assert Person.objects.get(pk=ania.pk).merged_into_id == anna.pk
    assert world["member"].post(undo, {"reason": "pomyłka"}).status_code == 302
    assert Person.objects.get(pk=ania.pk).merged_into_id is None


def test_a_one_tournament_organiser_corrects_its_own_players_name_for_this_tournament(world):
    player = world["player"]
    data = {"surname": "Nowakowa", "given_names": "Anna", "organisation": "UTW", "person": str(world["anna"].pk)}
    assert world["one"].post(f"/staff/test/players/{player.pk}/", data).status_code == 302
    assert Player.objects.get(pk=player.pk).name == "Anna Nowakowa"
    # The other tournament prints the name it printed; the person is the organisation's.
    assert Player.objects.get(tournament__slug="styczen", person=world["anna"]).name == "Anna Nowak"


def test_the_pages_link_to_the_people_pages_for_the_organisations_organisers_only(world):
    player = world["player"]
    for path in ("/staff/test/players/", f"/staff/test/players/{player.pk}/", "/staff/test/"):
        assert "/staff/test/people/" in world["member"].get(path).content.decode(), path
        html = world["one"].get(path).content.decode()
        assert "/staff/test/people/" not in html and "/players/earlier/" not in html, path


def test_the_organisations_server_errors_are_shown_to_its_organisers_only(world):
    ServerError.objects.create(
        host_id=world["tournament"].host_id, method="GET", path="/staff/other/secret-path/", exception="x.Error"
    )
    assert "secret-path" in world["member"].get("/staff/test/").content.decode()
    one = world["one"].get("/staff/test/")
    assert one.status_code == 200
    assert "secret-path" not in one.content.decode()


def test_who_is_it_shows_years_of_birth_and_tournaments_to_the_organisations_organisers_only(world):
    """Two known Ewa Lis: the players' form asks who it is; a one-tournament organiser is offered
    their names and clubs, without the organisation's record (year of birth, tournaments)."""
    data = tournament_data(0, settings={"players_per_organisation": 4})
    data["tournament"].update(slug="marzec", name="Turniej marzec", date="2026-03-10")
    data["players"] = [
        {"id": "p1", "name": "Ewa Lis", "organisation": "UTW Kraków"},
        {"id": "p2", "name": "Ewa Lis", "organisation": "Klub Łódź"},
    ]
    import_tournament(data)
    Person.objects.filter(players__name="Ewa Lis", club="UTW Kraków").update(birth_year=1948)
    Person.objects.filter(players__name="Ewa Lis", club="Klub Łódź").update(birth_year=1951)
    asked = {"surname": "Lis", "given_names": "Ewa", "organisation": "Klub Gdańsk"}
    member = world["member"].post("/staff/test/players/", asked).content.decode()
    assert "Lis Ewa · Klub Łódź · 1951 · 1 tournament" in member
    one = world["one"].post("/staff/test/players/", asked).content.decode()
    assert "Lis Ewa · Klub Łódź" in one and "Lis Ewa · UTW Kraków" in one
    assert "1948" not in one and "1951" not in one and "1 tournament" not in one
