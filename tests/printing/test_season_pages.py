"""A season's PDF keeps its rows together sensibly (issue 48.7): no row split over two pages, no
lone last row (nor two) on a page of its own, and the heading never alone at a page's foot."""

import re
import subprocess

import pytest
from django.test import Client

from organiser.interchange import import_tournament
from printing.testing import strict_pdf_rendering  # noqa: F401
from tests.factories import out_game, table, tournament_data, with_people
from tournament.models import Season

pytestmark = pytest.mark.django_db

SURNAMES = ["Nowak", "Kowalska", "Wiśniewski", "Wójcik", "Kowalczyk", "Kamińska", "Lewandowski", "Zielińska"]


def season_of(people):
    """A season of one tournament of `people` players (6 or more): one round at tables of 4 (of 3
    for the rest), each table one game its seat A wins; the others' racks 10, 20 (and 30)."""
    data = tournament_data(0, settings={"final": False, "rounds_planned": 1, "players_per_organisation": 4})
    data["tournament"].update(slug="wiosna", date="2026-04-11", name="Senioriada wiosna")
    data["players"] = [
        {"id": f"p{n}", "name": f"Osoba{n} {SURNAMES[n % 8]}-Długonazwiskowa", "organisation": f"UTW Miasto {n // 4}"}
        for n in range(1, people + 1)
    ]
    ids = [p["id"] for p in data["players"]]
    threes = (4 - people % 4) % 4
    sizes = [3] * threes + [4] * ((people - 3 * threes) // 4)
    tables, start = [], 0
    for number, size in enumerate(sizes, start=1):
        racks = {"B": (10, 0), "C": (20, 0), "D": (30, 0)} if size == 4 else {"B": (10, 0), "C": (20, 0)}
        tables.append(table(number, ids[start : start + size], [out_game(1, "A", **racks)]))
        start += size
    data["rounds"] = [{"number": 1, "state": "completed", "tables": tables}]
    tournament = with_people(import_tournament(data))
    season = Season.objects.create(host=tournament.host, name="Sezon wiosenny", slug="wiosna-s", best_count=None)
    season.tournaments.set([tournament])
    return season


def rows_per_page(content):
    """How many of the table's rows each page of the PDF holds (a row: its person's given name)."""
    pages = subprocess.run(["pdftotext", "-layout", "-", "-"], input=content, capture_output=True, check=True).stdout
    return [len(re.findall(r"Osoba\d+", page)) for page in pages.decode().split("\f") if page.strip()]


@pytest.mark.parametrize("people", [13, 14, 15, 16, 30, 31, 32])
def test_no_page_holds_a_lone_last_row(people, strict_pdf_rendering):
    season = season_of(people)
    counts = rows_per_page(Client().get(f"/print/seasons/{season.slug}/public.pdf").content)
    assert sum(counts) == people
    assert counts[-1] >= 3 or len(counts) == 1, counts
