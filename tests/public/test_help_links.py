"""Every staff page's header links to the help of the signed-in user's role (accounts/help.py,
the context processor and templates/help_link.html): the role held for the page's tournament,
else the strongest role held anywhere; the sign-in page links to the help index."""

import re

import pytest
from django.contrib.auth.models import User

from accounts.models import Role, TournamentRole
from organiser.interchange import import_tournament
from tests.factories import build, table, tournament_data

pytestmark = pytest.mark.django_db

STARTED = {
    "number": 1,
    "state": "started",
    "tables": [table(1, ["p1", "p2", "p3", "p4"]), table(2, ["p5", "p6", "p7", "p8"])],
}
# A page of every staff template family: the organiser's screens, the referee pages, the account
# pages extending base.html directly, the results control and the print menu.
PAGES = {
    Role.ORGANISER: [
        "/staff/",
        "/staff/test/",
        "/staff/test/players/",
        "/staff/test/rounds/1/",
        "/staff/test/backups/",
        "/accounts/",
        "/accounts/venue/test/",
        "/accounts/device/test/",
        "/print/test/",
        "/referee/test/",
        "/t/test/results-control/",
    ],
    Role.HEAD_REFEREE: [
        "/accounts/",
        "/staff/test/",
        "/staff/test/rounds/1/",
        "/referee/test/",
        "/referee/test/ties/",
        "/referee/test/round/1/table/1/",
        "/t/test/results-control/",
    ],
    Role.REFEREE: [
        "/accounts/",
        "/referee/test/",
        "/referee/test/players/",
        "/referee/test/round/1/table/1/",
        "/referee/test/round/1/table/1/log/",
    ],
}
HELP = {Role.ORGANISER: "/help/organiser/", Role.HEAD_REFEREE: "/help/head-referee/", Role.REFEREE: "/help/referee/"}


@pytest.fixture
def tournament(db):
    return build(8, rounds=[STARTED])


def header_help_links(response):
    assert response.status_code == 200, response.status_code
    header = re.search(r'<header class="site-header">.*?</header>', response.content.decode(), re.S)
    return re.findall(r'<a class="help-link" href="([^"]+)"', header.group(0)) if header else []


@pytest.mark.parametrize("role", PAGES)
def test_every_staff_page_links_to_the_help_of_the_users_role(
    client, tournament, organiser, head_referee, referee, role
):
    client.force_login({Role.ORGANISER: organiser, Role.HEAD_REFEREE: head_referee, Role.REFEREE: referee}[role])
    for url in PAGES[role]:
        assert header_help_links(client.get(url)) == [HELP[role]], url


def test_the_role_for_the_pages_tournament_wins_and_elsewhere_the_strongest_role(client, tournament, referee):
    data = tournament_data(4)
    data["tournament"].update(slug="other", name="Other cup")
    TournamentRole.objects.create(user=referee, tournament=import_tournament(data), role=Role.ORGANISER)
    client.force_login(referee)
    assert header_help_links(client.get("/referee/test/")) == [HELP[Role.REFEREE]]
    assert header_help_links(client.get("/staff/other/")) == [HELP[Role.ORGANISER]]
    assert header_help_links(client.get("/accounts/")) == [HELP[Role.ORGANISER]]


def test_a_tablet_signed_in_for_one_tournament_gets_the_referees_help(client, tournament):
    tablet = User.objects.create_user("tablet-1")
    TournamentRole.objects.create(user=tablet, tournament=tournament, role=Role.REFEREE)
    client.force_login(tablet)
    assert header_help_links(client.get("/accounts/")) == [HELP[Role.REFEREE]]
    assert header_help_links(client.get("/referee/test/round/1/table/2/")) == [HELP[Role.REFEREE]]


def test_the_sign_in_page_links_to_the_help_index_and_public_pages_have_no_help_link(client, tournament, organiser):
    assert header_help_links(client.get("/accounts/login/")) == ["/help/"]
    assert header_help_links(client.get("/t/test/")) == []
    client.force_login(organiser)
    assert header_help_links(client.get("/t/test/")) == []  # a public page, even for staff
