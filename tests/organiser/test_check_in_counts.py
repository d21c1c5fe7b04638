"""The counts follow the taps (issue 36.4): a check-in from the list swaps its row and, out of
band, the counts over the list and the "check in everyone" button; the dashboard's next step
counts who is still to check in and stops asking once everyone is."""

import pytest

from tests.factories import build, table, text_of
from tournament.models import Player

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def tap(client, player, action):
    return client.post(f"/staff/test/players/{player.pk}/{action}/", {"row": "1"}, headers=HTMX).content.decode()


def test_each_tap_on_a_row_sends_the_counts_and_the_check_in_everyone_button_out_of_band(organiser_client):
    build(4)
    Player.objects.filter(ext_id="p4").update(status="withdrawn")
    p1, p2, p3 = (Player.objects.get(ext_id=ext_id) for ext_id in ("p1", "p2", "p3"))
    html = tap(organiser_client, p1, "check-in")
    assert 'id="player-counts" hx-swap-oob="true"' in html and 'id="check-in-everyone" hx-swap-oob="true"' in html
    assert "4 players registered · 1 checked in · 1 withdrawn" in text_of(html, "player-counts")
    assert "Check in everyone" in html
    html = tap(organiser_client, p2, "check-in")
    assert "2 checked in" in text_of(html, "player-counts")
    html = tap(organiser_client, p3, "check-in")
    assert "3 checked in" in text_of(html, "player-counts")
    assert "Check in everyone" not in html  # every active player is here: the button goes
    html = tap(organiser_client, p2, "check-out")
    assert "2 checked in" in text_of(html, "player-counts") and "Check in everyone" in html


def test_a_refused_tap_sends_the_counts_unchanged(organiser_client):
    build(4, rounds=[{"number": 1, "state": "started", "tables": [table(1, ["p1", "p2", "p3", "p4"])]}])
    Player.objects.update(present=True)
    html = tap(organiser_client, Player.objects.get(ext_id="p1"), "check-out")
    assert "has already played" in html and "4 checked in" in text_of(html, "player-counts")


def test_the_list_page_shows_the_same_counts(organiser_client):
    build(3)
    Player.objects.filter(ext_id="p1").update(present=True)
    html = organiser_client.get("/staff/test/players/").content.decode()
    assert "3 players registered · 1 checked in" in text_of(html, "player-counts")


def test_the_dashboard_asks_to_check_in_only_those_still_missing(organiser_client):
    build(14)
    Player.objects.filter(ext_id__in=[f"p{n}" for n in range(1, 12)]).update(present=True)
    status = organiser_client.get("/staff/test/status/", headers=HTMX).content.decode()
    assert "11 checked in, 3 players still to check in (or to withdraw), then draw round 1." in status
    Player.objects.update(present=True)
    for page in ("/staff/test/", "/staff/test/status/"):
        html = organiser_client.get(page, headers=HTMX if "status" in page else {}).content.decode()
        assert "All 14 players are checked in: draw round 1." in html
        assert "still to check in" not in html and "Check the players in" not in html


def test_the_dashboard_of_a_tournament_without_players_asks_to_add_them(organiser_client):
    build(0)
    assert "Add the players, check them in, then draw round 1." in organiser_client.get("/staff/test/").content.decode()
