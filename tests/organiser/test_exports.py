"""Results as a spreadsheet and as CSV (`export_results`, the organiser's downloads): read back
with openpyxl and the csv module, compared with the staff standings and with numbers worked out
by hand; no cell is ever a formula; a sheet that is not verified counts nowhere."""

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from organiser.exports.rows import standings_table
from scoring.selectors.standings import compute_standings, tie_note
from tests.factories import HOSTILE_CLUB, HOSTILE_NAMES, UNVERIFIED_SCORE, build, hostile_tournament
from tests.support.files import formula_cells, read_csv, read_workbook
from tests.support.produced import produced

pytestmark = pytest.mark.django_db

STANDINGS_HEADERS = [
    "Place",
    "Player",
    "Organisation",
    "Big points",
    "Small points",
    "Games won",
    "Status",
    "Points of",
    "Tie",
]
QUALIFYING = "the qualifying rounds"  # whose points each row shows: no final here


@pytest.fixture
def tournament():
    return hostile_tournament()


def export(tournament, tmp_path, fmt, *extra):
    out = tmp_path / f"out.{fmt}"
    call_command("export_results", tournament.slug, "--format", fmt, "--out", str(out), *extra, stdout=None)
    return out.read_bytes()


def expected_standings(tournament):
    return [
        [
            row.rank,
            row.player.name,
            row.player.organisation.name,
            row.points.big_points,
            row.points.small_points,
            row.points.games_won,
            row.status,
            QUALIFYING,
            tie_note(row) or None,
        ]
        for row in compute_standings(tournament)
    ]


def test_the_spreadsheet_holds_the_staff_standings_with_numbers_as_numbers(tournament, tmp_path):
    sheets = read_workbook(export(tournament, tmp_path, "xlsx"))
    assert list(sheets) == ["Standings", "Round 1", "Round 2", "Cards"]
    sheet, rows = sheets["Standings"]
    assert rows[0] == STANDINGS_HEADERS
    statuses = {"active": "active", "disqualified": "disqualified"}
    assert [[*r[:6], statuses[r[6]], *r[7:]] for r in expected_standings(tournament)] == rows[1:]
    # By hand: seats A of both tables share place 1 with +158; player 8 (seat D, red card) is last, no place.
    assert rows[1][:6] == [1, HOSTILE_NAMES[0], HOSTILE_CLUB, 1, 158, 1]
    assert rows[2][:6] == [1, HOSTILE_NAMES[4], "Klub 5", 1, 158, 1]
    assert rows[-1] == [None, HOSTILE_NAMES[7], "Klub 8", 1, -104, 1, "disqualified", QUALIFYING, None]
    assert all(isinstance(value, int) for row in rows[1:-1] for value in (row[0], *row[3:6]))
    assert sheet.freeze_panes == "A2"
    assert sheet.page_setup.orientation == "landscape" and sheet.page_setup.paperSize == 9
    assert sheet.sheet_properties.pageSetUpPr.fitToPage and sheet.page_setup.fitToHeight == 0  # one page wide
    assert sheet.page_setup.fitToWidth in (None, 1)  # 1 is the file format's default, left out
    assert sheet.column_dimensions["B"].width > 20  # sized to the longest name


def test_the_round_sheets_show_verified_sheets_only_and_the_cards_sheet_every_card(tournament, tmp_path):
    sheets = read_workbook(export(tournament, tmp_path, "xlsx"))
    header, *seats = sheets["Round 1"][1]
    assert header == [
        "Table",
        "Seat at the table",
        "Player",
        "Game 1",
        "Game 2",
        "Game 3",
        "Game 4",
        "Small points",
        "Big points",
    ]
    assert seats[0] == [1, "A", HOSTILE_NAMES[0], 183, -12, -5, -8, 158, 1]
    assert seats[3] == [1, "D", HOSTILE_NAMES[3], -100, -30, -9, 35, -104, 1]
    _, round2 = sheets["Round 2"]
    assert [row[:3] for row in round2[1:]] == [
        [1, "A", HOSTILE_NAMES[1]],
        [1, "B", HOSTILE_NAMES[2]],
        [1, "C", HOSTILE_NAMES[3]],
        [1, "D", HOSTILE_NAMES[0]],
        [2, "A", HOSTILE_NAMES[5]],
        [2, "B", HOSTILE_NAMES[6]],
        [2, "C", HOSTILE_NAMES[4]],
    ]
    assert all(value is None for row in round2[1:] for value in row[3:]), "a sheet not verified counts nowhere"
    _, cards = sheets["Cards"]
    assert cards[0] == ["Player", "Card", "Round", "Reason", "Time", "Withdrawn", "Reason for the withdrawal"]
    assert cards[1][:4] == [HOSTILE_NAMES[7], "red card", "Round 1", "=cmd|' /C calc'!A0"]
    assert cards[1][4].year >= 2026  # a date-time cell
    assert cards[1][5:] == [None, None]  # the card counts


