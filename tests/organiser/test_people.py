"""People who come back: registering finds the organisation's person (case and Polish diacritics
ignored), the form asks when two could match, a merge and its undo, a name corrected for later
tournaments, "add from earlier tournaments", the people pages."""

import pytest
from django.test import Client

from organiser import selectors, services
from organiser.importers import PlayerRow
from tests.factories import build, table
from tests.support.people import earlier
from tournament.models import AuditEntry, HostOrganisation, Person, Player
from tournament.refusals import Refused

pytestmark = pytest.mark.django_db


def person(name, club):
    return Person.objects.filter(players__name=name, club=club, merged_into__isnull=True).distinct().get()


def test_a_registration_finds_the_person_ignoring_case_and_polish_letters():
    earlier("styczen", ("Łukasz Wójcik", "KS Senior"))
    known = Person.objects.get()
    tournament = build(0)
    player = services.add_player(tournament, surname="WÓJCIK", given_names="ŁUKASZ", organisation="UTW", user=None)
    assert player.person == known
    assert player.name == "ŁUKASZ WÓJCIK"  # the tournament prints the name as typed
    assert Person.objects.count() == 1


def test_a_new_name_is_a_new_person_of_the_tournaments_organisation():
    earlier("styczen", ("Anna Nowak", "UTW"))
    tournament = build(0)
    player = services.add_player(tournament, name="Anna Nowacka", organisation="UTW", user=None)
    assert player.person.name == "Anna Nowacka"
    assert player.person.club == "UTW"
    assert player.person.host_id == tournament.host_id
    assert Person.objects.count() == 2


def test_of_two_namesakes_the_one_from_the_same_club_is_taken(organiser_client):
    earlier("styczen", ("Anna Nowak", "UTW Kraków"), ("Anna Nowak", "Klub Łódź"))
    assert Person.objects.count() == 2
    tournament = build(0)
    player = services.add_player(tournament, name="Anna Nowak", organisation="utw krakow", user=None)
    assert player.person == person("Anna Nowak", "UTW Kraków")


def test_the_form_asks_when_two_people_could_match_and_links_the_chosen(organiser_client):
    earlier("styczen", ("Anna Nowak", "UTW Kraków"), ("Anna Nowak", "Klub Łódź"))
    lodz = person("Anna Nowak", "Klub Łódź")
    build(0)
    data = {"surname": "Nowak", "given_names": "Anna", "organisation": "Klub Gdańsk"}
    asked = organiser_client.post("/staff/test/players/", data)
    assert asked.status_code == 200
    assert not Player.objects.filter(tournament__slug="test").exists()
    html = asked.content.decode()
    assert f'value="{lodz.pk}"' in html and 'value="new"' in html
    assert "Nowak Anna · Klub Łódź" in html  # surname first, then the club
    chosen = organiser_client.post("/staff/test/players/", {**data, "person": str(lodz.pk)})
    assert chosen.status_code == 302
    assert Player.objects.get(tournament__slug="test").person == lodz
    assert Person.objects.count() == 2


def test_the_form_may_answer_a_new_person():
    earlier("styczen", ("Anna Nowak", "UTW Kraków"), ("Anna Nowak", "Klub Łódź"))
    tournament = build(0)
    with pytest.raises(Refused) as refusal:
        services.add_player(tournament, name="Anna Nowak", organisation="Klub Gdańsk", user=None)
    assert refusal.value.code == "person_unsure"
    assert len(refusal.value.params["candidates"]) == 2
    player = services.add_player(tournament, name="Anna Nowak", organisation="Klub Gdańsk", person="new", user=None)
    assert Person.objects.count() == 3
    assert player.person.club == "Klub Gdańsk"


def test_a_person_of_another_organisation_is_never_found():
    tournament = build(0)
    other = HostOrganisation.objects.create(name="Inni", slug="inni")
    earlier("obcy", ("Anna Nowak", "UTW"), host=other)
    player = services.add_player(tournament, name="Anna Nowak", organisation="UTW", user=None)
    assert player.person.host_id == tournament.host_id != other.pk
    assert Person.objects.count() == 2


def test_a_merged_record_is_never_offered():
    earlier("styczen", ("Anna Nowak", "UTW"))
    luty = earlier("luty", ("Jan Lis", "UTW"), date="2026-02-01")
    services.add_player(luty, name="Anna Nowak", organisation="Klub", person="new", user=None)
    utw, klub = person("Anna Nowak", "UTW"), person("Anna Nowak", "Klub")
    services.merge_people(klub, utw, reason="ta sama osoba", user=None)
    tournament = build(0)
    player = services.add_player(tournament, name="Anna Nowak", organisation="Klub", user=None)
    assert player.person == utw  # one candidate left: no question


