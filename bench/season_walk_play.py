"""The season walk's tournaments: the organiser makes each and imports its players, the referee
enters every score sheet on the tablet page, the head referee verifies them; the organiser draws,
publishes, starts and completes each round and seats the final."""

from __future__ import annotations

from season_walk_kit import Walk, WalkError
from season_walk_sums import FIRST, SECOND, Ledger, csv_text
from season_walk_team import HEAD, REFEREE, sign_in

ROUNDS = 3
SLUGS = {1: "jesien-2026", 2: "zima-2026"}
NAMES = {1: "Turniej Jesienny UTW 2026", 2: "Turniej Zimowy UTW 2026"}
DATES = {1: "2026-10-17", 2: "2026-11-21"}


def post(page, action_suffix: str):
    """Click the button of the plain form posting to a URL ending in `action_suffix`."""
    with page.expect_navigation():
        page.click(f"form[action$='{action_suffix}'] button[type=submit]")


def create_tournament(walk: Walk, organiser, number: int) -> str:
    slug = SLUGS[number]
    walk.go(organiser, "/staff/new/", f"t{number}-new-tournament")
    organiser.fill("#id_name", NAMES[number])
    organiser.fill("#id_slug", slug)
    organiser.fill("#id_date", DATES[number])
    organiser.fill("#id_rounds_planned", str(ROUNDS))
    with organiser.expect_navigation():
        organiser.click("form.settings-form button[type=submit]")
    walk.look(organiser, f"t{number}-created")
    return slug


def import_players(walk: Walk, organiser, number: int, slug: str) -> None:
    """The organiser imports the spreadsheet of players and checks everyone in."""
    players = FIRST if number == 1 else SECOND
    path = walk.var_dir / f"players-{number}.csv"
    path.write_text(csv_text(players), encoding="utf-8")
    walk.go(organiser, f"/staff/{slug}/players/import/", f"t{number}-import")
    organiser.set_input_files("#import-form input[type=file]", str(path))
    organiser.click("#import-form button[type=submit]")
    organiser.wait_for_url(walk.url(f"/staff/{slug}/players/"))
    walk.look(organiser, f"t{number}-imported")
    post(organiser, "/players/check-in-everyone/")
    walk.look(organiser, f"t{number}-checked-in")


def seats_on_sheet(page) -> dict[str, str]:
    """{letter: name} as the score sheet shows its seats."""
    seats = {}
    for card in page.locator("li.seat-card").all():
        letter = card.locator(".seat-letter").inner_text().strip()
        seats[letter] = card.locator("a.seat-card__name").inner_text().split("\n")[0].strip()
    return seats


def enter_sheet(walk: Walk, tablet, ledger: Ledger, slug: str, round_number: int, table: int, *, in_final=False):
    """The referee types every game of one table (game k won by the k-th seat; the others keep
    the walk's racks) and submits the sheet."""
    walk.go(
        tablet,
        f"/referee/{slug}/round/{round_number}/table/{table}/",
        f"t{ledger.number}-r{round_number}-t{table}-sheet",
    )
    seats = seats_on_sheet(tablet)
    letters = sorted(seats)
    for k in range(1, tablet.locator("[id^=game-] .save-button").count() + 1):
        winner = letters[(k - 1) % len(letters)]
        tiles = ledger.game(round_number, seats, k, winner, in_final=in_final)
        tablet.click(f"label[for=g{k}-ending-{winner}]")
        for letter, value in tiles.items():
            tablet.fill(f"#g{k}-{letter}-tiles", str(value))
        tablet.click(f"#game-{k} .save-button")
        tablet.wait_for_selector(f"#g{k}-status .status--saved")
    tablet.click(".confirm-submit summary")  # submitting asks for confirmation
    post(tablet, "/submit/")
    walk.look(tablet, f"t{ledger.number}-r{round_number}-t{table}-submitted")
    return seats


