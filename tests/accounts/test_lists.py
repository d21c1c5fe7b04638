"""The lists a signed-in member and the operator land on (/accounts/, the operator's organisations,
the organisers' /staff/) page through their rows with a search, in the same number of queries for
2 organisations as for 25 (more than a page): an organiser's list reads the ids of their
organisations and grants first, never a filter over every tournament of the service."""

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Membership, Role, TournamentRole
from accounts.selectors import organised_tournaments, tournaments_of
from tests.support.lists import service
from tournament.listing import PAGE_SIZE
from tournament.models import HostOrganisation, Season, Tournament

pytestmark = pytest.mark.django_db


def queries_of(client, path):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, response.status_code
    return len(queries), response.content.decode()


def organiser_of(host, role=Role.ORGANISER):
    user = User.objects.create_user(f"org-{host.slug}")
    Membership.objects.create(user=user, host=host, role=role)
    return user


PAGES = [
    ("organiser", "/staff/"),
    ("organiser", "/accounts/"),
    ("organiser", "/staff/?q=turniej+000"),
    ("superuser", "/staff/"),
    ("superuser", "/accounts/"),
    ("superuser", "/accounts/operator/organisations/"),
    ("superuser", "/accounts/operator/organisations/?q=klub"),
]


@pytest.mark.parametrize("who, path", PAGES)
def test_a_staff_list_costs_the_same_queries_for_2_organisations_as_for_25(client, who, path):
    first = service(2, 3)[0]
    user = organiser_of(first) if who == "organiser" else User.objects.create_superuser("op", password="x")
    client.force_login(user)
    client.get(path)  # the session's first read aside
    small, _ = queries_of(client, path)
    service(23, 3, first=2)
    large, _ = queries_of(client, path)
    assert small == large <= 12


def test_an_organisers_list_holds_their_organisations_and_their_grants_only():
    mine, other, third = service(3, 2)
    user = organiser_of(mine)
    granted = Tournament.objects.get(slug="t-001-0")
    TournamentRole.objects.create(user=user, tournament=granted, role=Role.ORGANISER)
    TournamentRole.objects.create(user=user, tournament=Tournament.objects.get(slug="t-002-0"), role=Role.REFEREE)
    organised = [t.slug for t in organised_tournaments(user).object_list]
    assert sorted(organised) == ["t-000-0", "t-000-1", "t-001-0"]
    opened = [t.slug for t in tournaments_of(user).object_list]
    assert sorted(opened) == ["t-000-0", "t-000-1", "t-001-0", "t-002-0"]
    assert [t.slug for t in organised_tournaments(user, search="001").object_list] == ["t-001-0"]


def test_the_operator_sees_20_organisations_a_page_with_their_team_counts(client):
    hosts = service(25, 0)
    organiser_of(hosts[0])
    client.force_login(User.objects.create_superuser("op", password="x"))
    _, first = queries_of(client, "/accounts/operator/organisations/")
    assert "Klub 019" in first and "Klub 020" not in first
    assert "1 person in the team" in first  # Klub 000's organiser
    _, found = queries_of(client, "/accounts/operator/organisations/?q=klub+024")
    assert "Klub 024" in found and "Klub 000" not in found
    assert HostOrganisation.objects.count() == 25


def test_the_superusers_team_chooser_and_seasons_list_page_through_every_organisation(client):
    hosts = service(25, 0)
    for host in hosts:
        Season.objects.create(host=host, name=f"Sezon {host.name}", slug=f"sezon-{host.slug}")
    client.force_login(User.objects.create_superuser("op", password="x"))
    _, teams = queries_of(client, "/accounts/team/")
    assert "Klub 019" in teams and "Klub 020" not in teams and 'href="?page=2"' in teams
    _, found = queries_of(client, "/accounts/team/?q=klub+021")
    assert "Klub 021" in found and "Klub 019" not in found
    _, seasons = queries_of(client, "/staff/seasons/")
    assert "Sezon Klub 019" in seasons and "Sezon Klub 020" not in seasons
    _, second = queries_of(client, "/staff/seasons/?page=2")
    assert "Sezon Klub 024" in second and "Sezon Klub 000" not in second


def test_the_team_pages_invitation_offers_a_page_of_tournaments_upcoming_first(client):
    """An organisation that ran 40 tournaments: the invitation's list holds 20 of them (the
    upcoming one first, then the most recent), in the same queries and bytes as with 25."""
    host = service(1, 25)[0]
    Tournament.objects.create(host=host, name="Turniej jutro", slug="jutro", date=datetime.date(2099, 1, 1))
    client.force_login(organiser_of(host))
    path = f"/accounts/team/{host.slug}/"
    client.get(path)
    small, html = queries_of(client, path)
    for n in range(25, 40):  # older than every one listed
        Tournament.objects.create(
            host=host, name=f"Turniej 000-{n}", slug=f"old-{n}", date=datetime.date(2010, 1, n - 24)
        )
    large, html_large = queries_of(client, path)
    assert small == large and len(html_large) == len(html)
    listed = re.findall(r'<option value="(\d+)">([^<]+)</option>', html_large.split('name="tournament"')[1])
    names = [name for _, name in listed]
    assert len(names) == PAGE_SIZE and names[:3] == ["Turniej jutro", "Turniej 000-24", "Turniej 000-23"]
    assert "Turniej 000-5" not in names and "Turniej 000-39" not in names
