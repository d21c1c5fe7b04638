"""A card given by mistake is withdrawn by the head referee, with a reason (SPEC §7): it stays on
the record, struck through, counts no more, and a disqualification that came only from it is
lifted, so the standings rank the player again."""

from collections import Counter

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Card
from scoring.selectors import sheets as selectors
from scoring.selectors.standings import compute_standings
from scoring.services import cards
from tests.factories import build, four_games, started_round, table
from tournament.models import AuditEntry, Player
from tournament.refusals import Refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    """Round 1 played and verified at one table, so every player is in the standings."""
    return build(4, rounds=[started_round(table(1, ["p1", "p2", "p3", "p4"], four_games(), state="verified"))])


def player(ext_id="p2"):
    return Player.objects.get(ext_id=ext_id)


def give(user, colour, reason="untidy table", ext_id="p2"):
    """A card as the card form gives it: a card that disqualifies the player is confirmed."""
    p = player(ext_id)
    confirmed = cards.disqualifies_now(p, colour, Counter(selectors.card_colours(p)))
    return cards.give_card(p, colour, reason, user=user, confirmed=confirmed)


def player_url(p=None):
    return reverse("scoring:player", kwargs={"slug": "test", "player_id": (p or player()).pk})


def withdraw_url(p=None):
    return reverse("scoring:withdraw_card", kwargs={"slug": "test", "player_id": (p or player()).pk})


def standing(tournament, ext_id="p2"):
    row = next(row for row in compute_standings(tournament) if row.player.ext_id == ext_id)
    return row.player.status, row.rank


def test_withdrawing_the_second_yellow_card_lifts_the_disqualification_and_the_standings_follow(
    head_referee_client, head_referee, referee, tournament
):
    give(referee, "yellow")
    second = give(referee, "yellow", "talking during a move")
    assert standing(tournament) == ("disqualified", None)

    response = head_referee_client.post(withdraw_url(), {"card": second.pk, "reason": "  given to the wrong player  "})

    assert response.status_code == 302 and response["Location"] == player_url()
    assert player().status == "active"
    status, rank = standing(tournament)
    assert status == "active" and rank is not None  # ranked again
    second.refresh_from_db()
    assert second.is_withdrawn and second.withdrawn_by == head_referee and second.withdrawn_by_name == "head"
    assert second.withdrawal_reason == "given to the wrong player"
    entry = AuditEntry.objects.get(action="withdraw_card")
    assert (entry.user, entry.reason) == (head_referee, "given to the wrong player")
    assert entry.before["colour"] == "yellow" and "withdrawn" not in entry.before
    assert (
        entry.after["withdrawn"]["by"] == "head" and entry.after["withdrawn"]["reason"] == "given to the wrong player"
    )
    assert entry.before["given_at"] == entry.after["given_at"]
    lifted = AuditEntry.objects.get(action="lift_disqualification")
    assert (lifted.before["status"], lifted.after["status"]) == ("disqualified", "active")
    page = head_referee_client.get(response["Location"]).content.decode()
    assert "Yellow card for Gracz 2 withdrawn. Gracz 2 is no longer disqualified." in page
    assert 'class="badge badge--dq"' not in page


def test_a_withdrawn_card_stays_on_the_player_page_struck_through_with_who_when_and_why(
    head_referee_client, referee, tournament
):
    card = give(referee, "yellow")
    head_referee_client.post(withdraw_url(), {"card": card.pk, "reason": "a mistake of the referee"})
    html = head_referee_client.get(player_url()).content.decode()
    item = html[html.index(f'id="card-{card.pk}"') :]
    item = item[: item.index("</li>")]
    assert "<s><strong>yellow card</strong></s>" in item and "<s>untidy table</s>" in item
    assert "Withdrawn by head at" in item and "a mistake of the referee" in item
    assert "Withdraw this card" not in item  # withdrawn once only
    players = head_referee_client.get(reverse("scoring:players", kwargs={"slug": "test"})).content.decode()
    assert "1 withdrawn" in players and "1 yellow" not in players


def test_a_withdrawn_card_no_longer_counts_towards_the_second_yellow(head_referee, referee, tournament):
    first = give(referee, "yellow")
    cards.withdraw_card(player(), first.pk, reason="wrong player", user=head_referee)
    cards.give_card(player(), "yellow", "again", user=referee)  # the only yellow that counts: no confirmation asked
    assert player().status == "active"
    with pytest.raises(Refused) as refused:  # the next one is the second
        cards.give_card(player(), "yellow", "and again", user=referee)
    assert refused.value.code == "card_second_yellow"


