"""A whole tournament played in Chromium as its users would (issue 7, item 1).

An organiser on a tablet creates the tournament, imports 18 players, checks them in and
prints the tablets' sign-in sheet; three referee tablets sign in with its links. The organiser
draws, publishes, starts and prints round 1; the tablets enter and submit every sheet; the
head referee verifies them and gives a yellow card and a red one (that player is not seated
again); a phone watches the public standings; the results are hidden before the last
qualifying round; a tie at the last seat of the final, if the draw made one, is decided; the
final is seated, played and verified; the results are revealed; the ceremony shows 3rd, 2nd
and 1st place one click at a time; the diplomas download. With SCREENSHOTS=1 every step leaves a screenshot in
`test-artifacts/`.
"""

import io
import os
import re
import time
from pathlib import Path

import pytest
from django.test import Client
from pypdf import PdfReader

from scoring.models import Card, ScoreSheet
from scoring.selectors.sheets import ties_to_decide
from scoring.selectors.standings import compute_standings
from tests.support.browser import (
    ARTIFACTS,
    DRAW_WAIT,
    PHONE,
    TABLET,
    assert_no_horizontal_scroll,
    screenshot,
    signed_in_page,
)
from tests.support.browser_steps import SLUG, download_pdf, enter_sheet, pdf_text, post_button, public_names, sheet_url
from tournament.models import AuditEntry, Player, Round, Table, Tournament

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
pytestmark = [pytest.mark.full, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS_CSV = Path(__file__).resolve().parents[1] / "data" / "players-18.csv"
N_TABLETS = 3


def wait_until(condition, timeout=15.0, message="condition"):
    """Poll the database (the live server writes in another thread) until `condition()` holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {message}")


def play_round(tablets, head_page, live_server, round_number, *, before_verifying=lambda: None):
    """The tablets share the round's tables in turn; the head referee verifies every sheet."""
    tables = list(Table.objects.filter(round__tournament__slug=SLUG, round__number=round_number).order_by("number"))
    for index, table in enumerate(tables):
        tablet = tablets[index % len(tablets)]
        enter_sheet(tablet, live_server, table)
        if index < len(tablets):
            screenshot(tablet, f"e2e-r{round_number}-tablet{index + 1}-sheet-submitted")
    assert ScoreSheet.objects.filter(
        table__round__number=round_number, state=ScoreSheet.State.SUBMITTED
    ).count() == len(tables)
    submitters = AuditEntry.objects.filter(action="submit", sheet__table__round__number=round_number)
    assert submitters.values("user").distinct().count() == len(tablets)  # every tablet submitted its share
    before_verifying()
    for table in tables:
        head_page.goto(sheet_url(live_server, round_number, table.number))
        post_button(head_page, "/verify/")
        assert head_page.locator("#sheet-state.state--verified").count() == 1
    screenshot(head_page, f"e2e-r{round_number}-head-verified")
    verified = AuditEntry.objects.filter(action="verify", sheet__table__round__number=round_number)
    assert set(verified.values_list("user__username", flat=True)) == {"head"}
    return tables


def give_card(page, base, player, colour, reason):
    """Give a card from the player's page on the referee tablet; a card that disqualifies is
    confirmed in the box that names the disqualification."""
    page.goto(f"{base}/referee/{SLUG}/player/{player.pk}/")
    page.click(f"label[for=card-{colour}]")
    page.fill("form.card-form textarea[name=reason]", reason)
    confirmation = page.locator(f"form.card-form .card-confirm--{colour}")
    if confirmation.count():
        assert player.name in confirmation.inner_text()
        confirmation.locator("label").click()
    with page.expect_navigation():
        page.click("form.card-form button[type=submit]")


def print_device_sheet(staff, base, count):
    """The organiser prints sign-in links for `count` tablets with the dashboard's form; returns
    the links read off the sheet (as a tablet's camera reads them from the QR codes)."""
    staff.goto(f"{base}/staff/{SLUG}/")
    form = staff.locator("form.print-devices")
    fields = {
        name: form.locator(f"input[name={name}]").get_attribute("value")
        for name in ("csrfmiddlewaretoken", "label", "valid_hours")
    }
    # The test server listens on this machine only: print its loopback address knowingly.
    form = {**fields, "count": str(count), "address": "loopback"}
    response = staff.context.request.post(f"{base}/print/{SLUG}/devices.pdf", form=form)
    assert response.ok and response.headers["content-type"].startswith("application/pdf")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "e2e-02-device-sheet.pdf").write_bytes(response.body())
    text = "".join(pdf_text(PdfReader(io.BytesIO(response.body()))).split())
    return re.findall(r"http://[^/]+/accounts/device/sign-in/[A-Za-z0-9_-]+/", text)