def test_an_import_links_certain_matches_and_makes_new_people_of_unsure_lines(organiser_client):
    earlier("styczen", ("Anna Nowak", "UTW Kraków"), ("Anna Nowak", "Klub Łódź"), ("Jan Lis", "UTW Kraków"))
    jan = person("Jan Lis", "UTW Kraków")
    tournament = build(0)
    rows = [PlayerRow("JAN", "LIS", "Inny Klub", line=2), PlayerRow("Anna", "Nowak", "Klub Gdańsk", line=3)]
    created = services.import_players(tournament, rows=rows, user=None)
    assert created[0].person == jan
    assert created[1].person.club == "Klub Gdańsk"  # unsure: a new person
    assert Person.objects.count() == 4
    assert selectors.namesakes(created) == {created[1].pk}


def test_the_import_page_names_the_unsure_lines(organiser_client):
    earlier("styczen", ("Anna Nowak", "UTW Kraków"), ("Anna Nowak", "Klub Łódź"))
    build(0)
    upload = ("lista.csv", "imię i nazwisko;organizacja\nJan Lis;UTW\nAnna Nowak;Klub Gdańsk\n".encode())
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = organiser_client.post("/staff/test/players/import/", {"file": SimpleUploadedFile(*upload)}, follow=True)
    text = response.content.decode()
    assert "Wiersz 3" in text or "Line 3" in text
    players = organiser_client.get("/staff/test/players/").content.decode()
    assert f"/staff/test/people/{Player.objects.get(name='Anna Nowak', tournament__slug='test').person_id}/" in players


def test_a_merge_moves_the_players_and_its_undo_puts_them_back_exactly(organiser):
    earlier("styczen", ("Anna Nowak", "UTW"))
    earlier("luty", ("Ania Nowak", "UTW"), date="2026-02-01")
    earlier("marzec", ("Ania Nowak", "UTW"), date="2026-03-01")
    anna, ania = person("Anna Nowak", "UTW"), Person.objects.get(given_names="Ania")
    ania_players = sorted(ania.players.values_list("pk", flat=True))
    assert len(ania_players) == 2  # luty and marzec: one person by name
    moved = services.merge_people(ania, anna, reason="Ania to Anna", user=organiser)
    assert sorted(p.pk for p in moved) == ania_players
    assert anna.players.count() == 3 and ania.players.count() == 0
    ania.refresh_from_db()
    assert ania.merged_into == anna
    entry = AuditEntry.objects.get(action="person_merge")
    assert (entry.user, entry.reason, entry.before["players"]) == (organiser, "Ania to Anna", ania_players)
    assert entry.after["merged_into"]["uid"] == str(anna.uid)
    # A player registered for Anna after the merge stays hers on the undo.
    later = services.add_player(build(0), name="Anna Nowak", organisation="UTW", user=None)
    with pytest.raises(Refused) as refusal:
        services.undo_merge(ania, reason=" ", user=organiser)
    assert refusal.value.code == "reason_required"
    back = services.undo_merge(ania, reason="to jednak dwie osoby", user=organiser)
    assert sorted(p.pk for p in back) == ania_players
    assert sorted(ania.players.values_list("pk", flat=True)) == ania_players
    assert sorted(anna.players.values_list("pk", flat=True)) == sorted(
        [Player.objects.get(tournament__slug="styczen").pk, later.pk]
    )
    ania.refresh_from_db()
    assert ania.merged_into is None
    assert AuditEntry.objects.get(action="person_merge_undo").reason == "to jednak dwie osoby"


def test_a_merge_is_refused_when_both_played_in_one_tournament():
    earlier("styczen", ("Anna Nowak", "UTW"), ("Anna Nowak", "Klub"))
    utw, klub = person("Anna Nowak", "UTW"), person("Anna Nowak", "Klub")
    with pytest.raises(Refused) as refusal:
        services.merge_people(klub, utw, reason="pomyłka", user=None)
    assert refusal.value.code == "person_merge_same_tournament"
    assert "Turniej styczen" in refusal.value.message
    assert klub.players.count() == 1 and Person.objects.get(pk=klub.pk).merged_into is None


