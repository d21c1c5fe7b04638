"""The season walk's story between the rounds and after: a card and a correction with a reason in
the first tournament; the recognised spelling taken and the duplicate flagged and merged in the
second, whose results are hidden before its last round (the season then leaves it out); the
ceremonies; the season of both; the standings and the season checked against the hand
calculation; the public pages on a phone; the PDFs."""

from __future__ import annotations

from season_walk_kit import Walk, WalkError
from season_walk_play import ROUNDS, SLUGS, play_tournament, staff
from season_walk_sums import Ledger, person, season_rows, surname_first

SEASON = "sezon-2026"
CORRECTION = 10  # tiles the head referee finds on a rack after the sheet was verified


def card_and_correction(walk: Walk, head, slug: str, ledger: Ledger) -> None:
    """Round 1's first table: a yellow card for seat B, and game 1 corrected (seat B kept 10 tiles more)."""
    sheet = f"/referee/{slug}/round/1/table/1/"
    walk.go(head, sheet, "t1-head-verified-sheet")
    seats = {card.locator(".seat-letter").inner_text().strip(): card for card in head.locator("li.seat-card").all()}
    player = seats["B"].locator("a.seat-card__name")
    name, href = player.inner_text().strip(), player.get_attribute("href")
    walk.go(head, href, "t1-head-player")
    head.click("label[for=card-yellow]")
    head.fill("form.card-form textarea[name=reason]", "Rozmowa przez telefon przy stole")
    with head.expect_navigation():
        head.click("form.card-form button[type=submit]")
    walk.look(head, "t1-yellow-card")
    head.goto(walk.url(sheet))
    head.click("#game-1 summary.game__head")  # a verified sheet shows its games closed
    typed = int(head.locator("#g1-B-tiles").input_value())
    head.fill("#g1-B-tiles", str(typed + CORRECTION))
    head.fill("#game-1 [name=reason]", "Przeliczenie stojaka po zgłoszeniu gracza")
    head.click("#game-1 .save-button")
    head.wait_for_selector("#g1-status .status--saved")
    walk.look(head, "t1-corrected")
    winner = head.locator("li.seat-card a.seat-card__name").first.inner_text().strip()
    ledger.correct(winner, name, CORRECTION)


def ceremony(walk: Walk, head, slug: str, number: int) -> None:
    """The head referee reveals 3rd, 2nd and 1st place on the ceremony screen."""
    walk.go(head, f"/t/{slug}/ceremony/", f"t{number}-ceremony")
    for place in (3, 2, 1):
        head.click("#ceremony-stage a.button[href$='?confirm=next']")  # asks first, on the page
        head.click("#ceremony-stage button[name=ceremony][value=next]")
        head.locator(f".podium__place--{place}.podium__place--shown").wait_for()
    walk.look(head, f"t{number}-ceremony-done")


def no_medals_yet(walk: Walk, slug: str) -> None:
    """Before the final the phone shows no medal and says after which round (issue 48.1)."""
    phone = walk.new_page()
    walk.go(phone, f"/t/{slug}/standings/", "t1-public-standings-before-final")
    if phone.locator("#leaderboard .medal").count():
        raise WalkError("medals on the public standings before the final")
    if f"Po rundzie {ROUNDS} z {ROUNDS}" not in phone.locator("#leaderboard").inner_text():
        raise WalkError("the public standings do not say after which round")
    phone.context.close()


def visibility(walk: Walk, head, slug: str, value: str, name: str) -> None:
    walk.go(head, f"/t/{slug}/results-control/", f"{name}-control")
    head.click(f"button[name=visibility][value={value}]")
    head.locator(f"button[name=visibility][value={value}][aria-pressed=true]").wait_for()
    walk.look(head, name)


def spelling_and_duplicate(walk: Walk, organiser, slug: str) -> None:
    """The players' page names the recognised player: the organiser takes the person's spelling;
    the likely duplicate is flagged with a link, which the organiser follows and merges."""
    take_spelling(walk, organiser, slug, "Lucja Wojcik → Łucja Wójcik", "t2-spelling")
    walk.go(organiser, f"/staff/{slug}/people/", "t2-people-flagged")
    flagged = organiser.locator("a.likely-duplicate", has_text="Chmiel Maria Teresa")  # surname first
    if flagged.count() == 0:
        raise WalkError("Chmiel Teresa Maria is not flagged as a likely duplicate")
    with organiser.expect_navigation():
        flagged.first.click()
    walk.look(organiser, "t2-duplicate-person")
    merge = organiser.locator("form[action$='/merge/']")
    merge.locator("[name$=reason]").fill("Ta sama osoba: imiona wpisane w innej kolejności")
    with organiser.expect_navigation():
        merge.locator("button[type=submit]").click()
    walk.look(organiser, "t2-merged")
    take_spelling(walk, organiser, slug, "Chmiel Teresa Maria → Maria Teresa Chmiel", "t2-merged-spelling")


