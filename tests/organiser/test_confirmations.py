"""Slips that cannot simply be taken back ask first, on the page (issue 36, item 9): completing or
discarding a round, withdrawing or removing a player. The first step only shows the question;
the server changes nothing until the answer (`confirm`) comes; the change is audited."""

import pytest

from organiser import services
from scoring.models import ScoreSheet
from tests.factories import build, checked_in
from tournament.models import AuditEntry, Player, Round

pytestmark = pytest.mark.django_db


def test_completing_a_round_asks_first_and_only_yes_completes_it(organiser_client, organiser):
    tournament = checked_in(8)
    round_ = services.draw_round(tournament, user=organiser)
    services.start_round(round_, user=organiser)
    ScoreSheet.objects.filter(table__round=round_).update(state=ScoreSheet.State.VERIFIED)
    # The dashboard's button posts without an answer: the round's page asks instead.
    response = organiser_client.post("/staff/test/rounds/1/complete/")
    assert response["Location"] == "/staff/test/rounds/1/?confirm=complete"
    assert Round.objects.get(pk=round_.pk).state == "started"
    html = organiser_client.get(response["Location"]).content.decode()
    assert "Complete round 1?" in html and 'name="confirm" value="complete"' in html
    assert not AuditEntry.objects.filter(action="round_complete").exists()
    # An answer for another action is no answer.
    organiser_client.post("/staff/test/rounds/1/complete/", {"confirm": "discard"})
    assert Round.objects.get(pk=round_.pk).state == "started"
    organiser_client.post("/staff/test/rounds/1/complete/", {"confirm": "complete"})
    assert Round.objects.get(pk=round_.pk).state == "completed"
    assert AuditEntry.objects.filter(action="round_complete").count() == 1


def test_discarding_a_draw_asks_first(organiser_client, organiser):
    tournament = checked_in(8)
    services.draw_round(tournament, user=organiser)
    page = organiser_client.get("/staff/test/rounds/1/").content.decode()
    assert 'href="?confirm=discard"' in page and "/rounds/1/discard/" not in page  # a link to the question, no form
    response = organiser_client.post("/staff/test/rounds/1/discard/")
    assert response["Location"] == "/staff/test/rounds/1/?confirm=discard"
    assert tournament.rounds.count() == 1
    html = organiser_client.get(response["Location"]).content.decode()
    assert "Discard the draw of round 1?" in html and "Yes, discard the draw" in html
    organiser_client.post("/staff/test/rounds/1/discard/", {"confirm": "discard"})
    assert tournament.rounds.count() == 0
    assert AuditEntry.objects.filter(action="round_discard").count() == 1


def test_withdrawing_a_player_asks_first_and_can_be_undone(organiser_client):
    build(5)
    player = Player.objects.get(ext_id="p2")
    page = organiser_client.get(f"/staff/test/players/{player.pk}/").content.decode()
    assert 'href="?confirm=withdraw#player-question"' in page
    response = organiser_client.post(f"/staff/test/players/{player.pk}/withdraw/")
    assert response["Location"] == f"/staff/test/players/{player.pk}/?confirm=withdraw#player-question"
    assert Player.objects.get(pk=player.pk).status == "active"
    html = organiser_client.get(response["Location"]).content.decode()
    assert "Withdraw Gracz 2 from the tournament?" in html and "A withdrawal can be undone on this page." in html
    organiser_client.post(f"/staff/test/players/{player.pk}/withdraw/", {"confirm": "withdraw"})
    assert Player.objects.get(pk=player.pk).status == "withdrawn"
    # The undo needs no question: it takes nothing away.
    organiser_client.post(f"/staff/test/players/{player.pk}/reinstate/")
    assert Player.objects.get(pk=player.pk).status == "active"
    assert [e.action for e in AuditEntry.objects.order_by("pk")] == ["player_withdraw", "player_reinstate"]


def test_removing_a_player_asks_first(organiser_client):
    build(5)
    player = Player.objects.get(ext_id="p5")
    response = organiser_client.post(f"/staff/test/players/{player.pk}/remove/", headers={"HX-Request": "true"})
    assert response["HX-Redirect"] == f"/staff/test/players/{player.pk}/?confirm=remove#player-question"
    assert Player.objects.filter(pk=player.pk).exists()
    html = organiser_client.get(f"/staff/test/players/{player.pk}/?confirm=remove").content.decode()
    assert "Remove Gracz 5 from the list of players?" in html and "This cannot be undone." in html
    organiser_client.post(f"/staff/test/players/{player.pk}/remove/", {"confirm": "remove"})
    assert not Player.objects.filter(pk=player.pk).exists()
    assert AuditEntry.objects.filter(action="player_remove").count() == 1