def test_the_database_holds_a_person_once_per_tournament():
    from django.db import IntegrityError, transaction

    earlier("styczen", ("Anna Nowak", "UTW"), ("Jan Lis", "UTW"))
    anna = person("Anna Nowak", "UTW")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.filter(name="Jan Lis").update(person=anna)


def test_a_corrected_name_leaves_a_started_tournaments_printed_name():
    started = earlier(
        "styczen",
        ("Lukasz Wojcik", "UTW"),
        ("Gracz 2", "K2"),
        ("Gracz 3", "K3"),
        rounds=[{"number": 1, "state": "started", "tables": [table(1, ["p1", "p2", "p3"])]}],
    )
    upcoming = earlier("luty", ("Lukasz Wojcik", "UTW"), date="2026-02-01")
    lukasz = person("Lukasz Wojcik", "UTW")
    assert lukasz.players.count() == 2
    renamed = services.correct_person(
        lukasz, surname="Wójcik", given_names="Łukasz", club="UTW", birth_year=1948, user=None
    )
    assert [p.tournament for p in renamed] == [upcoming]
    assert Player.objects.get(tournament=started, person=lukasz).name == "Lukasz Wojcik"
    assert Player.objects.get(tournament=upcoming, person=lukasz).name == "Łukasz Wójcik"
    lukasz.refresh_from_db()
    assert (lukasz.name, lukasz.birth_year) == ("Łukasz Wójcik", 1948)
    entry = AuditEntry.objects.get(action="person_edit")
    assert (entry.before["name"], entry.after["name"]) == ("Lukasz Wojcik", "Łukasz Wójcik")
    # and later registrations find the corrected person
    assert services.add_player(build(0), name="Łukasz Wójcik", organisation="UTW", user=None).person == lukasz


def test_add_from_earlier_registers_people_with_their_link_and_club(organiser_client):
    earlier("styczen", ("Anna Nowak", "UTW Kraków"), ("Jan Lis", "Klub Łódź"), ("Ewa Żak", "UTW Kraków"))
    tournament = build(0, settings={"players_per_organisation": 1})
    anna, jan, ewa = (Person.objects.get(surname=s) for s in ("Nowak", "Lis", "Żak"))
    found = organiser_client.get("/staff/test/players/earlier/", {"q": "zak"}, headers={"HX-Request": "true"})
    assert "Żak Ewa" in found.content.decode() and "Lis" not in found.content.decode()
    response = organiser_client.post("/staff/test/players/earlier/", {"people": [str(anna.pk), str(jan.pk)]})
    assert response.status_code == 302
    added = {p.person: p.organisation.name for p in Player.objects.filter(tournament=tournament)}
    assert added == {anna: "UTW Kraków", jan: "Klub Łódź"}
    # Ewa's club has its one player already: refused, nothing added, the reason shown
    refused = organiser_client.post("/staff/test/players/earlier/", {"people": [str(ewa.pk)]})
    assert refused.status_code == 200
    assert "UTW Kraków" in refused.content.decode()
    assert Player.objects.filter(tournament=tournament).count() == 2
    # people already registered are not offered again
    assert selectors.people_to_add(tournament) == [ewa]


def test_the_people_page_searches_ignoring_diacritics_and_hides_other_organisations(organiser_client):
    ours = build(0).host
    other = HostOrganisation.objects.create(name="Inni", slug="inni")
    earlier("obcy", ("Łucja Łącka", "UTW"), host=other)
    earlier("styczen", ("Łucja Łęcka", "UTW"), ("Jan Lis", "UTW"), host=ours)
    for search in ("LUCJA LECKA", "łęcka łucja"):  # in any order
        page = organiser_client.get("/staff/test/people/", {"q": search}).content.decode()
        assert "Łęcka Łucja" in page and "Łącka" not in page and "Lis Jan" not in page
    stranger = Person.objects.get(host=other)
    assert organiser_client.get(f"/staff/test/people/{stranger.pk}/").status_code == 404
    assert organiser_client.post(f"/staff/test/people/{stranger.pk}/merge/", {}).status_code == 404


