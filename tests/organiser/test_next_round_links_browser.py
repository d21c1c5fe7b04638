"""Navigation after a round (issue 48, point 9): a completed round's page offers the next step
(draw the next round, or seat the final once the qualifying rounds are over), and the dashboard
stops offering "Draw the next round" once the qualifying rounds are over and when the tournament
has ended; a completed final offers the ceremony and the printouts (the season walk). Screenshots at 390 × 844 and 768 × 1024 with SCREENSHOTS=1."""

import pytest
from playwright.sync_api import expect

from organiser import services
from tests.factories import checked_in, verify_sheets
from tests.support.browser import PHONE, TABLET, assert_no_horizontal_scroll, screenshot, signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def play(round_, user):
    services.start_round(round_, user=user)
    verify_sheets(round_)
    services.complete_round(round_, user=user)


def drawn_and_played(tournament, user):
    round_ = services.draw_round(tournament, user=user)
    play(round_, user)
    return round_


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["390", "768"])
def test_a_completed_round_offers_the_next_draw_then_the_final(live_server, new_page, client, organiser, viewport):
    tournament = checked_in(8, rounds_planned=2, final=True)
    drawn_and_played(tournament, organiser)
    page = signed_in_page(new_page, live_server, client, organiser, viewport)
    page.goto(f"{live_server.url}/staff/test/rounds/1/")
    draw = page.locator(".actions").get_by_role("link", name="Draw round 2")
    expect(draw).to_be_visible()
    assert_no_horizontal_scroll(page)
    screenshot(page, f"round-completed-draw-next-{viewport['width']}")
    draw.click()
    expect(page).to_have_url(f"{live_server.url}/staff/test/draw/")
    drawn_and_played(tournament, organiser)
    page.goto(f"{live_server.url}/staff/test/rounds/2/")
    actions = page.locator(".actions")
    expect(actions.get_by_role("button", name="Seat the final")).to_be_visible()
    expect(actions.get_by_role("link", name="Draw round 3")).to_have_count(0)
    page.goto(f"{live_server.url}/staff/test/rounds/1/")  # not the latest round: nothing to offer
    expect(page.locator(".actions")).to_have_count(0)


@pytest.mark.parametrize("final", [True, False], ids=["final-next", "over"])
def test_the_dashboard_no_longer_offers_a_draw_after_the_qualifying_rounds(
    live_server, new_page, client, organiser, final
):
    tournament = checked_in(8, rounds_planned=1, final=final)
    page = signed_in_page(new_page, live_server, client, organiser, PHONE)
    grid = page.locator(".action-grid")
    page.goto(f"{live_server.url}/staff/test/")
    expect(grid.get_by_role("link", name="Draw the next round")).to_be_visible()
    drawn_and_played(tournament, organiser)
    page.goto(f"{live_server.url}/staff/test/")
    expect(grid.get_by_role("link", name="Players and check-in")).to_be_visible()
    expect(grid.get_by_role("link", name="Draw the next round")).to_have_count(0)
    if final:
        expect(page.locator(".next-step").get_by_role("button", name="Seat the final")).to_be_visible()
    else:
        expect(page.get_by_text("The tournament is over.")).to_be_visible()
    screenshot(page, f"dashboard-after-qualifying-{'final' if final else 'over'}-390")


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["390", "768"])
def test_a_completed_final_offers_the_ceremony_and_the_printouts(live_server, new_page, client, organiser, viewport):
    """The season's walk: after the final, its page offered only "Dashboard"; the next steps are
    the ceremony (results visibility and ceremony) and the diplomas (the print menu)."""
    tournament = checked_in(4, rounds_planned=1, final=True)  # all four play the final: no tie at its cut
    drawn_and_played(tournament, organiser)
    play(services.seat_final(tournament, user=organiser), organiser)
    page = signed_in_page(new_page, live_server, client, organiser, viewport)
    page.goto(f"{live_server.url}/staff/test/rounds/2/")
    actions = page.locator(".actions")
    ceremony = actions.get_by_role("link", name="Results visibility and ceremony")
    expect(ceremony).to_be_visible()
    expect(actions.get_by_role("link", name="Printouts (PDF)")).to_be_visible()
    expect(actions.get_by_role("link", name="Dashboard")).to_be_visible()
    assert_no_horizontal_scroll(page)
    screenshot(page, f"final-completed-next-steps-{viewport['width']}")
    ceremony.click()
    expect(page).to_have_url(f"{live_server.url}/t/test/results-control/")
