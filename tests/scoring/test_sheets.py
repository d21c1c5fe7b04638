"""Score-sheet entry on the referee tablet: pages, live preview, saving games, totals, submit."""

import re

import pytest
from django.urls import reverse

from scoring.models import Game
from tests.factories import build, example_one, out_game, sheet_of, sheet_url, started_round, table, text_of
from tournament.models import AuditEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return build(
        8,
        rounds=[
            started_round(
                table(1, ["p1", "p2", "p3", "p4"], state="empty"), table(2, ["p5", "p6", "p7", "p8"], state="empty")
            )
        ],
    )


def test_home_lists_the_current_rounds_tables_with_their_state(referee_client, tournament):
    response = referee_client.get(reverse("scoring:home", kwargs={"slug": "test"}))
    assert response.status_code == 200
    html = response.content.decode()
    assert sheet_url(table_number=1) in html and sheet_url(table_number=2) in html
    assert "Gracz 5" in html


def test_home_picks_the_latest_started_round():
    build(
        8,
        rounds=[
            started_round(
                table(1, ["p1", "p2", "p3", "p4"], [out_game(1, "A", B=(1, 0), C=(1, 0), D=(1, 0))]),
                table(2, ["p5", "p6", "p7", "p8"]),
                state="completed",
            ),
            started_round(
                table(1, ["p1", "p5", "p2", "p6"], state="empty"),
                table(7, ["p3", "p7", "p4", "p8"], state="empty"),
                number=2,
            ),
        ],
    )
    from tournament.models import Tournament
    from tournament.selectors import current_round

    assert current_round(Tournament.objects.get(slug="test")).number == 2


def test_sheet_shows_seats_games_and_starting_seats(referee_client, tournament):
    response = referee_client.get(sheet_url())
    html = response.content.decode()
    assert response.status_code == 200
    for n in range(1, 5):
        assert f'id="game-{n}"' in html
    assert "started by B · Gracz 2" in html
    assert "Gracz 4" in html


