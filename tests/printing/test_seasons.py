"""A season's table as a PDF: the public one (only public results, the hidden tournament pending)
and the staff one (every finished tournament, its organisers only), read back with pdftotext
row by row against the tables worked by hand (tests/factories.py)."""

import re
import subprocess

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.services import make_member
from printing.testing import strict_pdf_rendering  # noqa: F401
from tests.factories import SEASON_PUBLIC_TABLE, SEASON_STAFF_TABLE, season_of_three
from tournament.models import HostOrganisation

pytestmark = pytest.mark.django_db


def pdf_rows(content, tmp_path):
    """The table's rows as pdftotext -layout reads them, each block of lines joined into one line."""
    path = tmp_path / "season.pdf"
    path.write_bytes(content)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    body = text.split("Wins", 1)[1].split("\n", 1)[1]  # the rows, below the header line
    blocks = [" ".join(block.split()) for block in re.split(r"\n\s*\n", body)]
    return [block for block in blocks if block and not block.startswith("1 / ") and block != "1/1"]


def expected_rows(table, tournaments):
    rows = []
    for rank, name, club, points, played, wins, _best, results in table:
        by_t = {t: (place, p, counted) for t, place, p, counted in results}
        cells = []
        for t in tournaments:
            if t not in by_t:
                cells.append("–")
                continue
            place, p, counted = by_t[t]
            cell = f"{'DQ' if place is None else f'{place}.'} · {p}"
            cells.append(cell if counted else f"({cell})")
        rows.append(f"{name} {rank} {club} {points} {played} {wins} {' '.join(cells)}")
    return rows


def test_the_public_pdf_holds_the_public_table_and_names_the_pending_tournament(tmp_path, strict_pdf_rendering):
    season = season_of_three()
    response = Client().get(f"/print/seasons/{season.slug}/public.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    rows = pdf_rows(response.content, tmp_path)
    assert rows[: len(SEASON_PUBLIC_TABLE)] == expected_rows(SEASON_PUBLIC_TABLE, ["zima-1", "zima-2"])
    text = subprocess.run(["pdftotext", "-", "-"], input=response.content, capture_output=True, check=True).stdout
    text = text.decode()
    assert "Results pending: Senioriada zima-3" in text and "T3" not in text
    assert "Public results only." in text


def test_the_staff_pdf_holds_every_result_for_the_organisations_organisers_only(
    organiser_client, client, tmp_path, strict_pdf_rendering
):
    season = season_of_three()
    response = organiser_client.get(f"/print/seasons/{season.slug}/standings.pdf")
    assert response.status_code == 200
    rows = pdf_rows(response.content, tmp_path)
    assert rows[: len(SEASON_STAFF_TABLE)] == expected_rows(SEASON_STAFF_TABLE, ["zima-1", "zima-2", "zima-3"])
    text = subprocess.run(["pdftotext", "-", "-"], input=response.content, capture_output=True, check=True).stdout
    assert "includes results not yet public" in text.decode()
    stranger = User.objects.create_user("obcy")
    make_member(stranger, "organiser", HostOrganisation.objects.create(name="Inna", slug="inna"))
    client.force_login(stranger)
    assert client.get(f"/print/seasons/{season.slug}/standings.pdf").status_code == 404
    assert Client().get(f"/print/seasons/{season.slug}/standings.pdf").status_code == 302  # to the sign-in page
    assert Client().get("/print/seasons/nope/public.pdf").status_code == 404
