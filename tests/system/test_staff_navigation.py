"""Every staff page of a tournament reaches its dashboard, and the head referee's pages reach results
visibility and the ceremony (issue 31.6): checked on every page the URL conf has, for every role,
on the demo tournament (the pages are enumerated as in test_every_page)."""

import pytest
from django.urls import reverse

from organiser.demo import DEMO_SLUG
from tests.support.pages import client_for, pages, world  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

PUBLIC = (f"/t/{DEMO_SLUG}/", f"/print/{DEMO_SLUG}/public/", "/print/help/", "/help/")
NOT_OF_A_TOURNAMENT = ("/accounts/device/sign-in/",)


def staff_pages_of_the_tournament(world, client):  # noqa: F811
    """(url, html) of every page of the demo tournament that `client` opens as a staff page (whole
    pages: the dashboard's polled status is a fragment of the dashboard)."""
    found = []
    for _route, url in pages(world):
        if DEMO_SLUG not in url or url.startswith(NOT_OF_A_TOURNAMENT):
            continue
        if url.startswith(PUBLIC) and not url.startswith(f"/t/{DEMO_SLUG}/results-control/"):
            continue
        response = client.get(url)
        if (
            response.status_code == 200
            and response["Content-Type"].startswith("text/html")
            and b"<html" in response.content
        ):
            found.append((url, response.content.decode()))
    return found


@pytest.mark.parametrize("role, at_least", [("referee", 6), ("head referee", 10), ("organiser", 20)])
def test_every_staff_page_links_to_the_dashboard_and_the_head_referees_to_the_ceremony(world, role, at_least):  # noqa: F811
    dashboard = reverse("organiser:dashboard", args=[DEMO_SLUG])
    control = reverse("public:results_control", args=[DEMO_SLUG])
    client = client_for(role)
    found = staff_pages_of_the_tournament(world, client)
    assert len(found) >= at_least
    missing = [url for url, html in found if f'href="{dashboard}"' not in html]
    assert not missing, f"no link to the dashboard on: {missing}"
    referee_pages = [(url, html) for url, html in found if url.startswith(f"/referee/{DEMO_SLUG}/")]
    assert len(referee_pages) >= 5  # tables, players, a sheet, its log, a player…
    with_control = [url for url, html in referee_pages if f'href="{control}"' in html]
    if role == "referee":
        assert with_control == []  # results visibility is the head referee's
        return
    assert with_control == [url for url, _html in referee_pages], "the head referee's pages link to results visibility"
    page = client.get(control).content.decode()
    assert f'href="{reverse("public:ceremony", args=[DEMO_SLUG])}"' in page
