"""The plain writers of organiser/exports (no Django, no database): formula-like text, sheet
names, the zip's paths."""

import io
import zipfile
from datetime import datetime

import pytest

from organiser.exports.writers.archive import zip_bytes
from organiser.exports.writers.csvfile import csv_bytes
from organiser.exports.writers.spreadsheet import sheet_name, workbook_bytes
from organiser.exports.writers.tables import MAX_COLUMN_WIDTH, Table, csv_safe
from tests.support.files import formula_cells, read_csv, read_workbook


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1", "@A1", "\tx", "\rx"])
def test_csv_prefixes_every_text_a_spreadsheet_would_run(text):
    assert csv_safe(text) == "'" + text


def test_csv_leaves_numbers_and_plain_text_alone():
    assert [csv_safe(v) for v in (-104, 0, "Anna", "1=1", None)] == [-104, 0, "Anna", "1=1", None]
    assert csv_safe(datetime(2026, 2, 10, 14, 5)) == "2026-02-10 14:05"


def test_the_writers_turn_formula_like_text_into_text():
    table = Table("Sheet", ["Name", "Score"], [["=SUM(B1:B9)", -12], ["\tTab", 7], ['"quoted", text', None]])
    assert read_csv(csv_bytes(table)) == [
        ["Name", "Score"],
        ["'=SUM(B1:B9)", "-12"],
        ["'\tTab", "7"],
        ['"quoted", text', ""],
    ]
    workbook = workbook_bytes([table])
    assert formula_cells(workbook) == []
    assert read_workbook(workbook)["Sheet"][1] == [
        ["Name", "Score"],
        ["=SUM(B1:B9)", -12],
        ["\tTab", 7],
        ['"quoted", text', None],
    ]


def test_sheet_names_are_valid_and_unique():
    used = set()
    names = [sheet_name(title, used) for title in ("Runda 1", "runda 1", "a/b:c*?[d]", "'", "x" * 40, "x" * 40)]
    assert names == ["Runda 1", "runda 1 (2)", "a b c   d", "Sheet", "x" * 31, "x" * 27 + " (2)"]


def test_columns_are_as_wide_as_their_longest_cell_within_bounds():
    table = Table("T", ["A", "Name"], [[1, "x" * 100], [22, "Anna"]])
    assert table.widths() == [6, MAX_COLUMN_WIDTH]


@pytest.mark.parametrize("path", ["/index.html", "../index.html", "a/../../b.html", "a\\b.html", "./a.html"])
def test_a_zip_path_must_stay_inside_the_archive(path):
    with pytest.raises(ValueError):
        zip_bytes({path: b""})


def test_the_zip_holds_the_files_in_order_and_the_same_files_give_the_same_bytes():
    files = {"players/1.html": b"<p>1</p>", "index.html": b"<p>i</p>"}
    data = zip_bytes(files)
    assert zip_bytes(dict(reversed(files.items()))) == data
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.namelist() == ["index.html", "players/1.html"]
        assert archive.read("players/1.html") == b"<p>1</p>"