def tables_of(walk: Walk, tablet, slug: str, round_number: int, number: int) -> list[int]:
    walk.go(tablet, f"/referee/{slug}/round/{round_number}/", f"t{number}-r{round_number}-tables")
    hrefs = tablet.locator("a.table-button").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    return [int(href.rstrip("/").rsplit("/", 1)[1]) for href in hrefs]


def verify(walk: Walk, head, slug: str, round_number: int, table: int, number: int) -> None:
    head.goto(walk.url(f"/referee/{slug}/round/{round_number}/table/{table}/"))
    post(head, "/verify/")
    if head.locator("#sheet-state.state--verified").count() != 1:
        raise WalkError(f"round {round_number} table {table}: not verified")
    walk.look(head, f"t{number}-r{round_number}-t{table}-verified")


def open_round(walk: Walk, organiser, slug: str, round_number: int, number: int, *, final=False) -> None:
    """Draw (or seat the final), publish and start a round from the dashboard."""
    if final:
        walk.go(organiser, f"/staff/{slug}/", f"t{number}-before-final")
        post(organiser, f"/staff/{slug}/final/")
    else:
        walk.go(organiser, f"/staff/{slug}/draw/", f"t{number}-r{round_number}-draw")
        organiser.click("#draw-form button[type=submit]")
        organiser.wait_for_url(walk.url(f"/staff/{slug}/rounds/{round_number}/"))
    walk.look(organiser, f"t{number}-r{round_number}-drawn")
    walk.go(organiser, f"/staff/{slug}/", f"t{number}-r{round_number}-dashboard")
    post(organiser, f"/rounds/{round_number}/publish/")
    post(organiser, f"/rounds/{round_number}/start/")
    walk.look(organiser, f"t{number}-r{round_number}-started")


def complete_round(walk: Walk, organiser, slug: str, round_number: int, number: int) -> None:
    organiser.goto(walk.url(f"/staff/{slug}/"))
    post(organiser, f"/rounds/{round_number}/complete/")
    walk.look(organiser, f"t{number}-r{round_number}-complete-asks")
    post(organiser, f"/rounds/{round_number}/complete/")  # the round's page asks first
    walk.look(organiser, f"t{number}-r{round_number}-completed")


def play_round(walk: Walk, people, ledger: Ledger, slug: str, round_number: int, *, final=False) -> list:
    """One round, from the draw to its completion; returns the tables' seats."""
    organiser, head, referee = people
    open_round(walk, organiser, slug, round_number, ledger.number, final=final)
    tables = tables_of(walk, referee, slug, round_number, ledger.number)
    seated = [enter_sheet(walk, referee, ledger, slug, round_number, t, in_final=final) for t in tables]
    for table in tables:
        verify(walk, head, slug, round_number, table, ledger.number)
    complete_round(walk, organiser, slug, round_number, ledger.number)
    return seated


def staff(walk: Walk, organiser):
    """The organiser's page, and the head referee's and the referee's tablets, signed in."""
    return organiser, sign_in(walk, HEAD, "head-referee"), sign_in(walk, REFEREE, "referee")


def play_tournament(walk: Walk, people, number: int, *, between=None) -> Ledger:
    """Create, import, three rounds and the final; `between(round_number, slug, ledger)` runs
    after each round (the card, the correction, hiding the results)."""
    organiser = people[0]
    ledger = Ledger(number)
    with walk.step(f"tournament {number}: created, players imported and checked in"):
        slug = create_tournament(walk, organiser, number)
        import_players(walk, organiser, number, slug)
        if between:
            between(0, slug, ledger)
    for round_number in range(1, ROUNDS + 1):
        with walk.step(f"tournament {number}: round {round_number} drawn, entered, verified, completed"):
            play_round(walk, people, ledger, slug, round_number)
            if between:
                between(round_number, slug, ledger)
    with walk.step(f"tournament {number}: the final seated, entered, verified, completed"):
        play_round(walk, people, ledger, slug, ROUNDS + 1, final=True)
    return ledger
