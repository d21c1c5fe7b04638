"""The season walk's end: the public pages on a phone (home, tournament, standings, season) checked
against the hand calculation, the staff pages of the season and the people, and the PDFs (seating,
score sheets, standings, diplomas, the season) downloaded and rendered to PNG."""

from __future__ import annotations

from season_walk_kit import Walk
from season_walk_play import SLUGS
from season_walk_season import SEASON, check_season, check_standings

PDFS = {  # name: the print menu's address, under /print/SLUG/
    "seating": "round/1/seating.pdf",
    "where-do-i-sit": "round/1/where-do-i-sit.pdf",
    "score-sheets": "round/1/score-sheets.pdf?address=loopback",
    "standings": "standings.pdf",
    "public-standings": "public/standings.pdf",
    "diplomas": "diplomas.pdf",
}


def public_pages(walk: Walk, ledgers) -> None:
    phone = walk.new_page()
    walk.go(phone, "/", "public-home")
    for ledger in ledgers:
        walk.go(phone, f"/t/{SLUGS[ledger.number]}/", f"t{ledger.number}-public-tournament")
        check_standings(walk, phone, ledger)
    check_season(walk, phone, ledgers, "season-public")
    phone.context.close()


def pdfs(walk: Walk, organiser, ledgers) -> None:
    for ledger in ledgers:
        slug = SLUGS[ledger.number]
        walk.go(organiser, f"/print/{slug}/", f"t{ledger.number}-print-menu")
        for name, path in PDFS.items():
            walk.pdf(organiser, f"/print/{slug}/{path}", f"t{ledger.number}-{name}")
    walk.go(organiser, f"/staff/seasons/{SEASON}/", "season-staff")
    walk.pdf(organiser, f"/print/seasons/{SEASON}/standings.pdf", "season-standings")
    walk.pdf(organiser, f"/print/seasons/{SEASON}/public.pdf", "season-public")


def season_and_public(walk: Walk, organiser, played) -> None:
    _people, ledgers = played
    with walk.step("the public pages on a phone, checked against the hand calculation"):
        public_pages(walk, ledgers)
    with walk.step("the PDFs downloaded and rendered with pdftoppm"):
        pdfs(walk, organiser, ledgers)
