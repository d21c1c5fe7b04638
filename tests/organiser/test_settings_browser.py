"""New scoring settings that change verified results, in Chromium: the organiser sees what would
change where the save button was, and saves only after confirming it with a reason."""

import pytest
from playwright.sync_api import expect

from scoring.models import SeatResult
from tests.factories import build, out_game, table
from tests.support.browser import assert_no_horizontal_scroll, screenshot, signed_in_page
from tournament.models import AuditEntry, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_the_organiser_sees_what_changes_and_confirms_it_with_a_reason(
    new_page, live_server, client, organiser, viewport
):
    # B keeps 10 and a joker: −60 with jokers at 50, −40 at 30; A, who went out, +165 → +145.
    game = out_game(1, "A", B=(10, 1), C=(5, 0), D=(0, 0, "not_possible"))
    build(4, rounds=[{"number": 1, "tables": [table(1, ["p1", "p2", "p3", "p4"], [game], "verified")]}])
    page = signed_in_page(new_page, live_server, client, organiser, viewport)
    page.goto(f"{live_server.url}/staff/test/settings/")
    page.evaluate("window.notReloaded = true")
    page.fill("#id_joker_penalty", "30")
    page.get_by_role("button", name="Save the settings").click()

    plan = page.locator("#rescore")
    expect(plan.get_by_role("heading", name="These settings change verified results")).to_be_in_viewport()
    assert page.evaluate("window.notReloaded") is True  # htmx swapped the page in place
    text = " ".join(plan.inner_text().split())
    assert "Round 1 · Table 1" in text and "Gracz 2" in text and "game 1: −60 → −40" in text
    assert_no_horizontal_scroll(page)
    screenshot(page, f"settings-rescore-plan-{viewport['width']}")

    confirm = page.get_by_role("button", name="Save and change 2 verified results")
    confirm.click()
    expect(plan.locator(".errorlist")).to_contain_text("give the reason for changing verified results")
    assert Tournament.objects.get().joker_penalty == 50 and not AuditEntry.objects.exists()

    page.fill("#id_rescore-reason", "Regulamin zmieniony przed finałem")
    with page.expect_navigation():
        page.get_by_role("button", name="Save and change 2 verified results").click()
    assert page.url == f"{live_server.url}/staff/test/"
    expect(page.locator(".messages")).to_contain_text("2 results of verified sheets changed")
    assert dict(SeatResult.objects.values_list("letter", "score")) == {"A": 145, "B": -40, "C": -5, "D": -100}
    assert AuditEntry.objects.filter(action="rescore_result", reason="Regulamin zmieniony przed finałem").count() == 2
