"""The score sheet on a 768 × 1024 tablet in Polish, with long surnames: every "who went out"
button holds its name and "Bank wyczerpany" inside its border, and no seat's name runs under its
"Kartka" button (screenshot in test-artifacts/ with SCREENSHOTS=1)."""

import pytest

from tests.support.browser import screenshot
from tests.support.browser_steps import open_empty_sheet
from tournament.models import Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_NAMES = [
    "Zbigniewa Konstantynopolitańczykowska",
    "Grzegorz Brzęczyszczykiewicz",
    "Małgorzata Szczebrzeszyńska-Wiśniewska",
    "Jan Kowalski",
]

OVERFLOWS = """() => {
  const outside = (inner, outer) => inner.left < outer.left - 0.5 || inner.right > outer.right + 0.5;
  const found = [];
  for (const button of document.querySelectorAll(".choices--ending .choice")) {
    const box = button.getBoundingClientRect();
    if (button.scrollWidth > button.clientWidth || outside(box, button.closest(".choices").getBoundingClientRect()))
      found.push(button.textContent.trim());
    for (const part of button.querySelectorAll("span"))
      if (outside(part.getBoundingClientRect(), box)) found.push(part.textContent.trim());
  }
  for (const seat of document.querySelectorAll(".seat-card")) {
    const name = seat.querySelector(".seat-card__name").getBoundingClientRect();
    const card = seat.querySelector(".card-give summary").getBoundingClientRect();
    if (name.right > card.left) found.push(seat.textContent.trim().split("\\n")[0]);
  }
  return found;
}"""


def test_long_surnames_stay_inside_the_winner_buttons_at_768_px(live_server, new_page):
    page = open_empty_sheet(live_server, new_page, locale="pl-PL")
    for player, name in zip(Player.objects.order_by("start_number"), LONG_NAMES):
        player.name = name
        player.save(update_fields=["name"])
    page.reload()
    assert page.locator(".choices--ending .choice--pool").first.inner_text() == "Bank wyczerpany"
    screenshot(page, "sheet-long-surnames-768")
    assert page.evaluate(OVERFLOWS) == []
