"""A superuser on a service of many organisations types the new tournament's organisation in
Chromium, on a tablet and a phone: a wrong address is refused next to the field, the right one
makes the tournament."""

import pytest
from django.contrib.auth.models import User

from accounts.selectors import HOSTS_LISTED
from tests.support.browser import PHONE, TABLET, assert_no_horizontal_scroll, screenshot, signed_in_page
from tournament.models import HostOrganisation, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["tablet", "phone"])
def test_a_superuser_types_the_organisation_of_a_new_tournament(new_page, live_server, client, viewport):
    HostOrganisation.objects.all().delete()
    for n in range(HOSTS_LISTED + 3):
        HostOrganisation.objects.create(name=f"Klub Seniora {n:03}", slug=f"klub-{n:03}")
    lodz = HostOrganisation.objects.create(name="Uniwersytet Trzeciego Wieku Łódź", slug="utw-lodz")
    superuser = User.objects.create_superuser("operator", password="x")
    page = signed_in_page(new_page, live_server, client, superuser, viewport)
    page.goto(f"{live_server.url}/staff/new/")
    field = page.get_by_label("Organisation", exact=True)
    assert page.locator("select#id_host").count() == 0
    page.locator("#id_name").fill("Puchar Łodzi")
    field.fill("utw-lodzz")
    page.get_by_role("button", name="Create the tournament").click()
    page.get_by_text("No organisation you may choose has this short address or name.").wait_for()
    assert_no_horizontal_scroll(page)
    screenshot(page, f"host-lookup-refused-{viewport['width']}")
    assert not Tournament.objects.exists()
    page.get_by_label("Organisation", exact=True).fill("uniwersytet trzeciego wieku lodz")
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url("**/players/")
    assert Tournament.objects.get().host == lodz