def test_preview_computes_the_scores_without_saving(referee_client, tournament):
    response = referee_client.post(sheet_url("game_preview", game_number=1), example_one(), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    scores = {letter: text_of(html, f"g1-{letter}-score") for letter in "ABCD"}
    assert scores == {"A": "+183", "B": "−23", "C": "−60", "D": "−100"}
    assert 'hx-swap-oob="true"' in html and 'name="B-tiles"' not in html  # no input is replaced
    assert not Game.objects.exists()


def test_preview_of_an_unfinished_game_shows_rack_minus_points_and_no_errors(referee_client, tournament):
    response = referee_client.post(
        sheet_url("game_preview", game_number=1),
        {"version": 0, "B-tiles": "23", "B-jokers": "0"},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert text_of(html, "g1-B-score") == "−23"
    assert text_of(html, "g1-A-score") == "–"
    assert "errorlist" not in html


def test_keypad_faces_are_added_up_by_the_server(referee_client, tournament):
    data = example_one(**{"C-tiles": "", "C-jokers": "0", "C-keypad": "7 3 J"})
    response = referee_client.post(sheet_url("game_preview", game_number=1), data, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert text_of(html, "g1-C-keypad-total") == "= 10 in tiles and 1 joker"
    assert text_of(html, "g1-A-score") == "+183"


def test_keypad_key_without_javascript_adds_a_face(referee_client, tournament):
    data = example_one(**{"C-tiles": "", "C-jokers": "0", "C-keypad": "7 3", "key-C": "J"})
    response = referee_client.post(sheet_url("game_preview", game_number=1), data)
    html = response.content.decode()
    assert response.status_code == 200
    assert 'value="7 3 J"' in html
    assert "+183" in html


def test_save_stores_the_game_bumps_the_version_and_audits(referee_client, referee, tournament):
    response = referee_client.post(sheet_url("game_save", game_number=1), example_one(), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    sheet = sheet_of(tournament)
    assert (sheet.version, sheet.state) == (1, "in_progress")
    game = sheet.games.get(number=1)
    assert {r.letter: r.score for r in game.results.all()} == {"A": 183, "B": -23, "C": -60, "D": -100}
    entry = AuditEntry.objects.get(sheet=sheet)
    assert entry.action == "save_game" and entry.user == referee and entry.before is None
    assert (
        entry.after["version"] == 1
        and entry.after["game"]["scores"]["C"] == -60
        and entry.after["game"]["racks"]["C"]["jokers"] == 1
    )
    html = response.content.decode()
    assert 'id="sheet-summary"' in html and 'hx-swap-oob="true"' in html
    assert 'id="g2-version" value="1"' in html  # the other games' forms move on to the new version


def test_plain_post_redirects_after_saving(referee_client, tournament):
    response = referee_client.post(sheet_url("game_save", game_number=1), example_one())
    assert response.status_code == 302
    assert response["Location"].endswith(sheet_url() + "#game-2")  # the next game to enter


def test_round_totals_and_big_points_under_the_games(referee_client, tournament):
    referee_client.post(sheet_url("game_save", game_number=1), example_one())
    pool = {
        "version": 1,
        "ending": "pool",
        "A-tiles": "12",
        "B-tiles": "7",
        "C-tiles": "7",
        "D-opening": "possible_not_done",
    }
    assert referee_client.post(sheet_url("game_save", game_number=2), pool).status_code == 302
    page = referee_client.get(sheet_url())
    totals = dict((letter, total) for letter, _, total in page.context["page"].totals)
    # Game 1: A +183, B −23, C −60, D −100. Game 2 (SPEC example 2): A −12, B +106, C +106, D −200.
    assert totals["A"] == {"small_points": 171, "big_points": 1, "games_won": 1}
    assert totals["B"] == {"small_points": 83, "big_points": 1, "games_won": 1}
    assert totals["C"] == {"small_points": 46, "big_points": 1, "games_won": 1}
    assert totals["D"] == {"small_points": -300, "big_points": 0, "games_won": 0}
    assert "+171" in page.content.decode()


def save_all_games(client, tournament):
    for n in range(1, 5):
        winner = "ABCD"[n - 1]
        data = {"version": sheet_of(tournament).version, "ending": winner}
        for letter in "ABCD":
            if letter != winner:
                data[f"{letter}-tiles"] = "5"
        assert client.post(sheet_url("game_save", game_number=n), data).status_code == 302


def test_submit_needs_every_game(referee_client, tournament):
    referee_client.post(sheet_url("game_save", game_number=1), example_one())
    response = referee_client.post(sheet_url("sheet_submit"), {"version": 1}, follow=True)
    assert "Missing: 2, 3, 4" in response.content.decode()
    assert sheet_of(tournament).state == "in_progress"


def test_submit_a_complete_sheet(referee_client, tournament):
    save_all_games(referee_client, tournament)
    sheet = sheet_of(tournament)
    page = referee_client.get(sheet_url()).content.decode()
    assert "Submit sheet" in page
    referee_client.post(sheet_url("sheet_submit"), {"version": sheet.version})
    sheet.refresh_from_db()
    assert sheet.state == "submitted" and sheet.submitted_at is not None
    assert AuditEntry.objects.filter(sheet=sheet, action="submit").exists()


def test_a_saved_game_shows_saved_in_the_preview_when_unchanged(referee_client, tournament):
    referee_client.post(sheet_url("game_save", game_number=1), example_one())
    response = referee_client.post(
        sheet_url("game_preview", game_number=1), example_one(version=1), HTTP_HX_REQUEST="true"
    )
    assert text_of(response.content.decode(), "g1-status") == "✓ saved"


def test_sheet_page_queries_do_not_grow_with_games(referee_client, tournament, django_assert_max_num_queries):
    save_all_games(referee_client, tournament)
    with django_assert_max_num_queries(20):
        assert referee_client.get(sheet_url()).status_code == 200


def test_home_queries_do_not_grow_with_tables(referee_client, django_assert_max_num_queries):
    n = 40
    tables = [
        table(t, [f"p{4 * t - 3}", f"p{4 * t - 2}", f"p{4 * t - 1}", f"p{4 * t}"], state="empty")
        for t in range(1, n // 4 + 1)
    ]
    build(n, rounds=[started_round(*tables)])
    with django_assert_max_num_queries(12):
        assert referee_client.get(reverse("scoring:home", kwargs={"slug": "test"})).status_code == 200


def open_games(html):
    """The numbers of the games shown open (the others are folded to one line)."""
    return [
        int(n)
        for n in re.findall(r'<section class="game" id="game-(\d+)"[^>]*>\s*<details class="game__details" open>', html)
    ]


def test_only_the_game_being_entered_is_open(referee_client, tournament):
    assert open_games(referee_client.get(sheet_url()).content.decode()) == [1]
    referee_client.post(sheet_url("game_save", game_number=1), example_one())
    html = referee_client.get(sheet_url()).content.decode()
    assert open_games(html) == [2]
    # Game 1 folds to one line: who went out, and every seat's score.
    line = re.search(r'id="g1-scores"[^>]*>(.*)\n', html).group(1)
    assert " ".join(re.sub(r"<[^>]+>", " ", line).split()) == "A Gracz 1 went out A +183 B −23 C −60 D −100"


def test_a_game_with_values_not_saved_stays_open(referee_client, tournament):
    referee_client.post(sheet_url("game_save", game_number=1), example_one())
    response = referee_client.post(sheet_url("game_save", game_number=3), {"version": 1, "ending": "A"})  # no racks
    assert open_games(response.content.decode()) == [2, 3]


def test_submitting_asks_for_confirmation_first(referee_client, tournament):
    save_all_games(referee_client, tournament)
    html = referee_client.get(sheet_url()).content.decode()
    assert open_games(html) == []
    confirm = re.search(r'<details class="confirm-submit">.*?</details>', html, re.S).group(0)
    assert "<summary" in confirm and f'action="{sheet_url("sheet_submit")}"' in confirm
    assert "Yes, submit the sheet" in confirm and "only the head referee can change the sheet" in confirm