def test_withdrawing_a_card_the_disqualification_does_not_rest_on_keeps_it(head_referee, referee, tournament):
    give(referee, "yellow")
    give(referee, "yellow")
    third = give(referee, "yellow")
    warning = give(referee, "warning")
    for card in (third, warning):
        result = cards.withdraw_card(player(), card.pk, reason="a mistake", user=head_referee)
        assert not result.lifted
    assert player().status == "disqualified"
    assert not AuditEntry.objects.filter(action="lift_disqualification").exists()


def test_withdrawing_a_red_card_lifts_its_disqualification(head_referee, tournament):
    red = give(head_referee, "red")
    result = cards.withdraw_card(player(), red.pk, reason="shown to the wrong table", user=head_referee)
    assert result.lifted and result.player.status == "active" and player().status == "active"


def test_a_lifted_disqualification_goes_back_to_the_status_before_it(head_referee, tournament):
    Player.objects.filter(ext_id="p2").update(status="withdrawn")
    red = give(head_referee, "red")
    assert player().status == "disqualified"
    cards.withdraw_card(player(), red.pk, reason="a mistake", user=head_referee)
    assert player().status == "withdrawn"


def test_only_the_head_referee_withdraws_a_card(referee_client, referee, tournament):
    card = give(referee, "yellow")
    response = referee_client.post(withdraw_url(), {"card": card.pk, "reason": "mine was a mistake"})
    assert response.status_code == 403
    assert not Card.objects.get().is_withdrawn
    with pytest.raises(Refused) as refused:
        cards.withdraw_card(player(), card.pk, reason="mine was a mistake", user=referee)
    assert refused.value.code == "head_referee_only"
    html = referee_client.get(player_url()).content.decode()
    assert "Withdraw this card" not in html


def test_a_withdrawal_needs_a_reason(head_referee_client, referee, tournament):
    card = give(referee, "yellow")
    response = head_referee_client.post(withdraw_url(), {"card": card.pk, "reason": "   "})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Give a reason for this change." in html and '<details class="card-withdraw" open>' in html
    assert not Card.objects.get().is_withdrawn and not AuditEntry.objects.filter(action="withdraw_card").exists()


def test_a_card_withdrawn_twice_is_withdrawn_once(head_referee_client, referee, tournament):
    card = give(referee, "yellow")
    give(referee, "yellow")
    data = {"card": card.pk, "reason": "given to the wrong player"}
    first, second = head_referee_client.post(withdraw_url(), data), head_referee_client.post(withdraw_url(), data)
    assert first.status_code == 302 and second.status_code == 200
    assert "This yellow card of Gracz 2 has been withdrawn already." in second.content.decode()
    assert AuditEntry.objects.filter(action="withdraw_card").count() == 1
    assert AuditEntry.objects.filter(action="lift_disqualification").count() == 1


@pytest.mark.parametrize("card", ["other", "", "x", "0", "9" * 40])
def test_a_card_of_another_player_or_no_card_is_refused(head_referee_client, referee, tournament, card):
    other = give(referee, "yellow", ext_id="p3")
    value = {"other": other.pk}.get(card, card)
    response = head_referee_client.post(withdraw_url(), {"card": value, "reason": "a mistake"})
    assert response.status_code == 200
    assert "This player has no such card. Reload the page." in response.content.decode()
    assert not Card.objects.filter(withdrawn_at__isnull=False).exists()


def test_the_frozen_standings_do_not_count_a_withdrawn_card(head_referee, tournament):
    red = give(head_referee, "red")
    cards.withdraw_card(player(), red.pk, reason="a mistake", user=head_referee)
    rows = compute_standings(tournament, up_to_round=1)
    assert next(row for row in rows if row.player.ext_id == "p2").player.status == "active"


def test_the_dashboard_shows_a_withdrawn_card_as_withdrawn(organiser, head_referee, tournament):
    card = give(head_referee, "yellow")
    cards.withdraw_card(player(), card.pk, reason="given to the wrong player", user=head_referee)
    client = Client()
    client.force_login(organiser)
    html = client.get(reverse("organiser:dashboard", kwargs={"slug": "test"})).content.decode()
    assert '<s class="badge">yellow card</s>' in html and "given to the wrong player" in html
