"""Frozen public standings are the standings as they were after the frozen round (SPEC §8):
results, cards and tie decisions of later rounds do not move them.

`build_hall("frozen", frozen_round=2)`: after round 2 Jan Łęcki (p1) leads with +3788, Anna
Nowak (p2) and Józef Kowalski (p6) share places 2–3 with +138; round 3 has started.
"""

import datetime

import pytest
from django.utils import timezone

from scoring.models import TieDecision
from scoring.selectors.standings import compute_standings
from scoring.services.cards import give_card
from tests.factories import build_hall
from tournament.models import Player, Round

pytestmark = pytest.mark.django_db


def public_rows(client):
    return [(row["player_id"], row["rank"], row["status"]) for row in client.get("/t/test/standings.json").json()]


def card(tournament, ext_id, colour, round_number, head_referee):
    player = Player.objects.get(tournament=tournament, ext_id=ext_id)
    round_ = Round.objects.get(tournament=tournament, number=round_number) if round_number else None
    give_card(player, colour, "unsporting behaviour", user=head_referee, round=round_, confirmed=True)


def test_a_red_card_in_a_later_round_does_not_move_the_frozen_standings(client, head_referee):
    tournament = build_hall("frozen", frozen_round=2)
    before = public_rows(client)
    assert before[0] == ("p1", 1, "active")
    card(tournament, "p1", "red", 3, head_referee)

    assert public_rows(client) == before
    leaderboard = client.get("/t/test/standings/").content.decode()
    assert "row--dq" not in leaderboard and "after round 2" in leaderboard
    assert "disqualified" not in client.get("/t/test/player/p1/").content.decode()
    live = compute_standings(tournament)  # staff and the live view see the card at once
    assert (live[-1].player.ext_id, live[-1].rank, live[-1].status) == ("p1", None, "disqualified")


def test_a_red_card_of_the_frozen_round_shows_in_the_frozen_standings(client, head_referee):
    tournament = build_hall("frozen", frozen_round=2)
    card(tournament, "p1", "red", 2, head_referee)
    rows = public_rows(client)
    assert rows[-1] == ("p1", None, "disqualified")
    assert rows[0] in {("p2", 1, "active"), ("p6", 1, "active")}
    assert "disqualified" in client.get("/t/test/player/p1/").content.decode()


def test_the_second_yellow_card_counts_from_the_round_it_was_given(client, head_referee):
    tournament = build_hall("frozen", frozen_round=2)
    card(tournament, "p1", "yellow", 1, head_referee)
    card(tournament, "p1", "yellow", 3, head_referee)
    assert public_rows(client)[0] == ("p1", 1, "active")
    card(tournament, "p5", "yellow", 1, head_referee)
    card(tournament, "p5", "yellow", 2, head_referee)
    assert ("p5", None, "disqualified") in public_rows(client)


@pytest.mark.parametrize("round_three_started, counts", [(-1, False), (+1, True)])
def test_a_card_without_a_round_counts_when_given_before_the_next_round_started(
    client, head_referee, round_three_started, counts
):
    tournament = build_hall("frozen", frozen_round=2)
    started = timezone.now() + datetime.timedelta(hours=round_three_started)
    Round.objects.filter(tournament=tournament, number=3).update(started_at=started)
    card(tournament, "p1", "red", None, head_referee)
    assert (public_rows(client)[-1] == ("p1", None, "disqualified")) is counts


@pytest.mark.parametrize("decided_hours_after_round_three, applies", [(1, False), (-1, True)])
def test_a_tie_decision_counts_when_recorded_before_the_next_round_started(
    client, decided_hours_after_round_three, applies
):
    tournament = build_hall("frozen", frozen_round=2)
    started = timezone.now() - datetime.timedelta(hours=2)
    Round.objects.filter(tournament=tournament, number=3).update(started_at=started)
    decision = TieDecision.objects.create(tournament=tournament, order=["p6", "p2"], reason="lot")
    decided = started + datetime.timedelta(hours=decided_hours_after_round_three)
    TieDecision.objects.filter(pk=decision.pk).update(created_at=decided)
    ranks = {player: rank for player, rank, _ in public_rows(client)}
    assert (ranks["p6"], ranks["p2"]) == ((2, 3) if applies else (2, 2))
