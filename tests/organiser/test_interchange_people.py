"""`players[].person` in the JSON interchange: the export writes the person's stable id; the import
joins the importing organisation's people by it, creates an unknown one with that id, never links
another organisation's, and reads files without it as before."""

import json
import uuid

import pytest

from organiser.interchange import InterchangeError, dumps, export_tournament, import_tournament
from tests.factories import tournament_data
from tournament.models import HostOrganisation, Person, Player

pytestmark = pytest.mark.django_db

U1, U2, U3 = (uuid.UUID(int=n) for n in (1, 2, 3))


def laptop_file(slug, *people):
    """A laptop's file: (name, organisation, person id or None) players."""
    data = tournament_data(0, settings={"players_per_organisation": 4})
    data["tournament"].update(slug=slug, name=slug)
    data["players"] = [
        {"id": f"p{i}", "name": name, "organisation": org, **({"person": str(uid)} if uid else {})}
        for i, (name, org, uid) in enumerate(people, 1)
    ]
    return data


@pytest.fixture
def service():
    return HostOrganisation.objects.create(name="Serwis", slug="serwis")


def test_the_export_writes_the_persons_id():
    tournament = import_tournament(laptop_file("a", ("Anna Nowak", "UTW", U1), ("Jan Lis", "UTW", None)))
    players = export_tournament(tournament)["players"]
    jan = Player.objects.get(name="Jan Lis").person
    assert [p["person"] for p in players] == [str(U1), str(jan.uid)]


def test_a_laptops_people_join_the_service_and_a_second_import_adds_no_one(service):
    HostOrganisation.objects.create(name="Inni", slug="inni")  # the service has several organisations
    first = import_tournament(laptop_file("a", ("Anna Nowak", "UTW", U1), ("Jan Lis", "UTW", U2)), host=service)
    assert set(Person.objects.filter(host=service).values_list("uid", flat=True)) == {U1, U2}
    second = import_tournament(laptop_file("b", ("Anna Nowak", "UTW", U1), ("Ewa Żak", "UTW", U3)), host=service)
    assert Person.objects.count() == 3
    anna = Person.objects.get(uid=U1)
    assert {p.tournament for p in anna.players.all()} == {first, second}
    # the service's export of the first, imported again at another address: the same people
    data = json.loads(dumps(export_tournament(first)))
    import_tournament(data, host=service, slug="a-bis")
    assert Person.objects.count() == 3
    assert anna.players.count() == 3


def test_another_organisations_id_never_links(service):
    theirs = HostOrganisation.objects.create(name="Inni", slug="inni")
    import_tournament(laptop_file("a", ("Anna Nowak", "UTW", U1)), host=theirs)
    tournament = import_tournament(laptop_file("b", ("Anna Nowak", "UTW", U1)), host=service)
    ours = Player.objects.get(tournament=tournament).person
    assert ours.host == service and ours.uid != U1
    assert Person.objects.get(uid=U1).host == theirs


def test_a_merged_id_joins_the_survivor(service):
    import_tournament(laptop_file("a", ("Anna Nowak", "UTW", U1)), host=service)
    import_tournament(laptop_file("b", ("Ania Nowak", "UTW", U2)), host=service)
    from organiser.services import merge_people

    merge_people(Person.objects.get(uid=U2), Person.objects.get(uid=U1), reason="ta sama", user=None)
    tournament = import_tournament(laptop_file("c", ("Ania Nowak", "UTW", U2)), host=service)
    assert Player.objects.get(tournament=tournament).person.uid == U1


def test_an_old_file_without_person_imports_and_matches_by_name(service):
    import_tournament(laptop_file("a", ("Łukasz Wójcik", "UTW", U1)), host=service)
    tournament = import_tournament(laptop_file("b", ("LUKASZ WOJCIK", "UTW", None)), host=service)
    assert Player.objects.get(tournament=tournament).person.uid == U1


@pytest.mark.parametrize(
    "value, message",
    [
        ("not-a-uuid", "players[1].person: not a valid id"),
        (7, "players[1].person: not a valid id"),
        (str(U1), f"players[1].person: person {U1} appears twice"),
    ],
)
def test_a_bad_person_id_is_named_by_its_path(value, message):
    data = laptop_file("a", ("Anna Nowak", "UTW", U1), ("Jan Lis", "UTW", None))
    data["players"][1]["person"] = value
    with pytest.raises(InterchangeError) as error:
        import_tournament(data)
    assert str(error.value) == message
    assert not Person.objects.exists()
