"""A new organiser's day in Chromium, on a tournament made in the UI (not the demo), with the
server on 127.0.0.1 as `make run` starts it: create the tournament, import players from a CSV
file, check in, draw, publish, start, print the score sheets and table cards on paper only (no
QR codes or links: tablets could not reach this server), enter and submit the sheets as a
referee, verify them as the head referee, read the standings as a player on a phone. Then the
round is completed and the next one drawn: the referee's start page says so.
"""

import pytest
from django.test import Client

from scoring.models import ScoreSheet
from tests.support.browser import DRAW_WAIT, PHONE, TABLET, assert_no_horizontal_scroll, screenshot, signed_in_page
from tests.support.browser_steps import SLUG, download_pdf, enter_sheet, pdf_text, post_button, public_names, sheet_url
from tournament.models import Player, Round, Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = [
    ("Anna Nowak", "UTW Kraków"),
    ("Jan Kowalski", "Klub Seniora Łódź"),
    ("Zofia Wiśniewska", "UTW Gdańsk"),
    ("Stanisław Żak", "UTW Poznań"),
    ("Halina Dąbrowska", "Klub Seniora Lublin"),
    ("Józef Lewandowski", "UTW Opole"),
    ("Krystyna Wójcik", "UTW Toruń"),
    ("Tadeusz Kamiński", "UTW Rzeszów"),
]
PAPER_ONLY = "Paper only: printed without QR codes or links"


def test_a_new_organisers_day_with_paper_only_printing(
    new_page, live_server, organiser, head_referee, referee, tmp_path, settings
):
    settings.LISTEN_HOST = "127.0.0.1"  # `make run`: this computer only
    base = live_server.url
    staff = signed_in_page(new_page, live_server, Client(), organiser, TABLET)
    tablet = signed_in_page(new_page, live_server, Client(), referee, TABLET)
    head = signed_in_page(new_page, live_server, Client(), head_referee, TABLET)
    phone = new_page(PHONE)

    # Create the tournament.
    staff.goto(f"{base}/staff/new/")
    staff.fill("#id_name", "Turniej Seniorów w Opolu")
    staff.fill("#id_slug", SLUG)
    staff.fill("#id_date", "2026-12-05")
    staff.fill("#id_rounds_planned", "3")
    staff.click("form.settings-form button[type=submit]")
    staff.wait_for_url(f"{base}/staff/{SLUG}/players/")
    tournament = Tournament.objects.get(slug=SLUG)

    # Import the players: the page greets with no error and counts the quota in words that agree.
    staff.goto(f"{base}/staff/{SLUG}/players/import/")
    assert staff.locator(".errorlist, .field--error").count() == 0
    assert "at most 1 player." in staff.locator("p.help").first.inner_text()
    screenshot(staff, "day-01-import")
    csv = tmp_path / "zawodnicy.csv"
    csv.write_text("name,organisation\n" + "".join(f"{name},{club}\n" for name, club in PLAYERS), encoding="utf-8")
    staff.set_input_files("#import-form input[type=file]", str(csv))
    staff.click("#import-form button[type=submit]")
    staff.wait_for_url(f"{base}/staff/{SLUG}/players/")
    assert "8 players imported." in staff.locator(".messages, .message").first.inner_text()
    assert Player.objects.filter(tournament=tournament).count() == 8

    # Check in, draw, publish, start.
    post_button(staff, "/players/check-in-everyone/")
    assert Player.objects.filter(tournament=tournament, present=True).count() == 8
    staff.goto(f"{base}/staff/{SLUG}/draw/")
    staff.click("#draw-form button[type=submit]")
    staff.wait_for_url(f"{base}/staff/{SLUG}/rounds/1/", timeout=DRAW_WAIT)
    staff.goto(f"{base}/staff/{SLUG}/")
    post_button(staff, "/rounds/1/publish/")
    post_button(staff, "/rounds/1/start/")
    assert Round.objects.get(tournament=tournament, number=1).state == Round.State.STARTED

    # Print on paper only: the menu says so, and the PDFs come without QR codes or links.
    staff.goto(f"{base}/print/{SLUG}/")
    notice = staff.locator(".paper-only")
    assert (
        "printed without QR codes and links" in notice.inner_text() and "make run HOST=0.0.0.0" in notice.inner_text()
    )
    screenshot(staff, "day-02-print-menu-paper-only")
    for link, name in (
        ("/round/1/score-sheets.pdf", "day-03-score-sheets"),
        ("/round/1/table-cards.pdf", "day-04-table-cards"),
    ):
        href = staff.locator(f"a[href$='{link}']").first.get_attribute("href")
        reader = download_pdf(staff, base + href, name)
        assert len(reader.pages) == 2
        assert all(PAPER_ONLY in " ".join(page.extract_text().split()) for page in reader.pages)
        assert "http" not in pdf_text(reader) and not any(page.images for page in reader.pages)
    assert "Anna Nowak" in pdf_text(
        download_pdf(staff, f"{base}/print/{SLUG}/round/1/score-sheets.pdf", "day-03-score-sheets")
    )

    # The referee enters and submits both sheets on a tablet; the head referee verifies them.
    tables = list(Table.objects.filter(round__tournament=tournament, round__number=1).order_by("number"))
    for table in tables:
        enter_sheet(tablet, live_server, table)
    screenshot(tablet, "day-05-sheet-submitted")
    for table in tables:
        head.goto(sheet_url(live_server, 1, table.number))
        post_button(head, "/verify/")
    assert ScoreSheet.objects.filter(table__round__number=1, state=ScoreSheet.State.VERIFIED).count() == 2
    screenshot(head, "day-06-verified")

    # A player reads the standings on a phone.
    phone.goto(f"{base}/t/{SLUG}/standings/")
    assert sorted(public_names(phone)) == sorted(
        " ".join(reversed(name.split())) for name, _club in PLAYERS
    )  # surname first
    assert_no_horizontal_scroll(phone)
    screenshot(phone, "day-07-phone-standings")

    # Round 1 completed, round 2 drawn but not published: the referee's page says what is true.
    staff.goto(f"{base}/staff/{SLUG}/")
    post_button(staff, "/rounds/1/complete/")
    post_button(staff, "/rounds/1/complete/")  # the round's page asks first: "Yes, complete it"
    staff.goto(f"{base}/staff/{SLUG}/draw/")
    staff.click("#draw-form button[type=submit]")
    staff.wait_for_url(f"{base}/staff/{SLUG}/rounds/2/", timeout=DRAW_WAIT)
    tablet.goto(f"{base}/referee/{SLUG}/")
    message = tablet.locator("main .message").first.inner_text()
    assert "Round 1 is completed. The next round is not published yet" in message
    assert "No round has been published yet" not in tablet.content()
    screenshot(tablet, "day-08-referee-between-rounds")
    tablet.click("text=Tables of round 1")
    tablet.wait_for_url(f"{base}/referee/{SLUG}/round/1/")
    assert tablet.locator(".table-button").count() == 2