def test_the_person_page_merges_and_undoes(organiser_client):
    earlier("styczen", ("Anna Nowak", "UTW"))
    earlier("luty", ("Ania Nowak", "UTW"), date="2026-02-01")
    build(0)
    anna, ania = Person.objects.get(given_names="Anna"), Person.objects.get(given_names="Ania")
    refused = organiser_client.post(f"/staff/test/people/{ania.pk}/merge/", {"survivor": anna.pk, "reason": ""})
    assert refused.status_code == 200 and ania.players.count() == 1
    merged = organiser_client.post(f"/staff/test/people/{ania.pk}/merge/", {"survivor": anna.pk, "reason": "to ona"})
    assert merged.status_code == 302
    assert anna.players.count() == 2
    page = organiser_client.get(f"/staff/test/people/{ania.pk}/").content.decode()
    assert "undo" in page
    undone = organiser_client.post(f"/staff/test/people/{ania.pk}/undo/", {"reason": "pomyłka"})
    assert undone.status_code == 302
    assert ania.players.count() == 1 and anna.players.count() == 1


def test_editing_a_players_name_links_them_anew_and_drops_an_unused_person():
    earlier("styczen", ("Anna Nowak", "UTW"))
    anna = Person.objects.get()
    tournament = build(0)
    player = services.add_player(tournament, name="Ana Nowak", organisation="UTW", user=None)
    typo = player.person
    services.edit_player(player, surname="Nowak", given_names="Anna", organisation="UTW", user=None)
    player.refresh_from_db()
    assert player.person == anna
    assert not Person.objects.filter(pk=typo.pk).exists()


def test_polish_plurals_of_tournaments_played():
    from django.utils import translation

    from organiser.person_forms import person_label

    someone = Person(surname="Wójcik", given_names="Łukasz", club="UTW", birth_year=1948)
    with translation.override("pl"):
        labels = []
        for count in (1, 3, 5, 22):
            someone.tournament_count = count
            labels.append(person_label(someone))
    assert labels == [
        "Wójcik Łukasz · UTW · 1948 · 1 turniej",
        "Wójcik Łukasz · UTW · 1948 · 3 turnieje",
        "Wójcik Łukasz · UTW · 1948 · 5 turniejów",
        "Wójcik Łukasz · UTW · 1948 · 22 turnieje",
    ]


def test_removing_a_mistaken_registration_keeps_the_people_of_earlier_tournaments():
    earlier("styczen", ("Anna Nowak", "UTW"))
    anna = Person.objects.get()
    tournament = build(0)
    services.remove_player(services.add_player(tournament, name="Anna Nowak", organisation="UTW", user=None), user=None)
    services.remove_player(services.add_player(tournament, name="Jan Lis", organisation="UTW", user=None), user=None)
    assert list(Person.objects.all()) == [anna]


def test_the_players_page_asks_too_when_a_name_is_corrected_to_a_namesakes(organiser_client):
    earlier("styczen", ("Anna Nowak", "UTW Kraków"), ("Anna Nowak", "Klub Łódź"))
    lodz = person("Anna Nowak", "Klub Łódź")
    player = services.add_player(build(0), name="Ana Nowak", organisation="Klub Gdańsk", user=None)
    url = f"/staff/test/players/{player.pk}/"
    data = {"surname": "Nowak", "given_names": "Anna", "organisation": "Klub Gdańsk"}
    asked = organiser_client.post(url, data)
    assert asked.status_code == 200 and f'value="{lodz.pk}"' in asked.content.decode()
    player.refresh_from_db()
    assert player.name == "Ana Nowak"
    assert organiser_client.post(url, {**data, "person": str(lodz.pk)}).status_code == 302
    player.refresh_from_db()
    assert (player.name, player.person) == ("Anna Nowak", lodz)
    assert Person.objects.count() == 2  # the typo's person is gone


def test_the_teams_latest_changes_name_a_merge_in_words(organiser_client, organiser):
    earlier("styczen", ("Anna Nowak", "UTW"))
    luty = earlier("luty", ("Jan Lis", "UTW"), date="2026-02-01")
    ania = services.add_player(luty, name="Ania Nowak", organisation="UTW", user=None).person
    services.merge_people(ania, Person.objects.get(given_names="Anna"), reason="ta sama", user=organiser)
    host = Person.objects.get(given_names="Anna").host
    page = organiser_client.get(f"/accounts/team/{host.slug}/").content.decode()
    assert "two records of one person merged" in page and "Ania Nowak" in page


def test_the_dashboard_links_the_people_page_for_the_organiser_only(organiser_client, head_referee):
    build(0)
    people = 'href="/staff/test/people/"'
    assert people in organiser_client.get("/staff/test/").content.decode()
    head = Client()
    head.force_login(head_referee)
    response = head.get("/staff/test/")  # the head referee's dashboard: no organiser's pages
    assert response.status_code == 200 and people not in response.content.decode()