def take_spelling(walk: Walk, organiser, slug: str, shown: str, name: str) -> None:
    """The players' page offers the person's spelling for a recognised player: one tap takes it."""
    walk.go(organiser, f"/staff/{slug}/players/", f"{name}-offered")
    item = organiser.locator("#recognised .recognised__item", has_text=shown.split(" → ")[0])
    if item.count() != 1 or shown not in item.inner_text():
        raise WalkError(f"the players' page does not offer {shown}")
    with organiser.expect_navigation():
        item.locator("button[type=submit]").click()
    walk.look(organiser, f"{name}-taken")


def make_season(walk: Walk, organiser) -> None:
    walk.go(organiser, "/staff/seasons/", "seasons")
    walk.go(organiser, "/staff/seasons/new/", "season-new")
    organiser.fill("#id_name", "Sezon UTW 2026")
    organiser.fill("#id_slug", SEASON)
    for box in organiser.locator("#season-tournaments input[type=checkbox]").all():
        box.check()
    organiser.click("form.settings-form .actions button[type=submit]")
    organiser.wait_for_url(walk.url(f"/staff/seasons/{SEASON}/"))
    walk.look(organiser, "season")


def play_both(walk: Walk, organiser, *, first_only=False):
    """Both tournaments with their story; returns (people, ledgers)."""
    people = staff(walk, organiser)
    head = people[1]

    def first(round_number, slug, ledger):
        if round_number == 1:
            card_and_correction(walk, head, slug, ledger)
        if round_number == ROUNDS:
            no_medals_yet(walk, slug)

    def second(round_number, slug, ledger):
        if round_number == 0:
            spelling_and_duplicate(walk, organiser, slug)
        if round_number == ROUNDS - 1:
            visibility(walk, head, slug, "hidden", "t2-hidden")
            make_season(walk, organiser)
            phone = walk.new_page()
            walk.go(phone, f"/t/{slug}/standings/", "t2-public-standings-hidden")
            if phone.locator("#leaderboard td.num").count():
                raise WalkError("the hidden tournament's public standings show figures")
            check_season(walk, phone, ledgers[:1], "season-t2-hidden")
            phone.context.close()

    ledgers = [play_tournament(walk, people, 1, between=first)]
    with walk.step("tournament 1: the ceremony"):
        ceremony(walk, head, SLUGS[1], 1)
    if not first_only:
        ledgers.append(play_tournament(walk, people, 2, between=second))
        with walk.step("tournament 2: the results shown again, the ceremony"):
            visibility(walk, head, SLUGS[2], "live", "t2-live")
            ceremony(walk, head, SLUGS[2], 2)
    return people, ledgers


def number(text: str) -> int:
    return int("".join(text.replace("\u2212", "-").replace("+", "").split()))


def check_standings(walk: Walk, phone, ledger: Ledger) -> None:
    """The public standings equal the hand calculation, row by row (names and every figure)."""
    walk.go(phone, f"/t/{SLUGS[ledger.number]}/standings/", f"t{ledger.number}-public-standings")
    rows = phone.locator("#leaderboard table.standings tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.querySelector('a') ? c.querySelector('a').textContent : c.textContent))"
    )
    expected = ledger.standings()
    if len(rows) != len(expected):
        raise WalkError(f"tournament {ledger.number}: {len(rows)} standings rows, {len(expected)} by hand")
    places = ledger.places()
    for row, (name, final, qualifying) in zip(rows, expected, strict=True):
        shown = [row[1].strip(), *row[2:]]
        figures = [final.big, final.small, final.won] if final else []
        want = [surname_first(name), *figures, qualifying.big, qualifying.small, qualifying.won]
        got = [shown[0], *(number(cell) for cell in shown[1:] if not cell.strip().startswith("–"))]
        if got != want and not tied_alike(got, want, places, name, ledger):
            raise WalkError(f"tournament {ledger.number} standings: {got} shown, {want} by hand")


def tied_alike(got, want, places, name, ledger: Ledger) -> bool:
    """A row showing another player of the same shared place, with the same figures: players tied
    after the final come in the app's order among themselves."""
    same_place = [other for other, _f, _q in ledger.standings() if places[person(other)] == places[person(name)]]
    return got[1:] == want[1:] and got[0] in {surname_first(other) for other in same_place}


def check_season(walk: Walk, phone, ledgers, name: str) -> None:
    """The public season page's rows equal the hand calculation: every row's place, person, points
    and tournaments won (people on an equal place in any order)."""
    walk.go(phone, f"/s/{SEASON}/", name)
    rows = phone.locator("table.season-table tbody tr").evaluate_all(
        "rows => rows.map(r => [r.querySelector('td.rank').textContent,"
        " r.querySelector('td.who').firstChild.textContent.trim(),"
        " ...[...r.querySelectorAll('td.num')].map(c => c.textContent)])"
    )
    shown = [(number(rank), who, number(points), number(wins)) for rank, who, points, _played, wins in rows]
    expected = season_rows(ledgers)
    if sorted(shown) != sorted(expected) or [row[0] for row in shown] != [row[0] for row in expected]:
        only_shown = sorted(set(shown) - set(expected))
        only_by_hand = sorted(set(expected) - set(shown))
        raise WalkError(
            f"season: {len(shown)} rows shown, {len(expected)} by hand; shown only: {only_shown}; "
            f"by hand only: {only_by_hand}; places shown {[row[0] for row in shown]}"
        )
