"""Benchmark: score sheets for 50 tables and diplomas for 100 players, seconds each (budget: 3 s).

Run with `make bench-pdf` (`--smoke`: 4 tables and 4 players). Builds a throwaway test database, renders each document twice
(cold, then from the PDF cache; a round's score sheets as the task that makes them renders them) and prints the figures; it checks no budget. One blank score
sheet is printed first, as a running server would have done: the first request of a process
imports the PDF libraries and loads the fonts (about a second). The QR codes stay cold.
"""

import argparse
import os
import time

import throwaway_database

throwaway_database.prepare("bench-pdf-")

from django.core.cache import cache  # noqa: E402

BUDGET_SECONDS = 3.0


def timed(label, render, pages_expected):
    """Wall-clock seconds of a cold render (empty PDF cache), its CPU seconds, then a cached one."""
    from printing.testing import pdf_reader

    cache.clear()
    wall, cpu = time.perf_counter(), time.process_time()
    pdf = render()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    cached = time.perf_counter()
    render()
    cached = time.perf_counter() - cached
    pages = len(pdf_reader(pdf).pages)
    assert pages == pages_expected, f"{label}: {pages} pages, expected {pages_expected}"
    verdict = "within" if wall < BUDGET_SECONDS else "OVER"
    print(
        f"{label:28} {wall:6.2f} s ({cpu:5.2f} s CPU)  cached {cached:5.3f} s  {pages:3d} pages  "
        f"{len(pdf) / 1024:5.0f} KiB  {verdict} the {BUDGET_SECONDS:.0f} s budget"
    )


def main(tables, diplomas):
    from django.contrib.auth.models import User
    from django.test import Client

    from organiser.interchange import import_tournament
    from printing.testing import polish_players, seating, tournament_data

    def seated(slug, player_count, round_state, sheet_state="empty"):
        players = polish_players(player_count)
        tables = [{**table, "state": sheet_state} for table in seating([p["id"] for p in players])]
        rounds = [{"number": 1, "state": round_state, "tables": tables}]
        import_tournament(tournament_data(players, rounds, slug, settings={"rounds_planned": 1, "final": False}))

    seated("sheets", 4 * tables, "published")  # four-tables
    seated("diplomas", diplomas, "completed", "verified")  # final results: a certificate for each player
    client = Client()
    client.force_login(User.objects.create_superuser("bench", "bench@example.org", "bench-pass-123"))

    def get(url):
        def fetch():
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            return response.content

        return fetch

    def round_sheets(slug):
        """A round's score sheets as its task renders them (the request only queues the task)."""
        from printing import batches, selectors
        from tournament.models import Round

        def render():
            round_ = Round.objects.select_related("tournament").get(tournament__slug=slug, number=1)
            return batches.score_sheets_pdf(round_, selectors.round_tables(round_), "http://192.168.1.10:8000")

        return render

    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    get("/print/sheets/blank-score-sheet.pdf")()
    timed(f"score sheets, {tables} tables", round_sheets("sheets"), tables)
    timed(f"certificates, {diplomas} players", get("/print/diplomas/certificates.pdf"), diplomas)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="the smallest setting, a few seconds")
    smoke = parser.parse_args().smoke
    throwaway_database.run(main, *((4, 4) if smoke else (50, 100)))
