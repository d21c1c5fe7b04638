"""Likely duplicates in Chromium (issue 48.3): the people page flags "Chmiel Teresa Maria" beside
"Maria Teresa Chmiel"; its link opens the person's page with that record chosen in "the same person
as…", and nothing is merged until the organiser gives a reason and confirms. Screenshots at 390×844
and 1280×720 in test-artifacts/ with SCREENSHOTS=1."""

import pytest
from playwright.sync_api import expect

from tests.support.browser import PHONE, assert_no_horizontal_scroll, screenshot, signed_in_page
from tests.support.people import pk_of, season_with_typos
from tournament.models import Person

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 720}], ids=["390", "1280"])
def test_a_flagged_duplicate_leads_to_the_merge_the_organiser_confirms(
    live_server, new_page, client, organiser, viewport
):
    season_with_typos()
    page = signed_in_page(new_page, live_server, client, organiser, viewport)
    page.goto(f"{live_server.url}/staff/test/people/")
    flags = page.locator("a.likely-duplicate")
    expect(flags).to_have_count(4)
    assert_no_horizontal_scroll(page)
    box = flags.first.bounding_box()
    assert box["height"] >= 44  # a senior's finger
    screenshot(page, f"people-likely-duplicates-{viewport['width']}")
    page.get_by_role("link", name="Maybe the same person as Chmiel Maria Teresa: compare and merge").click()
    survivor = page.locator("#merge select")
    expect(survivor).to_have_value(str(pk_of("Chmiel", "Maria Teresa")))
    assert not Person.objects.filter(merged_into__isnull=False).exists()  # chosen, not merged
    screenshot(page, f"person-merge-chosen-{viewport['width']}")
    page.locator("#merge textarea").fill("Ta sama osoba: imiona wpisane w innej kolejności")
    page.locator("#merge button[type=submit]").click()
    expect(page.locator(".message").first).to_contain_text("is now one person with")
    merged = Person.objects.get(surname="Maria", given_names="Chmiel Teresa")
    assert merged.merged_into_id == pk_of("Chmiel", "Maria Teresa")
