"""After the final, every standings output reads as its caption says (issue 31, part 1).

The tournament of `tests.factories.after_the_final`, worked out by hand there: places 1–4 are
the final's result (its own points, marked "final"), everyone else follows in qualifying order,
and the lot drawn for qualifying places 4–5 is noted on the row it placed (5th), not on the
silver medallist, whose place came from the final. Each output is rendered as a visitor or the
organiser gets it (the phones' page, the projector, the static results site, CSV, XLSX, both
PDFs) and read back: its caption, then its rows against the caption's rule and the numbers by hand.
"""

import io
import json
import re
from html.parser import HTMLParser

import pytest
from django.core.management import call_command
from django.utils import translation

from organiser.exports.downloads import EXPORT_FILES
from organiser.exports.site import site_files
from printing.testing import flat, pdf_text, strict_pdf_rendering  # noqa: F401
from scoring.selectors.standings import caption, compute_standings
from tests.factories import FINAL_CAPTION, FINAL_STANDINGS, after_the_final, build_hall
from tests.support.files import read_csv, read_workbook

pytestmark = pytest.mark.django_db

CAPTION_RULE = re.compile(
    r"Places 1–(\d+): the final \(.*?\); from place (\d+): big points, then small points, then games won"
)
FINAL_MARK = "final"
MARK_CLASSES = {"tag", "board__final"}  # the final's mark and a tie's note in the HTML outputs


def assert_follows_its_caption(text, rows):
    """`rows` (place, name, big, small, won, final mark, tie note) obey the caption `text`: the
    final's places first, all marked and ordered by the final's big then small points; from the
    next place nobody marked, by big points, small points, games won; places 1, 2, 3 … in order."""
    rule = CAPTION_RULE.fullmatch(text)
    assert rule, text
    final, first_after = int(rule[1]), int(rule[2])
    assert first_after == final + 1
    assert [row[0] for row in rows] == [str(place) for place in range(1, len(rows) + 1)]  # no shared place here
    finalists, others = rows[:final], rows[final:]
    assert all(row[5] for row in finalists) and not any(row[5] for row in others)
    by_final = [(row[2], row[3]) for row in finalists]
    assert by_final == sorted(by_final, reverse=True)
    by_qualifying = [(row[2], row[3], row[4]) for row in others]
    assert by_qualifying == sorted(by_qualifying, reverse=True)


class StandingsTable(HTMLParser):
    """The caption and the rows of the standings tables of a page: for each row, each cell's
    text (visually hidden text left out), the link text in it and the marks (tags) in it."""

    def __init__(self):
        super().__init__()
        self.captions, self.rows = [], []
        self.stack = []  # (tag, classes) of the open elements

    def handle_starttag(self, tag, attrs):
        classes = set((dict(attrs).get("class") or "").split())
        self.stack.append((tag, classes))
        if tag in ("caption",) or (tag == "p" and "board__caption" in classes):
            self.captions.append("")
        elif tag == "tr" and any(t == "tbody" for t, _ in self.stack):
            self.rows.append([])
        elif tag == "td" and self.rows:
            self.rows[-1].append({"text": "", "link": "", "marks": []})

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if any("visually-hidden" in classes and tag != "caption" for tag, classes in self.stack):
            return
        inside = [tag for tag, _ in self.stack]
        if "caption" in inside or any(tag == "p" and "board__caption" in c for tag, c in self.stack):
            self.captions[-1] += data
        elif "td" in inside and self.rows:
            cell = self.rows[-1][-1]
            cell["text"] += data
            if "a" in inside:
                cell["link"] += data
            tag, classes = self.stack[-1]
            if classes & MARK_CLASSES and data.strip():
                cell["marks"].append(data.strip())


def number(text):
    """A number as a page shows it: "+15", "−40" (a true minus sign), "0"."""
    return int(text.strip().replace("−", "-"))


def given_name_first(shown):
    """A player's name as FINAL_STANDINGS writes it ("Gracz 7") from a row's text, which shows the
    surname first ("7 Gracz UTW ..."): the rows name players as lists sorted by surname do."""
    surname, given_names = shown.split()[:2]
    return f"{given_names} {surname}"


def html_standings(html, *, notes=True):
    """(captions, rows) of the standings tables of a page; a row as in FINAL_STANDINGS."""
    parser = StandingsTable()
    parser.feed(html)
    rows = []
    for place, who, *figures in parser.rows:
        marks = who["marks"]
        # with a final: the final's three columns, then the qualifying three; the row's placing figures
        big, small, won = figures if len(figures) == 3 else figures[:3] if FINAL_MARK in marks else figures[3:]
        rows.append(
            (
                " ".join(place["text"].split()),
                given_name_first(who["link"] or who["text"].split("·")[0]),
                number(big["text"]),
                number(small["text"]),
                number(won["text"]),
                FINAL_MARK in marks,
                " ".join(mark for mark in marks if mark != FINAL_MARK) if notes else "",
            )
        )
    return [" ".join(text.split()) for text in parser.captions], rows