def sign_in_tablet(page, link):
    """A tablet opens its sign-in link and confirms; it lands on the tournament's tables."""
    page.goto(link)
    with page.expect_navigation():
        page.click(".device-confirm button[type=submit]")
    assert page.url.endswith(f"/referee/{SLUG}/")
    return page


def test_a_whole_tournament_in_the_browser(new_page, live_server, organiser, head_referee):
    base = live_server.url
    staff = signed_in_page(new_page, live_server, Client(), organiser, TABLET)
    head = signed_in_page(new_page, live_server, Client(), head_referee, TABLET)
    phone = new_page(PHONE)

    # The organiser creates the tournament: two qualifying rounds, a two-game final.
    staff.goto(f"{base}/staff/new/")
    staff.fill("#id_name", "Turniej Seniorów – próba generalna")
    staff.fill("#id_slug", SLUG)
    staff.fill("#id_date", "2026-11-21")
    staff.fill("#id_rounds_planned", "2")
    staff.fill("#id_final_games", "2")
    assert staff.is_checked("#id_final")
    assert not staff.is_checked("#id_auto_freeze")
    assert_no_horizontal_scroll(staff)
    screenshot(staff, "e2e-01-create")
    staff.click("form.settings-form button[type=submit]")
    staff.wait_for_url(f"{base}/staff/{SLUG}/players/")
    tournament = Tournament.objects.get(slug=SLUG)
    assert (tournament.rounds_planned, tournament.final, tournament.final_games) == (2, True, 2)

    # Import the players and check everyone in.
    staff.goto(f"{base}/staff/{SLUG}/players/import/")
    staff.set_input_files("#import-form input[type=file]", str(PLAYERS_CSV))
    staff.click("#import-form button[type=submit]")
    staff.wait_for_url(f"{base}/staff/{SLUG}/players/")  # htmx's client-side redirect
    assert Player.objects.filter(tournament=tournament).count() == 18
    post_button(staff, "/players/check-in-everyone/")
    assert Player.objects.filter(tournament=tournament, present=True).count() == 18
    screenshot(staff, "e2e-02-players")

    # The referees' tablets sign in with the links on the sheet the organiser prints.
    links = print_device_sheet(staff, base, N_TABLETS)
    assert len(links) == N_TABLETS
    tablets = [sign_in_tablet(new_page(TABLET), link) for link in links]

    # Draw, publish and start round 1.
    staff.goto(f"{base}/staff/{SLUG}/draw/")
    staff.click("#draw-form button[type=submit]")
    staff.wait_for_url(f"{base}/staff/{SLUG}/rounds/1/", timeout=DRAW_WAIT)  # htmx's client-side redirect
    sizes = sorted(t.seats.count() for t in Table.objects.filter(round__tournament=tournament, round__number=1))
    assert sizes == [3, 3, 4, 4, 4]
    screenshot(staff, "e2e-03-drawn")
    staff.goto(f"{base}/staff/{SLUG}/")
    post_button(staff, "/rounds/1/publish/")
    post_button(staff, "/rounds/1/start/")
    assert Round.objects.get(tournament=tournament, number=1).state == Round.State.STARTED
    screenshot(staff, "e2e-04-started")

    # Print: the score sheets of round 1 from the print menu.
    staff.goto(f"{base}/print/{SLUG}/")
    screenshot(staff, "e2e-05-print-menu")
    href = staff.locator("a[href$='/round/1/score-sheets.pdf']").first.get_attribute("href")
    href += "?address=loopback"  # the test server listens on this machine only: print its address knowingly
    sheets_pdf = download_pdf(staff, base + href if href.startswith("/") else href, "e2e-05-score-sheets")
    assert len(sheets_pdf.pages) >= 5
    assert "Genowefa Gąsior" in pdf_text(sheets_pdf)

    # The phone sees the tournament before any result is verified.
    phone.goto(f"{base}/t/{SLUG}/standings/")
    assert public_names(phone) == []
    screenshot(phone, "e2e-06-phone-before")

    # Round 1: three tablets enter every sheet, the head referee verifies them.
    def submitted_is_not_public():
        phone.reload()
        assert public_names(phone) == []

    play_round(tablets, head, live_server, 1, before_verifying=submitted_is_not_public)
    phone.reload()
    assert public_names(phone) == [row.player.surname_first for row in compute_standings(tournament)]
    assert len(public_names(phone)) == 18
    assert_no_horizontal_scroll(phone)
    screenshot(phone, "e2e-07-phone-round-1")

    # The head referee gives a yellow card from the player page...
    carded, sent_off = Player.objects.filter(tournament=tournament).order_by("pk")[5:7]
    give_card(head, base, carded, "yellow", "Rozmowa przez telefon przy stole")
    assert Card.objects.filter(player=carded, colour="yellow").count() == 1
    screenshot(head, "e2e-08-yellow-card")

    # ... and a red card to another player, who is disqualified and not seated again.
    give_card(head, base, sent_off, "red", "Niesportowe zachowanie wobec sędziego")
    sent_off.refresh_from_db()
    assert sent_off.status == Player.Status.DISQUALIFIED
    screenshot(head, "e2e-08-red-card")

    # The organiser completes round 1.
    staff.goto(f"{base}/staff/{SLUG}/")
    post_button(staff, "/rounds/1/complete/")
    post_button(staff, "/rounds/1/complete/")  # the round's page asks first: "Yes, complete it"
    assert Round.objects.get(tournament=tournament, number=1).state == Round.State.COMPLETED
    screenshot(staff, "e2e-09-round-1-complete")

    # Before the last qualifying round the head referee hides the results.
    head.goto(f"{base}/t/{SLUG}/results-control/")
    head.click("button[name=visibility][value=hidden]")
    wait_until(lambda: Tournament.objects.get(pk=tournament.pk).visibility == "hidden", message="results hidden")
    screenshot(head, "e2e-10-hidden")
    phone.reload()
    assert public_names(phone) == []
    assert phone.locator("#leaderboard td.num").count() == 0
    screenshot(phone, "e2e-11-phone-hidden")

    # Round 2, played the same way.
    staff.goto(f"{base}/staff/{SLUG}/draw/")
    staff.click("#draw-form button[type=submit]")
    staff.wait_for_url(f"{base}/staff/{SLUG}/rounds/2/", timeout=DRAW_WAIT)  # htmx's client-side redirect
    seated = Table.objects.filter(round__tournament=tournament, round__number=2).values_list("seats__player", flat=True)
    assert len(seated) == 17 and sent_off.pk not in seated
    staff.goto(f"{base}/staff/{SLUG}/")
    post_button(staff, "/rounds/2/publish/")
    post_button(staff, "/rounds/2/start/")
    play_round(tablets, head, live_server, 2)
    phone.reload()
    assert public_names(phone) == []
    staff.goto(f"{base}/staff/{SLUG}/")
    post_button(staff, "/rounds/2/complete/")
    post_button(staff, "/rounds/2/complete/")  # the round's page asks first: "Yes, complete it"
    screenshot(staff, "e2e-12-round-2-complete")

    # A tie across the last seat of the final (the random draw may make one): the head referee
    # decides it by lot on the ties page before the final is seated.
    for tied in ties_to_decide(tournament):
        head.goto(f"{base}/referee/{SLUG}/ties/")
        for place, row in enumerate(tied, start=tied[0].rank):
            head.select_option(f"#id_place-{row.player.pk}", str(place))
        head.fill("#id_reason", "Losowanie przeprowadzone przez sędziego głównego")
        screenshot(head, "e2e-12b-tie")
        with head.expect_navigation():
            head.click("form.tie-form button[type=submit]")
    assert ties_to_decide(tournament) == []

    # The final: the top four at one table, two games, all won by seat A.
    staff.goto(f"{base}/staff/{SLUG}/")
    post_button(staff, f"/staff/{SLUG}/final/")
    screenshot(staff, "e2e-13-final-seated")
    assert staff.locator(".message--error").count() == 0, staff.locator(".message--error").inner_text()
    final = Round.objects.get(tournament=tournament, kind=Round.Kind.FINAL)
    staff.goto(f"{base}/staff/{SLUG}/")
    post_button(staff, f"/rounds/{final.number}/publish/")
    post_button(staff, f"/rounds/{final.number}/start/")
    final_table = final.tables.get()
    seats = {seat.letter: seat.player for seat in final_table.seats.select_related("player")}
    assert len(seats) == 4
    rack = {"B": 5, "C": 10, "D": 20}
    enter_sheet(tablets[0], live_server, final_table, winners=["A", "A"], tiles=lambda k, letter: rack[letter])
    screenshot(tablets[0], "e2e-14-final-sheet")
    head.goto(sheet_url(live_server, final.number, final_table.number))
    post_button(head, "/verify/")
    staff.goto(f"{base}/staff/{SLUG}/")
    post_button(staff, f"/rounds/{final.number}/complete/")
    post_button(staff, f"/rounds/{final.number}/complete/")  # the round's page asks first: "Yes, complete it"
    screenshot(staff, "e2e-15-final-complete")
    podium = {row.medal: row.player for row in compute_standings(tournament) if row.medal}
    assert podium == {"gold": seats["A"], "silver": seats["B"], "bronze": seats["C"]}

    # The head referee reveals the results; the phone sees them again.
    head.goto(f"{base}/t/{SLUG}/results-control/")
    head.click("button[name=visibility][value=live]")
    wait_until(lambda: Tournament.objects.get(pk=tournament.pk).visibility == "live", message="results live")
    phone.reload()
    assert public_names(phone)[:3] == [seats[letter].surname_first for letter in "ABC"]
    screenshot(phone, "e2e-16-phone-revealed")

    # The ceremony: 3rd, 2nd, then 1st, one click at a time; the phone follows.
    head.goto(f"{base}/t/{SLUG}/ceremony/")
    phone.goto(f"{base}/t/{SLUG}/ceremony/")
    assert phone.locator(".podium__place--shown").count() == 0
    for step, (place, medallist) in enumerate([(3, seats["C"]), (2, seats["B"]), (1, seats["A"])], start=1):
        head.click("#ceremony-stage a.button[href$='?confirm=next']")  # asks first, on the page
        head.click("#ceremony-stage button[name=ceremony][value=next]")
        head.locator(f".podium__place--{place}.podium__place--shown").wait_for()
        phone.locator(f".podium__place--{place}.podium__place--shown").wait_for(timeout=10_000)
        assert medallist.name in phone.locator(f".podium__place--{place}").inner_text()
        assert phone.locator(".podium__place--shown").count() == step
        screenshot(phone, f"e2e-17-ceremony-place-{place}")
    screenshot(head, "e2e-18-ceremony-head")

    # The diplomas, from the print menu.
    staff.goto(f"{base}/print/{SLUG}/")
    href = staff.locator("a[href$='/diplomas.pdf']").first.get_attribute("href")
    diplomas = download_pdf(staff, base + href if href.startswith("/") else href, "e2e-19-diplomas")
    assert seats["A"].name in pdf_text(diplomas)
    screenshot(staff, "e2e-19-print-diplomas")
