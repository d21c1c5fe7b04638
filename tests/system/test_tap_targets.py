"""Every link and button is a 44×44 CSS px target (issue 31.5): the public pages on a 390×844 phone,
the staff pages on a 768×1024 tablet, measured in Chromium on the demo tournament (long Polish
names, two rounds played, the third published, a medal revealed).

Each a, button, input[type=submit] and summary that is shown is measured by its bounding box; a
plain link in a sentence or a table cell may keep its line and reach 44 px by its padding, so the
test also taps the top and the bottom edge of each box (elementFromPoint) and wants the target
itself there, not the text around it. The staff pages are every page of the URL conf that the role
opens (as in test_every_page), so a new page cannot escape. With SCREENSHOTS=1 a screenshot of each page is kept in
test-artifacts/ to look at."""

import re

import pytest
from django.contrib.auth.models import User

from organiser import services
from organiser.demo import DEMO_SLUG
from scoring.services.visibility import advance_ceremony
from tests.support.browser import PHONE, TABLET, screenshot, signed_in_page
from tests.support.pages import ROLES, pages
from tests.support.pages import world as demo_world  # noqa: F401 (a fixture)
from tournament.models import Player, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALLEST = 44
S = f"/t/{DEMO_SLUG}"
# Only what a person can see and tap: the hidden default button of a form (aria-hidden) is not a target.
MEASURE = """(smallest) => {
  const problems = [];
  let count = 0;
  for (const el of document.querySelectorAll("a, button, input[type=submit], summary")) {
    if (!el.checkVisibility({visibilityProperty: true}) || el.closest("[aria-hidden=true]")) continue;  // shown: not in a closed <details> either
    count++;
    const name = `${el.tagName.toLowerCase()} “${(el.innerText || el.value || el.getAttribute("aria-label") || "").trim().replace(/\\s+/g, " ").slice(0, 40)}”`;
    const box = el.getBoundingClientRect();
    if (box.width < smallest - 0.5 || box.height < smallest - 0.5) {
      problems.push(`${name}: ${box.width.toFixed(0)}×${box.height.toFixed(0)} px`);
      continue;
    }
    el.scrollIntoView({block: "center", inline: "nearest"});
    const rects = el.getClientRects(), first = rects[0], last = rects[rects.length - 1];
    const edges = [[first.left + first.width / 2, el.getBoundingClientRect().top + 3],
                   [last.left + last.width / 2, el.getBoundingClientRect().bottom - 3]];
    for (const [x, y] of edges) {
      const hit = document.elementFromPoint(x, y);
      if (hit && hit !== el && !el.contains(hit)) {
        problems.push(`${name}: its edge at y=${y.toFixed(0)} taps ${hit.tagName.toLowerCase()}.${hit.className}`);
        break;
      }
    }
  }
  window.scrollTo(0, 0);
  return {count, problems};
}"""


@pytest.fixture
def world(demo_world):  # noqa: F811
    """The demo with round 3 published and the bronze medal revealed on the ceremony screen."""
    services.publish_round(Round.objects.get(tournament=demo_world["tournament"], number=3), user=None)
    advance_ceremony(demo_world["tournament"])
    return demo_world


def small_targets(page, url, name):
    page.goto(url)
    page.wait_for_load_state("networkidle")
    measured = page.evaluate(MEASURE, SMALLEST)
    screenshot(page, name)
    return measured["count"], [f"{url}: {problem}" for problem in measured["problems"]]


def artifact_name(prefix, path):
    return prefix + "-" + (re.sub(r"[^\w]+", "-", path).strip("-") or "home")


def test_every_public_link_and_button_is_44_px_on_a_phone(live_server, new_page, world):
    player = Player.objects.filter(tournament=world["tournament"]).order_by("pk").first()
    paths = [
        "/",
        f"{S}/",
        f"{S}/?q=kow",
        f"{S}/standings/",
        f"{S}/round/1/",
        f"{S}/round/3/",
        f"{S}/player/{player.ext_id}/",
        f"{S}/timer",
        f"{S}/ceremony/",
        f"{S}/projector/",
        "/s/sezon-demo/",  # the demo's season (tests/support/pages.py)
        "/help/",
        "/help/organiser/",
        "/help/head-referee/",
        "/help/referee/",
    ]
    page = new_page(PHONE, locale="pl-PL")
    counted, problems = 0, []
    for path in paths:
        count, found = small_targets(page, live_server.url + path, artifact_name("phone", path))
        counted += count
        problems += found
    assert not problems, f"{len(problems)} targets under {SMALLEST} px:\n" + "\n".join(problems)
    assert counted >= 250  # every player's name is a link: the pages were measured whole


@pytest.mark.parametrize(
    "role", ["referee", "organiser"]
)  # the organiser opens every staff page, the head referee's too
def test_every_staff_link_and_button_is_44_px_on_a_tablet(live_server, new_page, client, world, role):
    user = User.objects.get(username=ROLES[role])
    page = signed_in_page(new_page, live_server, client, user, TABLET)
    page.context.add_cookies([{"name": "django_language", "value": "pl", "url": live_server.url}])
    counted, problems, seen = 0, [], 0
    for _route, path in pages(world):
        if (
            path.startswith(("/t/", "/help/", "/accounts/login/", "/accounts/device/sign-in/"))
            and "results-control" not in path
        ):
            continue  # public pages (measured on the phone) and the sign-in pages
        response = client.get(path)
        if (
            response.status_code != 200
            or not response["Content-Type"].startswith("text/html")
            or b"<html" not in response.content
        ):
            continue
        seen += 1
        count, found = small_targets(
            page, live_server.url + path, artifact_name(f"tablet-{role.replace(' ', '-')}", path)
        )
        counted += count
        problems += found
    assert not problems, f"{len(problems)} targets under {SMALLEST} px:\n" + "\n".join(problems)
    assert seen >= {"referee": 6, "organiser": 25}[role]
