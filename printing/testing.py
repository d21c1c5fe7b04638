"""Test and benchmark support for the printed documents: Polish sample data, PDF reading and the
QR codes read back from a PDF.

Imported by the tests (`tests/printing/` and others) and `bench/bench_pdf.py` only.
"""

import io
import re
from dataclasses import dataclass

import pytest
import segno
from pypdf import PdfReader

from organiser.interchange import import_tournament
from tournament import shared_cache

FIRST_NAMES = (
    "Genowefa",
    "Józef",
    "Czesław",
    "Stanisława",
    "Łucja",
    "Bożena",
    "Władysław",
    "Jadwiga",
    "Zdzisław",
    "Halina",
    "Ślęża",
    "Żaneta",
)
LAST_NAMES = (
    "Gąsior",
    "Łęcki",
    "Żak",
    "Ćwik",
    "Śliwińska",
    "Wójcik",
    "Dąbrowska",
    "Szczęsna",
    "Źrebiec",
    "Michalski",
    "Nowak",
    "Kołodziej",
)


def polish_players(count):
    """`count` players with Polish names (repeating after 144), each from an organisation of their own."""
    return [
        {
            "id": f"p{i}",
            "name": f"{FIRST_NAMES[i % len(FIRST_NAMES)]} {LAST_NAMES[(i // len(FIRST_NAMES)) % len(LAST_NAMES)]}",
            "organisation": f"Uniwersytet Trzeciego Wieku „Złota Jesień” nr {i}",
        }
        for i in range(count)
    ]


def table_sizes(count):
    """As many four-tables as possible, the rest three-tables (SPEC §5); 6+ or 3–4 players."""
    threes = (4 - count % 4) % 4
    return [4] * ((count - 3 * threes) // 4) + [3] * threes


def seating(player_ids, shift=0):
    """Tables for the players in order (rotated by `shift`), numbered from 1."""
    ids = list(player_ids[shift:]) + list(player_ids[:shift])
    tables, start = [], 0
    for number, size in enumerate(table_sizes(len(ids)), start=1):
        tables.append({"number": number, "seats": dict(zip("ABCD", ids[start : start + size])), "games": []})
        start += size
    return tables


def tournament_data(players, rounds=(), slug="senioriada", settings=None):
    """An interchange dict: `rounds` is a list of dicts with number, state and tables."""
    return {
        "format": "rummikub-tournament/1",
        "tournament": {
            "name": "Senioriada Łódź 2026",
            "slug": slug,
            "date": "2026-02-10",
            "settings": dict(settings or {}),
        },
        "players": players,
        "rounds": list(rounds),
    }


def seated_tournament(player_count=12, states=("published",), slug="senioriada", settings=None):
    """A tournament with Polish names and one seated round per state in `states`."""
    players = polish_players(player_count)
    ids = [p["id"] for p in players]
    rounds = [
        {"number": n, "state": state, "tables": seating(ids, shift=n - 1)} for n, state in enumerate(states, start=1)
    ]
    return import_tournament(tournament_data(players, rounds, slug, settings))


def pdf_reader(content):
    assert content[:5] == b"%PDF-", "not a PDF"
    return PdfReader(io.BytesIO(content))


def pdf_text(content):
    """All text of a PDF, pages joined by newlines."""
    return "\n".join(page.extract_text() for page in pdf_reader(content).pages)


def flat(text):
    """Text with every run of spaces and line breaks made one space (wrapped lines join up)."""
    return " ".join(text.split())


def without_spaces(text):
    """Text with spaces, line breaks and hyphens removed: compares words a line end split."""
    return re.sub(r"[\s\-‐]", "", text)


@dataclass(frozen=True)
class PlacedText:
    """A run of text where a page draws it: x and baseline y in points from the bottom left."""

    text: str
    x: float
    y: float
    size: float  # the type size in points


def placed_texts(page):
    """The text runs a PDF page draws, its form layer's included, in drawing order."""
    runs = []

    def visit(text, cm, tm, font, font_size):
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            runs.append(PlacedText(text.strip(), x, y, font_size * abs(tm[3] * cm[3])))

    page.extract_text(visitor_text=visit)
    return runs


def page_lines(page, tolerance=3):
    """A page's text as it reads: lines from the top, each the runs whose baselines are within
    `tolerance` points of each other, from left to right, joined by spaces."""
    lines = []
    for run in sorted(placed_texts(page), key=lambda run: -run.y):
        if lines and lines[-1][0].y - run.y <= tolerance:
            lines[-1].append(run)
        else:
            lines.append([run])
    return [" ".join(run.text for run in sorted(line, key=lambda run: run.x)) for line in lines]


def pdf_fonts(content):
    """The base names of the fonts the pages use, without the subset prefix ("Print-Sans")."""
    names = set()
    for page in pdf_reader(content).pages:
        for font in page["/Resources"]["/Font"].values():
            names.add(str(font.get_object()["/BaseFont"]).lstrip("/").split("+")[-1])
    return names


def page_sizes(content):
    """Each page's (width, height) in points, rounded."""
    return [
        (round(float(page.mediabox.width)), round(float(page.mediabox.height))) for page in pdf_reader(content).pages
    ]


A4_PORTRAIT = (595, 842)
A4_LANDSCAPE = (842, 595)


@pytest.fixture(autouse=True)
def strict_pdf_rendering(settings):
    """Any WeasyPrint warning fails the test; no PDF comes from an earlier test's cache."""
    settings.PRINTING_FAIL_ON_WARNINGS = True
    shared_cache.clear()
    yield
    shared_cache.clear()


def qr_payloads(content):
    """The URLs of the QR codes in a PDF, read back module by module from the embedded PNGs."""
    found = set()
    for page in pdf_reader(content).pages:
        for image in page.images:
            found.add(_matrix(image.image.convert("L")))
    return found


def _matrix(image, scale=1, border=4):
    modules = image.width // scale - 2 * border
    return tuple(
        tuple(image.getpixel(((border + x) * scale, (border + y) * scale)) < 128 for x in range(modules))
        for y in range(modules)
    )


def qr_matrix(url):
    return tuple(tuple(bool(bit) for bit in row) for row in segno.make(url, error="m").matrix)
