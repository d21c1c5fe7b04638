"""The score sheet on a 768 × 1024 tablet in Polish, with long surnames: every "who went out"
button holds its name and "Bank wyczerpany" inside its border, and no seat's name runs under its
"Kartka" button (screenshot in test-artifacts/ with SCREENSHOTS=1)."""

import pytest

from tests.support.browser import PHONE, screenshot
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


def test_the_round_totals_fit_a_390_px_phone_in_polish(live_server, new_page):
    """The season's walk: on a phone the round totals' table ran past the screen's edge ("Duże
    punkty" and "Wygrane partie" cut off, to be scrolled sideways inside the table)."""
    page = open_empty_sheet(live_server, new_page, locale="pl-PL")
    page.set_viewport_size(PHONE)
    for player, name in zip(Player.objects.order_by("start_number"), LONG_NAMES):
        player.name = name
        player.save(update_fields=["name"])
    page.reload()
    wrap = page.locator("#sheet-summary .table-wrap")
    screenshot(page, "sheet-totals-390")
    assert wrap.evaluate("w => w.scrollWidth - w.clientWidth") <= 0
    headers = [" ".join(text.split()) for text in page.locator("#sheet-summary thead th").all_inner_texts()]
    assert headers[1:] == ["Gracz", "Małe punkty", "Duże punkty", "Wygrane partie"]
    assert page.locator("#sheet-summary thead th").first.text_content() == "Krzesło"  # still read out


WORDS_CUT = """() => [...document.querySelectorAll("#sheet-summary tbody td:nth-child(2)")].flatMap(cell => {
  const room = cell.clientWidth - parseFloat(getComputedStyle(cell).paddingLeft) - parseFloat(getComputedStyle(cell).paddingRight);
  return cell.textContent.trim().split(/\\s+/).filter(word => {
    const probe = document.createElement("span");
    probe.style.whiteSpace = "nowrap";
    probe.textContent = word;
    cell.appendChild(probe);
    const wide = probe.getBoundingClientRect().width;
    probe.remove();
    return wide > room + 0.5;
  });
})"""


def test_the_round_totals_keep_usual_names_whole_on_a_390_px_phone(live_server, new_page):
    """The season's walk: once the totals fitted the phone, names were cut inside words ("Śliwiń-ska")
    while the figures' columns kept spare room; the names' column takes what the figures leave."""
    page = open_empty_sheet(live_server, new_page, locale="pl-PL")
    page.set_viewport_size(PHONE)
    names = ["Zofia Śliwińska", "Krystyna Pawlak", "Tadeusz Nowicki", "Genowefa Gąsior"]
    for player, name in zip(Player.objects.order_by("start_number"), names):
        player.name = name
        player.save(update_fields=["name"])
    page.reload()
    screenshot(page, "sheet-totals-names-390")
    assert page.evaluate(WORDS_CUT) == []
    assert page.locator("#sheet-summary .table-wrap").evaluate("w => w.scrollWidth - w.clientWidth") <= 0
