"""Cards in Chromium: the second yellow card from the score sheet asks for a confirmation that names
the disqualification, disqualifies once confirmed (a warning, not a success), and the head
referee withdraws it with a reason: the player is no longer disqualified and the public
standings rank them again."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import expect

from accounts.services import make_member
from scoring.models import Card
from tests.factories import build, four_games, started_round, table
from tests.support.browser import PHONE, screenshot, signed_in_page
from tournament.models import AuditEntry, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SECOND_YELLOW = "This is Gracz 2's second yellow card: Gracz 2 will be disqualified."


def staff(username, group):
    user = User.objects.create_user(username, password="secret-pass-123")
    make_member(user, group)
    return user


def standing_of(phone, base, name):
    """(place shown, disqualified?) of a player on the public standings."""
    phone.goto(f"{base}/t/test/standings/")
    row = phone.locator("#leaderboard tr", has_text=name)
    return row.locator("td.rank").inner_text().strip(), "row--dq" in (row.get_attribute("class") or "")


def give_from_the_sheet(page, colour, reason):
    """Open seat B's card form on the sheet, choose the colour and write the reason."""
    seat = page.locator(".seat-card", has_text="Gracz 2")
    seat.locator("summary").click()
    seat.locator(f"label[for=card-B-colour-{colour}]").click()
    seat.locator("textarea[name=reason]").fill(reason)
    return seat


def test_a_second_yellow_is_confirmed_disqualifies_and_its_withdrawal_lifts_the_disqualification(live_server, new_page):
    build(4, rounds=[started_round(table(1, ["p1", "p2", "p3", "p4"], four_games(), state="verified"))])
    base = live_server.url
    referee = signed_in_page(new_page, live_server, Client(), staff("tablet", "referee"))
    phone = new_page(PHONE)
    place, disqualified = standing_of(phone, base, "2 Gracz")
    assert any(c.isdigit() for c in place) and not disqualified

    # The first yellow card from the sheet: a plain success.
    referee.goto(f"{base}/referee/test/round/1/table/1/")
    with referee.expect_navigation():
        give_from_the_sheet(referee, "yellow", "untidy table").locator("button[type=submit]").click()
    expect(referee.locator(".messages .message--success")).to_have_text("Yellow card for Gracz 2 recorded.")

    # The second: the form lists the first and names the disqualification when yellow is chosen.
    seat = give_from_the_sheet(referee, "warning", "talking during a move")
    expect(seat.locator(".cards-so-far")).to_contain_text("untidy table")
    confirmation = seat.locator(".card-confirm--yellow")
    expect(confirmation).to_be_hidden()
    seat.locator("label[for=card-B-colour-yellow]").click()
    expect(confirmation).to_be_visible()
    expect(confirmation).to_contain_text(SECOND_YELLOW)
    screenshot(referee, "cards-second-yellow-asks")

    # Sent without the confirmation: refused with the same sentence, nothing stored.
    with referee.expect_navigation():
        seat.locator("button[type=submit]").click()
    refused = referee.locator(".card-form .card-confirm--yellow")
    expect(refused).to_be_visible()
    expect(refused.locator("[role=alert]")).to_have_text(SECOND_YELLOW)
    assert Card.objects.count() == 1 and Player.objects.get(ext_id="p2").status == "active"

    # Confirmed: back to the sheet, disqualified, said in a warning.
    refused.locator("label").click()
    with referee.expect_navigation():
        referee.click(".card-form button[type=submit]")
    assert referee.url.endswith("/referee/test/round/1/table/1/")
    expect(referee.locator(".messages .message--warning")).to_have_text(
        "Yellow card for Gracz 2 recorded. Gracz 2 is disqualified."
    )
    assert referee.locator(".messages .message--success").count() == 0
    screenshot(referee, "cards-second-yellow-disqualifies")
    assert Player.objects.get(ext_id="p2").status == "disqualified"
    place, disqualified = standing_of(phone, base, "2 Gracz")
    assert disqualified and place == "DQ"

    # The head referee withdraws the second yellow card, with a reason.
    head = signed_in_page(new_page, live_server, Client(), staff("head", "head_referee"))  # a session of its own
    second = Card.objects.get(reason="talking during a move")
    head.goto(f"{base}/referee/test/player/{second.player_id}/")
    item = head.locator(f"#card-{second.pk}")
    item.locator("summary", has_text="Withdraw this card").click()
    item.locator("textarea[name=reason]").fill("given to the wrong player")
    with head.expect_navigation():
        item.locator("button[type=submit]").click()
    expect(head.locator(".messages .message--success")).to_have_text(
        "Yellow card for Gracz 2 withdrawn. Gracz 2 is no longer disqualified."
    )
    item = head.locator(f"#card-{second.pk}")
    expect(item.locator("s").first).to_have_text("yellow card")
    expect(item.locator(".card-history__withdrawn")).to_contain_text("Withdrawn by head at")
    expect(item.locator(".card-history__withdrawn")).to_contain_text("given to the wrong player")
    assert head.locator(".badge--dq").count() == 0
    screenshot(head, "cards-withdrawn")
    assert Player.objects.get(ext_id="p2").status == "active"
    assert AuditEntry.objects.filter(action="lift_disqualification").count() == 1

    # The standings rank the player again.
    place, disqualified = standing_of(phone, base, "2 Gracz")
    assert any(c.isdigit() for c in place) and "DQ" not in place and not disqualified

    # The sheet's card form shows the withdrawn card struck through; a new yellow is the second again.
    referee.goto(f"{base}/referee/test/round/1/table/1/")
    seat = give_from_the_sheet(referee, "yellow", "talking again")
    expect(seat.locator(".cards-so-far__item.is-withdrawn s")).to_have_text("yellow card")
    expect(seat.locator(".card-confirm--yellow")).to_contain_text(SECOND_YELLOW)
