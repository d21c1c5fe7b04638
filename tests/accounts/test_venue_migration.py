"""The migration that gives each tournament its own venue address: the one address saved for the
whole server is copied to every tournament, and the server-wide row is dropped."""

import pytest
from django.db import connection

from tests.support.migrations import latest
from tests.support.migrations import migrate as migrate_to

BEFORE = ("accounts", "0007_setup_code_tries")
AFTER = ("accounts", "0008_tournament_venue")


# The tournaments as they were then: before they belonged to a host organisation.
TOURNAMENT_THEN = ("tournament", "0009_auditentry")


def migrate(*accounts):
    """Migrate accounts to `accounts` and the tournaments to `TOURNAMENT_THEN` (every app to its
    latest without them); the apps' models then."""
    pinned = [*accounts, TOURNAMENT_THEN, ("organiser", None)] if accounts else []  # organiser's need later ones
    apps = ("accounts", "tournament", "organiser")
    targets = [*pinned, *(leaf for leaf in latest() if not accounts or leaf[0] not in apps)]
    return migrate_to(targets)


@pytest.mark.django_db(transaction=True)
def test_the_servers_one_address_is_copied_to_every_tournament():
    old = migrate(BEFORE)
    tournaments = old.get_model("tournament", "Tournament")
    for slug in ("a", "b"):
        tournaments.objects.create(name=slug.upper(), slug=slug, date="2026-02-10")
    old.get_model("accounts", "VenueSetting").objects.create(pk=1, address="http://192.168.1.23:8000")
    try:
        new = migrate(AFTER)
        venues = new.get_model("accounts", "TournamentVenue").objects.values_list("tournament__slug", "address")
        assert sorted(venues) == [("a", "http://192.168.1.23:8000"), ("b", "http://192.168.1.23:8000")]
        assert "accounts_venuesetting" not in connection.introspection.table_names()
    finally:
        migrate()


@pytest.mark.parametrize("address", ["", "http://rebind.attacker.example:8441", "http://127.1:8000"])
@pytest.mark.django_db(transaction=True)
def test_no_tournament_gets_an_address_that_may_not_be_saved_any_more(address):
    old = migrate(BEFORE)
    old.get_model("tournament", "Tournament").objects.create(name="A", slug="a", date="2026-02-10")
    old.get_model("accounts", "VenueSetting").objects.create(pk=1, address=address)
    try:
        assert not migrate(AFTER).get_model("accounts", "TournamentVenue").objects.exists()
    finally:
        migrate()