def test_a_withdrawn_card_is_in_the_cards_sheet_with_when_and_why(tmp_path):
    withdrawn = {"at": "2026-02-10T10:05:00+00:00", "by": "head", "reason": "given to the wrong player"}
    tournament = build(
        4,
        cards=[
            {
                "player": "p2",
                "round": None,
                "colour": "yellow",
                "reason": "untidy table",
                "given_at": "2026-02-10T09:30:00+00:00",
                "withdrawn": withdrawn,
            }
        ],
    )
    _, cards = read_workbook(export(tournament, tmp_path, "xlsx"))["Cards"]
    assert cards[1][:4] == ["Gracz 2", "yellow card", None, "untidy table"]
    assert cards[1][5] > cards[1][4] and cards[1][6] == "given to the wrong player"


def test_no_cell_of_the_spreadsheet_is_a_formula(tournament, tmp_path):
    data = export(tournament, tmp_path, "xlsx")
    assert formula_cells(data) == []
    _, rows = read_workbook(data)["Standings"]
    assert [row[1] for row in rows[1:]][:1] == [HOSTILE_NAMES[0]]  # the text itself, unchanged


def test_the_unverified_score_is_in_no_export(tournament, tmp_path):
    files = [
        export(tournament, tmp_path, "xlsx"),
        export(tournament, tmp_path, "csv"),
        export(tournament, tmp_path, "csv", "--table", "rounds"),
    ]
    for data in files[1:]:
        assert str(UNVERIFIED_SCORE) not in data.decode("utf-8-sig")
    values = [v for _sheet, rows in read_workbook(files[0]).values() for row in rows for v in row]
    assert UNVERIFIED_SCORE not in values and 158 in values


def test_the_csv_standings_match_the_staff_standings_and_run_no_formula(tournament, tmp_path):
    rows = read_csv(export(tournament, tmp_path, "csv"))
    assert rows[0] == STANDINGS_HEADERS
    expected = [
        ["" if v is None else f"'{v}" if isinstance(v, str) and v[:1] in "=+-@" else str(v) for v in row]
        for row in expected_standings(tournament)
    ]
    assert rows[1:] == expected
    assert rows[1][1:3] == ["'" + HOSTILE_NAMES[0], "'" + HOSTILE_CLUB]
    assert rows[-1][0] == "" and rows[-1][6] == "disqualified"
    names = {row[1] for row in rows[1:]}
    assert {"'+48 600 100 200", "'-Anna Nowak", "'@SUM(A1:A9)", 'Zoë "Quote" O\'Neil', "שלום עליכם 🎲"} <= names


def test_the_rounds_csv_has_one_row_per_seat_of_every_played_round(tournament, tmp_path):
    rows = read_csv(export(tournament, tmp_path, "csv", "--table", "rounds"))
    assert rows[0][:4] == ["Round", "Table", "Seat at the table", "Player"]
    assert len(rows) == 1 + 8 + 7
    assert rows[1] == ["Round 1", "1", "A", "'" + HOSTILE_NAMES[0], "183", "-12", "-5", "-8", "158", "1"]
    assert rows[-1][:4] == ["Round 2", "2", "C", HOSTILE_NAMES[4]] and rows[-1][4:] == [""] * 6


