"""A small tournament with hostile names for the export tests, and readers for what they write."""

import csv
import io
import zipfile

import openpyxl

from tests.factories import build, table
from tests.public_builders import games

UNVERIFIED_SCORE = 2789  # game 1 of round 2, table 1: on a submitted sheet, never counted

# Names a spreadsheet would run as formulas, HTML that must stay text, quotes, emoji, right-to-left text.
HOSTILE_NAMES = [
    '=HYPERLINK("http://example.com","klik")', "+48 600 100 200", "-Anna Nowak", "@SUM(A1:A9)",
    'Zoë "Quote" O\'Neil', "<script>alert(1)</script>", "שלום עליכם 🎲", "Łucja Żółć",
]
HOSTILE_CLUB = "=1+1 Klub <b>Seniora</b>"


def hostile_tournament():
    """8 players; round 1 completed and verified (two tables of the same four games: seat A
    +158, B −20, C −34, D −104; one game won each); round 2 started, table 1 submitted (not
    verified) with UNVERIFIED_SCORE; player 8 disqualified by a red card in round 1."""
    ids = [f"p{i}" for i in range(1, 9)]
    rounds = [
        {"number": 1, "state": "completed", "tables": [table(1, ids[:4], games()), table(2, ids[4:], games())]},
        {"number": 2, "state": "started", "tables": [
            table(1, ["p2", "p3", "p4", "p1"], games(UNVERIFIED_SCORE), state="submitted"),
            table(2, ["p6", "p7", "p5"]),
        ]},
    ]
    tournament = build(8, rounds=rounds, settings={"final": False},
                       cards=[{"player": "p8", "round": 1, "colour": "red", "reason": "=cmd|' /C calc'!A0"}])
    for player, name in zip(tournament.players.order_by("start_number"), HOSTILE_NAMES):
        player.name = name
        player.save(update_fields=["name"])
    tournament.organisations.filter(players__ext_id="p1").update(name=HOSTILE_CLUB)
    return tournament


def read_workbook(data):
    """{sheet title: (the openpyxl sheet, [row values])} of an .xlsx given as bytes or a path."""
    book = openpyxl.load_workbook(io.BytesIO(data) if isinstance(data, bytes) else data)
    return {sheet.title: (sheet, [list(row) for row in sheet.iter_rows(values_only=True)]) for sheet in book}


def formula_cells(data):
    book = openpyxl.load_workbook(io.BytesIO(data) if isinstance(data, bytes) else data)
    return [f"{sheet.title}!{cell.coordinate}" for sheet in book for row in sheet.iter_rows() for cell in row
            if cell.data_type == "f"]


def read_csv(data):
    assert data.startswith(b"\xef\xbb\xbf"), "a BOM, so that Excel reads UTF-8"
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def zip_texts(data):
    """{path: text} of every file in a .zip given as bytes."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name).decode("utf-8") for name in archive.namelist()}