def without_notes(rows):
    return [(*row[:6], "") for row in rows]


def test_the_caption_says_how_the_rows_are_ordered():
    rows = compute_standings(after_the_final())
    assert caption(rows) == FINAL_CAPTION
    assert caption(rows[4:]) == "Big points, then small points, then games won"
    with translation.override("pl"):
        assert caption(rows) == (
            "Miejsca 1–4: finał (jego duże punkty, potem jego małe punkty, potem miejsce w eliminacjach); "
            "od miejsca 5: duże punkty, potem małe punkty, potem wygrane partie"
        )


def test_the_phones_standings_page(client):
    after_the_final()
    captions, rows = html_standings(client.get("/t/test/standings/").content.decode())
    assert captions == [FINAL_CAPTION]
    assert rows == FINAL_STANDINGS
    assert_follows_its_caption(captions[0], rows)


def text_between(html, start, end):
    """The text of `html` from `start` to `end`, tags left out and spaces joined ("" without `start`)."""
    if start not in html:
        return ""
    return " ".join(re.sub(r"<[^>]+>", " ", html.split(start)[1].split(end)[0]).split())


LOT = "“lot drawn by the head referee”"


def test_a_finalists_own_page_shows_the_final_the_qualifying_rounds_and_the_lot(client):
    # p6: qualifying 1 big point, +10, 1 game won, tied with p2 at 4–5 and put 4th (into the
    # final) by the lot; the final: 1 big point, +15, 1 game won: silver
    after_the_final()
    html = client.get("/t/test/player/p6/").content.decode()
    assert text_between(html, 'class="summary">', "</dl>") == (
        "Place silver medal, place 2 final Big points 1 Small points +15 Games won 1"
    )
    assert text_between(html, 'class="data placing__table">', "</table>") == (
        "Final Qualifying rounds Place 2 4 Big points 1 1 Small points +15 +10 Games won 1 1"
    )
    assert text_between(html, 'class="placing__decision">', "</p>") == (
        f"Places 4–5 of the qualifying rounds were settled by the head referee: {LOT}."
    )
    # p2, left out of the final by that lot: the qualifying figures, the places the lot settled
    html = client.get("/t/test/player/p2/").content.decode()
    assert text_between(html, 'class="summary">', "</dl>") == "Place 5 Big points 1 Small points +10 Games won 1"
    assert "placing__table" not in html
    assert (
        text_between(html, 'class="placing__decision">', "</p>")
        == f"Places 4–5 were settled by the head referee: {LOT}."
    )
    # p7, who reached the final without a tie: both parts, no decision
    html = client.get("/t/test/player/p7/").content.decode()
    assert text_between(html, 'class="data placing__table">', "</table>") == (
        "Final Qualifying rounds Place 1 3 Big points 2 1 Small points +20 +25 Games won 2 1"
    )
    assert "placing__decision" not in html
    with translation.override("pl"):
        html = client.get("/t/test/player/p6/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "Finał i eliminacje" in html and "Miejsca 4–5 w eliminacjach rozstrzygnął sędzia główny" in html


def test_the_results_sites_finalist_page_is_the_public_one():
    tournament = after_the_final()
    html = site_files(tournament)["players/6.html"].decode()
    assert text_between(html, 'class="data placing__table">', "</table>") == (
        "Final Qualifying rounds Place 2 4 Big points 1 1 Small points +15 +10 Games won 1 1"
    )
    assert text_between(html, 'class="placing__decision">', "</p>") == (
        f"Places 4–5 of the qualifying rounds were settled by the head referee: {LOT}."
    )


def test_the_projector(client):
    after_the_final()
    captions, rows = html_standings(client.get("/t/test/projector/").content.decode(), notes=False)
    assert captions == [FINAL_CAPTION, FINAL_CAPTION]  # shown above the board, and the table's own (hidden)
    assert rows == without_notes(FINAL_STANDINGS)  # the projector shows no notes
    assert_follows_its_caption(captions[0], rows)


def test_the_static_results_site():
    tournament = after_the_final()
    captions, rows = html_standings(site_files(tournament)["standings.html"].decode())
    assert captions == [FINAL_CAPTION]
    assert rows == FINAL_STANDINGS
    assert_follows_its_caption(captions[0], rows)


def spreadsheet_rows(table_rows):
    """Rows of the standings export (place, player, organisation, big, small, won, status,
    points of, tie) as in FINAL_STANDINGS; the caption rule reads "Points of"."""
    return [
        (str(place), name, int(big), int(small), int(won), points_of == "the final", tie or "")
        for place, name, _organisation, big, small, won, _status, points_of, tie in table_rows
    ]


def test_the_csv(tournament_files):
    header, *rows = read_csv(tournament_files["standings.csv"])
    assert header[3:] == ["Big points", "Small points", "Games won", "Status", "Points of", "Tie"]
    assert [row[7] for row in rows] == ["the final"] * 4 + ["the qualifying rounds"] * 4
    assert spreadsheet_rows(rows) == FINAL_STANDINGS
    assert_follows_its_caption(FINAL_CAPTION, spreadsheet_rows(rows))


def test_the_xlsx(tournament_files):
    sheet, (header, *rows) = read_workbook(tournament_files["results.xlsx"])["Standings"]
    assert header[7:] == ["Points of", "Tie"]
    assert spreadsheet_rows(rows) == FINAL_STANDINGS
    assert sheet.oddHeader.left.text == FINAL_CAPTION  # printed at the top of every page
    assert_follows_its_caption(sheet.oddHeader.left.text, spreadsheet_rows(rows))


@pytest.fixture
def tournament_files():
    tournament = after_the_final()
    return {name: make(tournament) for name, (_type, make) in EXPORT_FILES.items() if name.endswith(("csv", "xlsx"))}


PDF_ROW = re.compile(
    r"(\d+) (\d Gracz) Klub \d( final)?(?: (places \d–\d decided by the head referee))? (\d+) ([+−]?\d+) (\d+)"
)


def pdf_standings(content):
    """(caption, rows) of a standings PDF, read from its text in reading order."""
    text = flat(pdf_text(content))
    found = CAPTION_RULE.search(text)
    rows = [
        (place, given_name_first(name), int(big), number(small), int(won), bool(final), note or "")
        for place, name, final, note, big, small, won in PDF_ROW.findall(text)
    ]
    return found[0] if found else None, rows


@pytest.mark.parametrize(
    "path, who", [("/print/test/standings.pdf", "organiser"), ("/print/test/public/standings.pdf", "public")]
)
def test_the_pdf(client, organiser, path, who):
    after_the_final()
    if who == "organiser":
        client.force_login(organiser)
    response = client.get(path)
    assert response.status_code == 200
    found_caption, rows = pdf_standings(response.content)
    assert found_caption == FINAL_CAPTION
    assert rows == FINAL_STANDINGS
    assert_follows_its_caption(found_caption, rows)


# Each finalist's parts, worked out by hand from `tests.factories.after_the_final`:
# qualifying (big, small, won, place) and final (big, small, won).
FINALIST_PARTS = {
    "p7": (
        {"big_points": 1, "small_points": 25, "games_won": 1, "rank": 3},
        {"big_points": 2, "small_points": 20, "games_won": 2},
    ),
    "p6": (
        {"big_points": 1, "small_points": 10, "games_won": 1, "rank": 4},
        {"big_points": 1, "small_points": 15, "games_won": 1},
    ),
    "p1": (
        {"big_points": 2, "small_points": 60, "games_won": 2, "rank": 1},
        {"big_points": 1, "small_points": 5, "games_won": 1},
    ),
    "p5": (
        {"big_points": 2, "small_points": 50, "games_won": 2, "rank": 2},
        {"big_points": 0, "small_points": -40, "games_won": 0},
    ),
}
COMMAND_ROW = re.compile(r"^\s*(\S+)\s+(Gracz \d)\s+(\d+)\s+(-?\d+)\s+(\d+)\s", re.M)


def figures(rows):
    """{player: (place, big points, small points, games won)} of rows as in FINAL_STANDINGS."""
    return {row[1]: (row[0], row[2], row[3], row[4]) for row in rows}


def json_figures(rows):
    return {row["player"]: (str(row["rank"]), row["big_points"], row["small_points"], row["games_won"]) for row in rows}


def command_output(*args):
    out = io.StringIO()
    call_command("standings", "test", *args, stdout=out)
    return out.getvalue()


def test_every_output_shows_each_rows_figures_as_the_json_does(client, organiser):
    tournament = after_the_final()
    public_json = client.get("/t/test/standings.json").json()
    assert json.loads(command_output("--json")) == public_json  # every sheet verified: staff and public agree
    expected = json_figures(public_json)
    assert expected == figures(FINAL_STANDINGS)  # the final's own figures for its players (1 / +20 / 2 for the winner)
    parts = {row["player_id"]: (row["qualifying"], row["final"]) for row in public_json if "final" in row}
    assert parts == FINALIST_PARTS
    assert not any("qualifying" in row for row in public_json[4:])  # the others carry no parts

    files = {name: make(tournament) for name, (_type, make) in EXPORT_FILES.items() if name.endswith(("csv", "xlsx"))}
    outputs = {
        "standings page": html_standings(client.get("/t/test/standings/").content.decode())[1],
        "projector": html_standings(client.get("/t/test/projector/").content.decode(), notes=False)[1],
        "results site": html_standings(site_files(tournament)["standings.html"].decode())[1],
        "CSV for Excel": spreadsheet_rows(read_csv(files["standings.csv"])[1:]),
        "CSV with commas": spreadsheet_rows(read_csv(files["standings-comma.csv"], ",")[1:]),
        "XLSX": spreadsheet_rows(read_workbook(files["results.xlsx"])["Standings"][1][1:]),
        "public PDF": pdf_standings(client.get("/print/test/public/standings.pdf").content)[1],
        "manage.py standings": [
            (place, name, int(big), int(small), int(won))
            for place, name, big, small, won in COMMAND_ROW.findall(command_output())
        ],
    }
    client.force_login(organiser)
    outputs["staff PDF"] = pdf_standings(client.get("/print/test/standings.pdf").content)[1]
    for output, rows in outputs.items():
        assert figures(rows) == expected, output
    for ext_id, (qualifying, final) in FINALIST_PARTS.items():  # each finalist's own page: both parts
        html = client.get(f"/t/test/player/{ext_id}/").content.decode()
        shown = text_between(html, 'class="data placing__table">', "</table>")
        assert shown == (
            f"Final Qualifying rounds Place {expected[f'Gracz {ext_id[1:]}'][0]} {qualifying['rank']} "
            f"Big points {final['big_points']} {qualifying['big_points']} "
            f"Small points {signed(final['small_points'])} {signed(qualifying['small_points'])} "
            f"Games won {final['games_won']} {qualifying['games_won']}"
        )


def signed(value):
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def split_columns(html):
    """[(place, player, final's (big, small, won) or None, qualifying (big, small, won))] of a
    standings table that splits the final's figures from the qualifying ones, and its headers."""
    parser = StandingsTable()
    parser.feed(html)
    rows = []
    for place, who, *figures in parser.rows:
        assert len(figures) == 6, figures
        final = tuple(cell["text"].strip() for cell in figures[:3])
        rows.append(
            (
                " ".join(place["text"].split()),
                given_name_first(who["link"] or who["text"]),
                None if final == ("–", "–", "–") else tuple(number(text) for text in final),
                tuple(number(cell["text"]) for cell in figures[3:]),
            )
        )
    headers = re.findall(r'<th scope="col" class="[^"]*part[^"]*">(.*?)</th>', html, re.S)
    # the wide screens' labels (a phone's short ones, and their words for screen readers, left out)
    headers = [re.sub(r'<(abbr|span) class="[^"]*narrow-only[^"]*"[^>]*>.*?</\1>', "", header) for header in headers]
    return [" ".join(re.sub(r"<[^>]+>", " ", header).split()) for header in headers], rows


# The final's figures and the qualifying ones of FINAL_STANDINGS (issue 48.8), worked out in
# tests.factories: p7 final 2 / +20 / 2, qualifying 1 / +25 / 1; p6 1 / +15 / 1 and 1 / +10 / 1;
# p1 1 / +5 / 1 and 2 / +60 / 2; p5 0 / −40 / 0 and 2 / +50 / 2; the rest only qualifying.
SPLIT_STANDINGS = [
    ("1", "Gracz 7", (2, 20, 2), (1, 25, 1)),
    ("2", "Gracz 6", (1, 15, 1), (1, 10, 1)),
    ("3", "Gracz 1", (1, 5, 1), (2, 60, 2)),
    ("4", "Gracz 5", (0, -40, 0), (2, 50, 2)),
    ("5", "Gracz 2", None, (1, 10, 1)),
    ("6", "Gracz 3", None, (1, -15, 1)),
    ("7", "Gracz 4", None, (0, -55, 0)),
    ("8", "Gracz 8", None, (0, -85, 0)),
]
SPLIT_HEADERS = [
    f"{part} {figure}" for part in ("Final", "Qualifying") for figure in ("Big points", "Small points", "Games won")
]


@pytest.mark.parametrize("path", ["/t/test/standings/", "/t/test/projector/"])
def test_the_final_and_the_qualifying_figures_stand_in_separate_labelled_columns(client, path):
    after_the_final()
    headers, rows = split_columns(client.get(path).content.decode())
    assert headers == SPLIT_HEADERS
    assert [(place, who, final, qualifying) for place, who, final, qualifying in rows] == SPLIT_STANDINGS


def test_standings_without_a_final_keep_one_set_of_columns(client):
    build_hall()
    html = client.get("/t/test/standings/").content.decode()
    assert "part--final" not in html and "standings--split" not in html
