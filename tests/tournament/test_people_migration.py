"""The migrations that make earlier players into people: the same name (case and Polish letters
aside) from the same club in two tournaments is one person; within one tournament a person is
one player (0013 splits the rare pair 0012 joined)."""

import pytest

from tests.support.migrations import latest, migrate

BEFORE = [("tournament", "0011_audit_entry_host")]
AFTER = [("tournament", "0013_player_one_per_person")]


@pytest.mark.django_db(transaction=True)
def test_earlier_players_become_people_once_per_tournament():
    old = migrate(BEFORE)
    Host, Tournament, Organisation, Player = (
        old.get_model("tournament", name) for name in ("HostOrganisation", "Tournament", "Organisation", "Player")
    )
    host = Host.objects.create(name="Organizator", slug="organizator")

    def player(tournament, name, club, number):
        organisation, _ = Organisation.objects.get_or_create(tournament=tournament, name=club)
        given_names, surname = name.split(" ")
        Player.objects.create(
            tournament=tournament,
            organisation=organisation,
            name=name,
            given_names=given_names,
            surname=surname,
            start_number=number,
            ext_id=f"p{number}",
            org_slot=number,
        )

    january = Tournament.objects.create(name="Styczeń", slug="styczen", date="2026-01-10", host=host)
    february = Tournament.objects.create(name="Luty", slug="luty", date="2026-02-10", host=host)
    player(january, "Łukasz Wójcik", "UTW", 1)
    player(january, "Anna Nowak", "UTW", 2)
    player(february, "LUKASZ WOJCIK", "utw", 1)  # the same person: one
    player(february, "Anna Nowak", "Klub", 2)  # another club: another person
    player(february, "Łukasz Wójcik", "utw", 3)  # a namesake in one club of one tournament: split
    try:
        new = migrate(AFTER)
        Person = new.get_model("tournament", "Person")
        Player = new.get_model("tournament", "Player")
        people = {(p.tournament.slug, p.start_number): p.person_id for p in Player.objects.select_related("tournament")}
        assert people[("styczen", 1)] == people[("luty", 1)]
        assert people[("styczen", 2)] != people[("luty", 2)]
        assert people[("luty", 3)] not in (people[("luty", 1)], None)
        assert Person.objects.count() == 4
        assert set(Person.objects.values_list("host", flat=True)) == {host.pk}
    finally:
        migrate(latest())
