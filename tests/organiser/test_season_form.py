"""The season's form is bounded (issue 50): a superuser chooses the organisation first (a page of
them, searched); the form offers a page of that organisation's tournaments alone, the newest
first, searched (diacritics ignored), with the ones already chosen kept on top and sent with the
form; its page costs the same queries for 2 organisations as for 25, for 3 tournaments as for 25;
another organisation's tournament is refused and nothing is written."""

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Membership, Role
from tests.support.lists import service
from tournament.models import AuditEntry, HostOrganisation, Season, Tournament

pytestmark = pytest.mark.django_db

NEW = "/staff/seasons/new/"
POINTS = "10, 5, 1"


def queries_of(client, path):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, response.status_code
    return len(queries), response.content.decode()


def organiser_of(host):
    user = User.objects.create_user(f"org-{host.slug}")
    Membership.objects.create(user=user, host=host, role=Role.ORGANISER)
    return user


def offered(page):
    """The tournaments' addresses the form offers, in the page's order."""
    return re.findall(r'name="tournaments" value="([^"]+)"', page)


def checked(page):
    return re.findall(r'name="tournaments" value="([^"]+)"[^>]*checked', page)


def more_tournaments(host, first, last):
    """Tournaments first…last-1 of `host` ("Turniej 000-n", a week apart, as tests/support/lists.py)."""
    for n in range(first, last):
        date = datetime.date(2020, 1, 1) + datetime.timedelta(days=7 * n)
        Tournament.objects.create(
            host=host, name=f"Turniej {host.slug[-3:]}-{n}", slug=f"t-{host.slug[-3:]}-{n}", date=date
        )


PAGES = [
    ("superuser", NEW),
    ("superuser", NEW + "?q=klub"),
    ("superuser", NEW + "?organisation=klub-000"),
    ("organiser", NEW),
    ("organiser", "/staff/seasons/sezon/edit/"),
]


@pytest.mark.parametrize("who, path", PAGES)
def test_the_season_form_costs_the_same_queries_for_2_organisations_as_for_25(client, who, path):
    first = service(2, 3)[0]
    season = Season.objects.create(host=first, name="Sezon", slug="sezon")
    season.tournaments.set(Tournament.objects.filter(host=first))
    user = organiser_of(first) if who == "organiser" else User.objects.create_superuser("op", password="x")
    client.force_login(user)
    client.get(path)  # the session's first read aside
    small, _ = queries_of(client, path)
    service(23, 3, first=2)
    more_tournaments(first, 3, 25)
    large, page = queries_of(client, path)
    assert small == large <= 12
    assert len(offered(page)) <= 20 + 3  # a page, and the season's own three


def test_a_superuser_chooses_the_organisation_first_a_page_at_a_time(client):
    service(25, 1)
    client.force_login(User.objects.create_superuser("op", password="x"))
    _, chooser = queries_of(client, NEW)
    assert "Klub 019" in chooser and "Klub 020" not in chooser and 'href="?page=2"' in chooser
    assert 'href="?organisation=klub-000"' in chooser and not offered(chooser)
    _, found = queries_of(client, NEW + "?q=klub+024")
    assert "Klub 024" in found and "Klub 000" not in found
    _, form = queries_of(client, NEW + "?organisation=klub-024")
    assert offered(form) == ["t-024-0"] and "Klub 024" in form
    assert client.get(NEW + "?organisation=nie-ma").status_code == 404


def test_an_organiser_of_one_organisation_goes_straight_to_its_form_and_cannot_name_another(client):
    mine, other = service(2, 2)
    client.force_login(organiser_of(mine))
    _, form = queries_of(client, NEW)
    assert offered(form) == ["t-000-1", "t-000-0"]  # the newest first
    assert client.get(NEW + "?organisation=klub-001").status_code == 404


def test_the_form_offers_20_of_25_tournaments_the_newest_first_and_finds_the_others(client):
    host = service(1, 25)[0]
    host.name = "Łódzki Klub"
    host.save()
    Tournament.objects.filter(slug="t-000-3").update(name="Turniej Żółwia")
    Tournament.objects.get(slug="t-000-3").save()  # its search key
    client.force_login(organiser_of(host))
    _, form = queries_of(client, NEW)
    assert offered(form) == [f"t-000-{n}" for n in range(24, 4, -1)]
    older = client.post(NEW, {"name": "Sezon", "q": "", "show": "2"}).content.decode()
    assert offered(older) == [f"t-000-{n}" for n in range(4, -1, -1)]
    found = client.post(NEW, {"name": "Sezon", "q": "zolwia", "show": "1"}).content.decode()
    assert offered(found) == ["t-000-3"]
    assert not Season.objects.exists()


def test_the_chosen_tournaments_stay_checked_on_other_pages_and_are_saved_with_the_form(client):
    host = service(1, 25)[0]
    client.force_login(organiser_of(host))
    sent = {"name": "Sezon", "slug": "sezon", "place_points": POINTS, "tournaments": ["t-000-24"]}
    older = client.post(NEW, {**sent, "show": "2"}).content.decode()
    assert offered(older) == ["t-000-24", "t-000-4", "t-000-3", "t-000-2", "t-000-1", "t-000-0"]
    assert checked(older) == ["t-000-24"] and 'value="Sezon"' in older and 'value="10, 5, 1"' in older
    assert not Season.objects.exists() and not AuditEntry.objects.exists()
    searched = client.post(NEW, {**sent, "tournaments": ["t-000-24", "t-000-0"], "q": "000-7", "show": "1"})
    assert checked(searched.content.decode()) == ["t-000-24", "t-000-0"]
    response = client.post(NEW, {**sent, "tournaments": ["t-000-24", "t-000-0"]})
    assert response.status_code == 302
    season = Season.objects.get(slug="sezon")
    assert sorted(t.slug for t in season.tournaments.all()) == ["t-000-0", "t-000-24"]


def test_another_organisations_tournament_is_refused_and_nothing_is_written(client):
    mine, other = service(2, 2)
    client.force_login(User.objects.create_superuser("op", password="x"))
    data = {"name": "Sezon", "slug": "sezon", "place_points": POINTS, "tournaments": ["t-000-0", "t-001-0"]}
    response = client.post(NEW + "?organisation=klub-000", data)
    assert response.status_code == 200
    assert "Select a valid choice" in str(response.context["form"].errors["tournaments"])
    assert "t-001-0" not in offered(response.content.decode())
    assert not Season.objects.exists() and not AuditEntry.objects.exists()
    shown = client.post(NEW + "?organisation=klub-000", {**data, "show": "1"}).content.decode()
    assert checked(shown) == ["t-000-0"]  # the stranger is not kept either
    assert HostOrganisation.objects.count() == 2


def test_the_season_settings_keep_its_tournaments_on_top_beyond_the_first_page(client):
    host = service(1, 25)[0]
    season = Season.objects.create(host=host, name="Sezon", slug="sezon")
    season.tournaments.set(Tournament.objects.filter(slug__in=["t-000-0", "t-000-1"]))
    client.force_login(organiser_of(host))
    _, form = queries_of(client, "/staff/seasons/sezon/edit/")
    assert checked(form) == ["t-000-1", "t-000-0"]
    assert offered(form)[:3] == ["t-000-1", "t-000-0", "t-000-24"] and len(offered(form)) == 22
    data = {"name": "Sezon", "slug": "sezon", "place_points": POINTS, "reason": "jeszcze jeden"}
    response = client.post("/staff/seasons/sezon/edit/", {**data, "tournaments": ["t-000-0", "t-000-1", "t-000-24"]})
    assert response.status_code == 302
    assert season.tournaments.count() == 3
