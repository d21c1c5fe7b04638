"""Cards (SPEC §7): warnings, yellow cards, the second yellow and red cards disqualify."""

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Card
from scoring.services import cards
from tests.factories import build, sheet_url, started_round, table
from tournament.models import AuditEntry, Player
from tournament.refusals import Refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return build(4, rounds=[started_round(table(1, ["p1", "p2", "p3", "p4"], state="empty"))])


def player(ext_id="p2"):
    return Player.objects.get(ext_id=ext_id)


def card_url(p):
    return reverse("scoring:give_card", kwargs={"slug": "test", "player_id": p.pk})


def give(client, colour, reason="untidy table", **extra):
    return client.post(card_url(player()), {"colour": colour, "reason": reason, "round": 1, **extra})


def test_a_yellow_card_from_the_sheet_goes_back_to_the_sheet(referee_client, referee, tournament):
    response = give(referee_client, "yellow", next=sheet_url())
    assert response.status_code == 302 and response["Location"] == sheet_url()
    card = Card.objects.get()
    assert (card.colour, card.reason, card.given_by, card.round.number) == ("yellow", "untidy table", referee, 1)
    assert player().status == "active"
    entry = AuditEntry.objects.get(action="card")
    assert entry.after == {"player": "p2", "name": "Gracz 2", "colour": "yellow", "round": 1}
    assert entry.user == referee and entry.reason == "untidy table"


# Drawn by a Jinja2 template (scoring/card_confirm.html): an apostrophe is escaped as &#39;.
SECOND_YELLOW = "This is Gracz 2&#39;s second yellow card: Gracz 2 will be disqualified."


def test_the_second_yellow_card_disqualifies_once_confirmed_and_says_so_as_a_warning(referee_client, tournament):
    give(referee_client, "yellow")
    response = give(referee_client, "yellow", reason="talking during a move", confirm="yellow")
    assert player().status == "disqualified"
    assert AuditEntry.objects.filter(action="disqualify").count() == 1
    page = referee_client.get(response["Location"]).content.decode()
    # a sentence (capital first), in a warning, not a success
    assert (
        '<li class="message message--warning">Yellow card for Gracz 2 recorded. Gracz 2 is disqualified.</li>' in page
    )


def test_a_second_yellow_card_sent_without_its_confirmation_is_refused_and_nothing_stored(referee_client, tournament):
    give(referee_client, "yellow")
    response = give(referee_client, "yellow", reason="talking during a move")
    assert response.status_code == 200
    html = response.content.decode()
    assert SECOND_YELLOW in html and "card-confirm--yellow confirm-large is-refused" in html
    assert Card.objects.count() == 1 and player().status == "active"
    assert not AuditEntry.objects.filter(action="disqualify").exists()


def test_a_yellow_card_sent_twice_is_stored_once(referee_client, tournament):
    """A double tap or a retried request: the second arrival would be the second yellow card,
    unconfirmed, so it is refused; the player keeps one yellow card and is not disqualified."""
    first, second = give(referee_client, "yellow"), give(referee_client, "yellow")
    assert first.status_code == 302 and second.status_code == 200
    assert Card.objects.filter(colour="yellow").count() == 1 and player().status == "active"


def test_a_confirmed_second_yellow_card_sent_twice_is_stored_once(referee_client, tournament):
    give(referee_client, "yellow")
    first = give(referee_client, "yellow", reason="talking during a move", confirm="yellow")
    second = give(referee_client, "yellow", reason="talking during a move", confirm="yellow")
    assert first.status_code == 302 and second.status_code == 200
    assert "Gracz 2 is disqualified already: nothing more was recorded." in second.content.decode()
    assert Card.objects.filter(colour="yellow").count() == 2
    assert AuditEntry.objects.filter(action="disqualify").count() == 1


def test_the_service_refuses_a_disqualifying_card_unconfirmed(head_referee, tournament):
    cards.give_card(player(), "yellow", "untidy table", user=head_referee)
    for colour in ("yellow", "red"):
        with pytest.raises(Refused) as refused:
            cards.give_card(player(), colour, "again", user=head_referee)
        assert refused.value.field == "confirm" and "Gracz 2 will be disqualified" in refused.value.message
    assert Card.objects.count() == 1 and player().status == "active"
    cards.give_card(player(), "red", "gross violation", user=head_referee, confirmed=True)
    assert player().status == "disqualified"


