"""The organiser screens in Chromium: htmx row swaps, dashboard polling, no sideways scrolling."""

import pytest

from organiser import services
from scoring.models import ScoreSheet
from tests.factories import checked_in
from tests.support.browser import signed_in_page
from tournament.models import Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_check_in_swaps_the_row_and_the_dashboard_polls_the_sheet_states(new_page, live_server, client, organiser):
    tournament = checked_in(8)
    Player.objects.filter(ext_id="p3").update(present=False)
    page = signed_in_page(new_page, live_server, client, organiser)
    page.goto(f"{live_server.url}/staff/test/players/")
    page.evaluate("window.notReloaded = true")
    row = page.locator(f"#player-{Player.objects.get(ext_id='p3').pk}")
    row.get_by_role("button", name="Check in").click()
    row.get_by_text("Undo check-in").wait_for()
    assert page.evaluate("window.notReloaded") is True
    assert Player.objects.get(ext_id="p3").present

    round_ = services.draw_round(tournament, user=organiser)
    services.start_round(round_, user=organiser)
    page.goto(f"{live_server.url}/staff/test/")
    page.evaluate("window.notReloaded = true")
    assert page.locator(".table-tile--verified").count() == 0
    ScoreSheet.objects.filter(table__round=round_).update(state=ScoreSheet.State.VERIFIED)
    page.locator(".table-tile--verified").first.wait_for(timeout=15000)
    assert page.evaluate("window.notReloaded") is True
    assert page.get_by_role("button", name="Complete the round").is_visible()


@pytest.mark.parametrize("width, height", [(390, 844), (768, 1024)])
def test_no_organiser_page_scrolls_sideways(new_page, live_server, client, organiser, width, height):
    tournament = checked_in(14, players_per_organisation=2)
    services.add_player(
        tournament,
        name="Krystyna Wiśniewska-Szczepańska",
        organisation="Stowarzyszenie Seniorów „Aktywni” – Gorzów Wielkopolski",
        user=organiser,
    )
    round_ = services.draw_round(tournament, user=organiser)
    page = signed_in_page(new_page, live_server, client, organiser, {"width": width, "height": height})
    player = Player.objects.first()
    for path in ("", "players/", f"players/{player.pk}/", "players/import/", "draw/", "rounds/1/", "settings/"):
        page.goto(f"{live_server.url}/staff/test/{path}")
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), path
    services.start_round(round_, user=organiser)
    page.goto(f"{live_server.url}/staff/test/")
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
