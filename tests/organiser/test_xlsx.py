"""The bounded .xlsx reader of player files (issue 13, item 6): a file that unpacks to millions
of cells is refused after bounded work; an ordinary file reads as before."""

import pytest

from bench.bench_import import SHEET_END, SHEET_START, STRINGS_START, xlsx_file, xlsx_package
from organiser import xlsx
from organiser.importers import read_player_file
from tournament.refusals import Refused

TOO_MANY_CELLS = "holds far more cells than a player list"


def read(content):
    return [(row.line, row.name, row.organisation) for row in read_player_file("list.xlsx", content)]


def refusal(content):
    with pytest.raises(Refused) as error:
        read_player_file("list.xlsx", content)
    return error.value.message


@pytest.mark.parametrize("cells", [xlsx.MAX_SHEET_ELEMENTS, 6_000_000])
def test_a_row_of_millions_of_empty_cells_is_refused(cells):
    """150,000 cells pass the part's size limit and meet the element limit; 6 million unpack
    to 24 MB, beyond the size limit."""
    content = xlsx_file([("Anna Nowak", "UTW")], empty_cells=cells)
    assert len(content) < 30_000
    assert TOO_MANY_CELLS in refusal(content)


def test_millions_of_shared_strings_are_refused():
    assert TOO_MANY_CELLS in refusal(xlsx_file([("Anna Nowak", "UTW")], shared_strings=xlsx.MAX_STRING_ELEMENTS))


def test_empty_cells_up_to_the_limit_are_read():
    assert read(xlsx_file([("Anna Nowak", "UTW")], empty_cells=10_000, referenced=True)) == [(2, "Anna Nowak", "UTW")]


def test_only_columns_a_to_z_are_read():
    sheet = (
        SHEET_START + '<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c>'
        '<c r="Z1" t="inlineStr"><is><t>organisation</t></is></c><c r="AA1" t="inlineStr"><is><t>club</t></is></c></row>'
        '<row r="3"><c r="A3" t="inlineStr"><is><t>Anna</t></is></c><c r="Z3" t="inlineStr"><is><t>UTW</t></is></c>'
        '<c r="AB3" t="inlineStr"><is><t>ignored</t></is></c></row>' + SHEET_END
    )
    assert read(xlsx_package(sheet, STRINGS_START + "</sst>")) == [(3, "Anna", "UTW")]
    beyond = sheet.replace('r="Z1"', 'r="AZ1"')
    assert "the first line must name the columns" in refusal(xlsx_package(beyond, STRINGS_START + "</sst>"))


def test_shared_strings_rich_text_numbers_booleans_and_prefixed_names_are_read():
    strings = (
        '<x:sst xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        "<x:si><x:t>Name</x:t></x:si><x:si><x:t>Organisation</x:t></x:si>"
        "<x:si><x:r><x:rPr><x:b/></x:rPr><x:t>Zofia </x:t></x:r><x:r><x:t>Żak</x:t></x:r>"
        "<x:rPh><x:t>phonetic reading</x:t></x:rPh></x:si></x:sst>"
    )
    sheet = (
        '<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>'
        '<x:row><x:c t="s"><x:v>0</x:v></x:c><x:c t="s"><x:v>1</x:v></x:c></x:row>'
        '<x:row><x:c t="s"><x:v>2</x:v></x:c><x:c><x:v>2026</x:v></x:c></x:row>'
        '<x:row><x:c t="str"><x:v>Jan &amp; Ewa</x:v></x:c><x:c t="b"><x:v>1</x:v></x:c></x:row>'
        "</x:sheetData></x:worksheet>"
    )
    assert read(xlsx_package(sheet, strings)) == [(2, "Zofia Żak", "2026"), (3, "Jan & Ewa", "TRUE")]


def test_a_doctype_is_refused_as_not_a_valid_file():
    sheet = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]>' + SHEET_START.split("?>", 1)[1] + SHEET_END
    assert "is not a valid Excel (.xlsx) file" in refusal(xlsx_package(sheet, STRINGS_START + "</sst>"))


def test_more_than_2000_players_in_a_spreadsheet_are_refused():
    players = [(f"Gracz {n}", f"Klub {n}") for n in range(2001)]
    assert "The file has more than 2000 players." in refusal(xlsx_file(players))
    assert len(read(xlsx_file(players[:2000]))) == 2000


@pytest.mark.parametrize(
    "content",
    [
        b"PK\x03\x04" + b"\x00" * 100,
        xlsx_package("<worksheet><sheetData><row>", STRINGS_START + "</sst>"),  # cut short
        xlsx_package(SHEET_START + '<row><c t="s"><v>99</v></c></row>' + SHEET_END, STRINGS_START + "</sst>"),
    ],
)
def test_a_damaged_file_is_refused_cleanly(content):
    message = refusal(content)
    assert "is not a valid Excel (.xlsx) file" in message or "is empty" in message


def test_odd_row_numbers_and_string_indexes_are_not_a_crash():
    sheet = (
        SHEET_START
        + '<row r="²"><c t="inlineStr"><is><t>name</t></is></c><c t="inlineStr"><is><t>organisation</t></is></c></row>'
        f'<row r="{"9" * 5000}"><c t="s"><v>{"1" * 5000}</v></c><c t="s"><v>²</v></c></row>'
        '<row><c t="inlineStr"><is><t>Anna</t></is></c><c t="inlineStr"><is><t>UTW</t></is></c></row>' + SHEET_END
    )
    assert read(xlsx_package(sheet, STRINGS_START + "<si><t>x</t></si></sst>")) == [(3, "Anna", "UTW")]