def test_the_confirmation_of_a_yellow_card_does_not_confirm_a_red_one(head_referee_client, tournament):
    response = give(head_referee_client, "red", reason="gross violation", confirm="yellow")
    assert "A red card disqualifies at once: Gracz 2 will be disqualified." in response.content.decode()
    assert not Card.objects.exists()


def test_a_card_for_a_player_disqualified_already_needs_no_confirmation(referee_client, tournament):
    Player.objects.filter(ext_id="p2").update(status="disqualified")
    give(referee_client, "yellow")
    give(referee_client, "yellow")
    assert Card.objects.count() == 2


def test_the_card_forms_show_the_cards_so_far_and_name_the_disqualification(referee, head_referee, tournament):
    referee_client, head_referee_client = Client(), Client()
    referee_client.force_login(referee)
    head_referee_client.force_login(head_referee)
    give(referee_client, "yellow", reason="untidy table")
    sheet = referee_client.get(sheet_url()).content.decode()
    assert "Cards so far" in sheet and "untidy table" in sheet
    assert sheet.count(SECOND_YELLOW) == 1  # only Gracz 2 holds a yellow card
    assert 'name="confirm" value="yellow" id="card-B-confirm-yellow"' in sheet
    assert "card-confirm--red" not in sheet  # a referee gives no red card
    page = head_referee_client.get(reverse("scoring:player", kwargs={"slug": "test", "player_id": player().pk}))
    html = page.content.decode()
    assert SECOND_YELLOW in html and "A red card disqualifies at once: Gracz 2 will be disqualified." in html


def test_warnings_are_recorded_without_effect(referee_client, tournament):
    for _ in range(3):
        give(referee_client, "warning")
    assert Card.objects.filter(colour="warning").count() == 3
    assert player().status == "active"


def test_a_red_card_is_for_the_head_referee_only(referee_client, tournament):
    response = give(referee_client, "red")
    assert response.status_code == 200
    assert "Choose a warning, a yellow card or a red card." in response.content.decode()
    assert not Card.objects.exists() and player().status == "active"


def test_a_red_card_disqualifies_at_once(head_referee_client, tournament):
    give(head_referee_client, "red", reason="gross violation", confirm="red")
    assert player().status == "disqualified"


def test_the_service_refuses_a_red_card_from_a_referee(referee, tournament):
    with pytest.raises(Refused) as refused:
        cards.give_card(player(), "red", "gross violation", user=referee, confirmed=True)
    assert refused.value.code == "head_referee_only"
    assert not Card.objects.exists()


def test_a_card_needs_a_reason(referee_client, tournament):
    response = give(referee_client, "yellow", reason="   ")
    assert response.status_code == 200
    assert "Give a reason for this change." in response.content.decode()
    assert not Card.objects.exists()


def test_a_foreign_next_url_is_ignored(referee_client, tournament):
    response = give(referee_client, "warning", next="https://example.com/")
    assert response["Location"] == reverse("scoring:player", kwargs={"slug": "test", "player_id": player().pk})


def test_a_disqualified_player_is_marked_on_the_referee_pages(referee_client, tournament):
    Player.objects.filter(ext_id="p2").update(status="disqualified")
    pages = [
        reverse("scoring:home", kwargs={"slug": "test"}),
        sheet_url(),
        reverse("scoring:players", kwargs={"slug": "test"}),
        reverse("scoring:player", kwargs={"slug": "test", "player_id": player().pk}),
    ]
    for url in pages:
        html = referee_client.get(url).content.decode()
        assert 'class="badge badge--dq"' in html, url


def test_the_player_page_lists_the_cards(referee_client, tournament):
    give(referee_client, "warning", reason="untidy table")
    give(referee_client, "yellow", reason="comments to a neighbour")
    html = referee_client.get(
        reverse("scoring:player", kwargs={"slug": "test", "player_id": player().pk})
    ).content.decode()
    assert "untidy table" in html and "comments to a neighbour" in html


def test_players_list_queries_do_not_grow(referee_client, django_assert_max_num_queries):
    build(40)
    with django_assert_max_num_queries(8):
        assert referee_client.get(reverse("scoring:players", kwargs={"slug": "test"})).status_code == 200
