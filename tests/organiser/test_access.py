"""Staff sign-in and roles on the organiser screens (SPEC §6)."""

import pytest
from django.contrib.auth.models import User

from accounts.models import Role, TournamentRole
from tests.factories import build

pytestmark = pytest.mark.django_db

ORGANISER_PAGES = ["/staff/test/settings/", "/staff/test/players/", "/staff/test/players/import/", "/staff/test/draw/"]
ORGANISER_POSTS = [
    "/staff/test/players/check-in-everyone/",
    "/staff/test/final/",
    "/staff/test/rounds/1/publish/",
    "/staff/test/rounds/1/start/",
    "/staff/test/rounds/1/complete/",
    "/staff/test/rounds/1/discard/",
]


@pytest.fixture
def tournament():
    return build(
        8,
        rounds=[
            {
                "number": 1,
                "state": "draft",
                "tables": [
                    {"number": 1, "seats": {"A": "p1", "B": "p2", "C": "p3", "D": "p4"}},
                    {"number": 2, "seats": {"A": "p5", "B": "p6", "C": "p7", "D": "p8"}},
                ],
            }
        ],
    )


@pytest.mark.parametrize("url", ["/staff/", "/staff/new/", "/staff/test/", "/staff/test/rounds/1/", *ORGANISER_PAGES])
def test_anonymous_visitors_go_to_the_login_page(client, tournament, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


@pytest.mark.parametrize("url", ORGANISER_PAGES + ["/staff/new/"])
def test_referees_and_head_referees_may_not_open_organiser_pages(client, tournament, referee, head_referee, url):
    for user in (referee, head_referee):
        client.force_login(user)
        assert client.get(url).status_code == 403


@pytest.mark.parametrize("url", ORGANISER_POSTS)
def test_head_referee_may_not_change_the_round_lifecycle(head_referee_client, tournament, url):
    assert head_referee_client.post(url).status_code == 403


def test_a_signed_in_user_holding_nothing_in_the_tournament_finds_no_such_tournament(client, tournament):
    client.force_login(User.objects.create_user("visitor", password="x" * 12))
    assert client.get("/staff/test/").status_code == 404
    assert client.get("/staff/test/rounds/1/").status_code == 404


def test_a_referee_opening_the_dashboard_is_sent_to_score_entry(referee_client, tournament):
    response = referee_client.get("/staff/test/")
    assert response.status_code == 302 and response["Location"] == "/referee/test/"


def test_head_referee_sees_the_dashboard_and_rounds_without_organiser_actions(head_referee_client, tournament):
    response = head_referee_client.get("/staff/test/")
    assert response.status_code == 200
    assert b"/staff/test/settings/" not in response.content
    assert b'href="/print/test/standings.pdf"' in response.content  # printouts, but not the tablets' sign-in links
    assert b"/print/test/devices.pdf" not in response.content
    assert head_referee_client.get("/staff/test/rounds/1/").status_code == 200


def test_a_tournament_role_grant_makes_an_organiser_for_that_tournament_only(client, tournament):
    user = User.objects.create_user("local", password="x" * 12)
    TournamentRole.objects.create(user=user, tournament=tournament, role=Role.ORGANISER)
    client.force_login(user)
    assert client.get("/staff/test/players/").status_code == 200
    assert client.get("/staff/new/").status_code == 403


def test_staff_home_lists_tournaments_for_organisers_and_sends_others_to_their_page(
    client, tournament, organiser, head_referee
):
    client.force_login(organiser)
    response = client.get("/staff/")
    assert response.status_code == 200 and b"/staff/test/" in response.content
    client.force_login(head_referee)
    assert client.get("/staff/")["Location"] == "/accounts/"


def test_an_expired_session_on_the_polling_fragment_reloads_the_page_to_log_in(client, tournament):
    response = client.get(
        "/staff/test/status/", headers={"HX-Request": "true", "HX-Current-URL": "http://testserver/staff/test/"}
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == "/accounts/login/?next=/staff/test/"


def test_a_get_on_an_action_url_is_refused_without_a_change(organiser_client, tournament):
    assert organiser_client.get("/staff/test/rounds/1/start/").status_code == 405
    tournament.rounds.get(number=1).refresh_from_db()
    assert tournament.rounds.get(number=1).state == "draft"


def test_an_expired_session_with_a_current_url_that_is_no_address_goes_to_log_in(client, tournament):
    response = client.get("/staff/test/status/", headers={"HX-Request": "true", "HX-Current-URL": "http://[x"})
    assert response.status_code == 200
    assert response["HX-Redirect"] == "/accounts/login/?next=/staff/"
