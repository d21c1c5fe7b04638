"""A returning person typed otherwise, in Chromium (issue 48.2): the import's answer names
"Lucja Wojcik → Łucja Wójcik, UTW Kraków, 1 earlier tournament" and one tap on the players' page
gives the player the person's spelling. Screenshots at 390×844 and 1280×720 with SCREENSHOTS=1."""

import pytest
from playwright.sync_api import expect

from tests.support.browser import PHONE, assert_no_horizontal_scroll, screenshot, signed_in_page
from tests.support.people import LINE, known_people
from tournament.models import AuditEntry, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 720}], ids=["390", "1280"])
def test_the_import_names_the_known_person_and_one_tap_takes_their_spelling(
    live_server, new_page, client, organiser, viewport, tmp_path
):
    known_people()
    listing = tmp_path / "lista.csv"
    listing.write_text("imię i nazwisko;organizacja\nLucja Wojcik;UTW Kraków\nJan Lis;Klub Seniora\n", "utf-8")
    page = signed_in_page(new_page, live_server, client, organiser, viewport)
    page.goto(f"{live_server.url}/staff/test/players/import/")
    page.locator("input[type=file]").set_input_files(str(listing))
    page.get_by_role("button", name="Import").click()
    expect(page.locator(".message", has_text="Recognised")).to_contain_text(LINE)
    button = page.get_by_role("button", name="Use “Łucja Wójcik”")
    expect(button).to_be_visible()
    assert button.bounding_box()["height"] >= 44
    assert_no_horizontal_scroll(page)
    screenshot(page, f"import-recognised-{viewport['width']}")
    button.click()
    expect(page.locator(".message", has_text="is now spelled")).to_have_text(
        "Lucja Wojcik is now spelled Łucja Wójcik."
    )
    expect(page.locator("#recognised")).to_have_count(0)
    expect(page.locator(".player-row__name", has_text="Wójcik Łucja")).to_be_visible()
    assert Player.objects.get(tournament__slug="test", organisation__name="UTW Kraków").name == "Łucja Wójcik"
    assert AuditEntry.objects.filter(action="player_spelling").count() == 1
    screenshot(page, f"import-recognised-respelled-{viewport['width']}")