def test_the_csv_for_excel_is_split_by_semicolons_and_the_comma_file_holds_the_same_rows(tournament, tmp_path):
    excel = export(tournament, tmp_path, "csv")
    comma = export(tournament, tmp_path, "csv", "--separator", "comma")
    # Excel in Polish splits a line at semicolons; names with commas or semicolons are quoted
    assert excel.startswith(b"\xef\xbb\xbf") and excel.split(b"\r\n")[0].decode("utf-8-sig") == ";".join(
        STANDINGS_HEADERS
    )
    assert comma.startswith(b"\xef\xbb\xbf") and comma.split(b"\r\n")[0].decode("utf-8-sig") == ",".join(
        STANDINGS_HEADERS
    )
    assert read_csv(comma, ",") == read_csv(excel)
    assert read_csv(comma, ",")[1][1] == "'" + HOSTILE_NAMES[0]  # the comma file is kept safe from formulas too
    rounds = export(tournament, tmp_path, "csv", "--table", "rounds", "--separator", "comma")
    assert read_csv(rounds, ",") == read_csv(export(tournament, tmp_path, "csv", "--table", "rounds"))


def test_headers_follow_the_active_language_polish_by_default(tournament, settings):
    from django.utils import translation

    with translation.override("pl"):
        assert standings_table(tournament).headers == [
            "Miejsce",
            "Gracz",
            "Organizacja",
            "Duże punkty",
            "Małe punkty",
            "Wygrane partie",
            "Status",
            "Punkty z",
            "Remis",
        ]


def test_a_tournament_without_rounds_gives_valid_files_with_the_players_only(tmp_path):
    tournament = build(5)
    sheets = read_workbook(export(tournament, tmp_path, "xlsx"))
    assert list(sheets) == ["Standings", "Cards"]
    assert sorted(row[1] for row in sheets["Standings"][1][1:]) == [f"Gracz {i}" for i in range(1, 6)]
    assert sheets["Cards"][1] == [
        ["Player", "Card", "Round", "Reason", "Time", "Withdrawn", "Reason for the withdrawal"]
    ]
    assert len(read_csv(export(tournament, tmp_path, "csv"))) == 6
    assert read_csv(export(tournament, tmp_path, "csv", "--table", "rounds"))[1:] == []


def test_an_unknown_slug_is_a_clear_error(tmp_path):
    for args in (["--format", "csv"], ["--format", "xlsx"]):
        with pytest.raises(CommandError, match="no tournament 'nope'"):
            call_command("export_results", "nope", *args, "--out", str(tmp_path / "x"))
    with pytest.raises(CommandError, match="no tournament 'nope'"):
        call_command("export_site", "nope", "--out", str(tmp_path / "x.zip"))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.django_db(transaction=True)  # the website's zip is made by the queue's task
def test_the_organiser_downloads_each_file(organiser_client, tournament):
    answers = {}
    for name, content_type in (
        ("results.xlsx", "application/vnd.openxmlformats"),
        ("standings.csv", "text/csv"),
        ("rounds.csv", "text/csv"),
        ("standings-comma.csv", "text/csv"),
        ("rounds-comma.csv", "text/csv"),
        ("results-site.zip", "application/zip"),
    ):
        response = produced(organiser_client, reverse("organiser:export_file", args=[tournament.slug, name]))
        assert response.status_code == 200 and response["Content-Type"].startswith(content_type)
        assert response["Content-Disposition"] == f'attachment; filename="{tournament.slug}-{name}"'
        answers[name] = response.content
    assert read_csv(answers["standings.csv"])[1][1] == "'" + HOSTILE_NAMES[0]
    assert read_csv(answers["standings-comma.csv"], ",") == read_csv(answers["standings.csv"])
    assert formula_cells(answers["results.xlsx"]) == []
    assert organiser_client.get(reverse("organiser:export_file", args=[tournament.slug, "x.exe"])).status_code == 404
    page = organiser_client.get(reverse("organiser:exports", args=[tournament.slug])).content.decode()
    assert "2 score sheets are not verified yet" in page  # round 2: one submitted, one empty
    for name in ("standings.csv", "rounds.csv", "standings-comma.csv", "rounds-comma.csv"):  # both kinds of CSV offered
        assert reverse("organiser:export_file", args=[tournament.slug, name]) in page
    assert "Standings (CSV for Excel)" in page and "Standings (CSV with commas)" in page
    dashboard = organiser_client.get(reverse("organiser:dashboard", args=[tournament.slug])).content.decode()
    assert reverse("organiser:exports", args=[tournament.slug]) in dashboard
