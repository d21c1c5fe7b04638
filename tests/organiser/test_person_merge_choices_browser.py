"""Issue 50 in Chromium: on a person's page of an organisation with many people, "the same person
as…" offers 30 and a search; typing part of a name without Polish letters finds the person, who is
chosen and merged, and the merge is undone. Screenshots at 768×1024 and 390×844 in
test-artifacts/ with SCREENSHOTS=1."""

import pytest
from playwright.sync_api import expect

from tests.factories import build
from tests.support.browser import PHONE, TABLET, assert_no_horizontal_scroll, screenshot, signed_in_page
from tournament.models import Person

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def assert_big_enough(locator):
    box = locator.bounding_box()
    assert box["height"] >= 44, box  # a senior's finger


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["390", "768"])
def test_typing_part_of_a_name_finds_the_person_to_merge_into_and_the_merge_is_undone(
    live_server, new_page, client, organiser, viewport
):
    host = build(0).host
    for n in range(60):
        Person.objects.create(host=host, given_names=f"Osoba{n:02d}", surname=f"Adamczyk{n:02d}", club="UTW Kraków")
    józef = Person.objects.create(host=host, given_names="Józef", surname="Ślązak", club="UTW Kraków")
    record = Person.objects.create(host=host, given_names="Jozef", surname="Slazak-Nowy", club="UTW Kraków")
    page = signed_in_page(new_page, live_server, client, organiser, viewport)
    page.goto(f"{live_server.url}/staff/test/people/{record.pk}/#merge")
    survivor = page.locator("#merge select")
    expect(survivor.locator("option")).to_have_count(31)  # "—" and 30 of the 61 others
    expect(page.locator("#merge-found")).to_have_text("Showing 30 of 61 people: search by name for the others.")
    assert survivor.locator(f'option[value="{józef.pk}"]').count() == 0
    for target in (page.locator("#merge-find"), page.get_by_role("button", name="Search", exact=True), survivor):
        assert_big_enough(target)
    screenshot(page, f"person-merge-list-{viewport['width']}")

    page.locator("#merge-find").fill("jozef slaz")
    page.get_by_role("button", name="Search", exact=True).click()
    expect(survivor.locator("option")).to_have_count(2)
    expect(page.locator("#merge-find")).to_have_value("jozef slaz")
    survivor.select_option(str(józef.pk))
    page.locator("#merge textarea").fill("Ta sama osoba: nazwisko wpisane bez polskich liter")
    assert_no_horizontal_scroll(page)
    screenshot(page, f"person-merge-found-{viewport['width']}")
    page.get_by_role("button", name="Merge into the chosen person").click()
    expect(page.locator(".message").first).to_contain_text("Jozef Slazak-Nowy is now one person with Józef Ślązak")
    record.refresh_from_db()
    assert record.merged_into_id == józef.pk

    page.locator("#merged-records a").click()
    page.locator("#undo-merge textarea").fill("Pomyłka: to dwie osoby")
    page.get_by_role("button", name="Undo: a person of their own again").click()
    expect(page.locator(".message").first).to_contain_text("is a person of their own again")
    record.refresh_from_db()
    assert record.merged_into_id is None
