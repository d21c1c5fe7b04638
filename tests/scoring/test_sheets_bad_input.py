"""Bad input on the score sheet (SPEC §3): each message next to its field, nothing saved, no 500."""

import re

import pytest
from django.urls import reverse
from django.utils.functional import Promise
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import rules
from engine.tests.examples import examples
from scoring.models import Game, ScoreSheet
from tests.factories import build, example_one, sheet_url, started_round, table, text_of
from tournament.refusals import MESSAGES

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return build(
        7,
        rounds=[
            started_round(
                table(1, ["p1", "p2", "p3", "p4"], state="empty"), table(2, ["p5", "p6", "p7"], state="empty")
            )
        ],
    )


def refused(client, data, *, table_number=1, game_number=1):
    """Post a save (htmx) and check nothing was saved; returns the response HTML."""
    response = client.post(
        sheet_url("game_save", table_number=table_number, game_number=game_number), data, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert not Game.objects.exists()
    assert set(ScoreSheet.objects.values_list("version", flat=True)) == {0}
    return response.content.decode()


def errors_at(html, field, game=1):
    return text_of(html, f"g{game}-{field}-errors")


def test_no_winner(referee_client, tournament):
    html = refused(referee_client, example_one(ending=""))
    assert errors_at(html, "ending") == "Tap the player who went out, or “pool exhausted”."


def test_two_winners(referee_client, tournament):
    data = example_one()
    data["ending"] = ["A", "B"]
    html = refused(referee_client, data)
    assert errors_at(html, "ending") == "Only one player can go out in a game."


def test_a_rack_for_the_winner(referee_client, tournament):
    html = refused(referee_client, example_one(**{"A-tiles": "5"}))
    assert errors_at(html, "A-tiles") == "Seat A went out, so it has no rack: clear these values."


def test_a_keypad_rack_for_the_winner(referee_client, tournament):
    html = refused(referee_client, example_one(**{"A-keypad": "5"}))
    assert errors_at(html, "A-keypad") == "Seat A went out, so it has no rack: clear these values."


@pytest.mark.parametrize("tiles", ["729", "-1", "100000"])
def test_tiles_outside_0_to_728(referee_client, tournament, tiles):
    html = refused(referee_client, example_one(confirm_tiles="on", **{"B-tiles": tiles}))
    assert errors_at(html, "B-tiles") == "The sum of the tiles must be between 0 and 728."


def test_tiles_that_are_not_a_number(referee_client, tournament):
    html = refused(referee_client, example_one(**{"B-tiles": "2x"}))
    assert errors_at(html, "B-tiles") == "Enter the sum of the tiles as a whole number."


def test_above_200_asks_are_you_sure_and_the_server_enforces_it(referee_client, tournament):
    html = refused(referee_client, example_one(**{"B-tiles": "201"}))
    assert errors_at(html, "B-tiles") == "More than 200 points of tiles: are you sure? Tick the box to confirm."
    assert 'name="confirm_tiles"' in html
    response = referee_client.post(
        sheet_url("game_save", game_number=1), example_one(confirm_tiles="on", **{"B-tiles": "201"})
    )
    assert response.status_code == 302
    assert Game.objects.get().results.get(letter="A").score == 201 + 60 + 100


def test_more_than_two_jokers_on_a_rack(referee_client, tournament):
    html = refused(referee_client, example_one(**{"B-jokers": "3", "C-jokers": "0"}))
    assert errors_at(html, "B-jokers") == "A rack can hold at most 2 jokers."


def test_more_than_two_jokers_at_the_table(referee_client, tournament):
    html = refused(referee_client, example_one(**{"B-jokers": "2", "C-jokers": "1"}))
    message = "The set has only 2 jokers: at most 2 can be left in one game."
    assert errors_at(html, "B-jokers") == message
    assert errors_at(html, "C-jokers") == message
    assert errors_at(html, "D-jokers") == ""


def test_keypad_rack_with_a_ninth_copy_of_a_number(referee_client, tournament):
    data = example_one(
        **{"B-tiles": "", "B-keypad": "13 13 13 13 13", "C-tiles": "", "C-jokers": "0", "C-keypad": "13 13 13 13"}
    )
    html = refused(referee_client, data)
    assert errors_at(html, "C-keypad") == "The set has only 8 tiles numbered 13: check the racks of this game."


def test_keypad_racks_with_a_third_joker(referee_client, tournament):
    data = example_one(**{"B-keypad": "J J", "C-keypad": "4 J"})
    html = refused(referee_client, data)
    assert errors_at(html, "C-keypad") == "The set has only 2 jokers."


def test_keypad_face_that_is_not_a_tile(referee_client, tournament):
    html = refused(referee_client, example_one(**{"B-keypad": "7 14"}))
    assert errors_at(html, "B-keypad") == "A tile is a number from 1 to 13 or a joker."


THOUSANDS_OF_DIGITS = "9" * 5000  # int() of it raises: once a server error on preview and save


@pytest.mark.parametrize("view", ["game_save", "game_preview"])
@pytest.mark.parametrize(
    "posted, message",
    [
        (
            {"B-keypad": "7 " + THOUSANDS_OF_DIGITS},
            "More tiles than a rack can hold were entered: clear the rack and enter its tiles again.",
        ),
        (
            {"B-keypad": "7 " + THOUSANDS_OF_DIGITS, "key-B": "5"},
            "More tiles than a rack can hold were entered: clear the rack and enter its tiles again.",
        ),
        ({"B-keypad": "7 " + "9" * 300}, "A tile is a number from 1 to 13 or a joker."),
        ({"B-keypad": "7", "key-B": THOUSANDS_OF_DIGITS}, "A tile is a number from 1 to 13 or a joker."),
        (
            {"B-keypad": "7 13 " * 100},
            "More tiles than a rack can hold were entered: clear the rack and enter its tiles again.",
        ),
    ],
)
def test_a_keypad_with_thousands_of_digits_is_refused_next_to_the_keypad(
    referee_client, tournament, view, posted, message
):
    response = referee_client.post(
        sheet_url(view, game_number=1), example_one(**{"B-tiles": "", **posted}), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert errors_at(response.content.decode(), "B-keypad") == message
    assert not Game.objects.exists()


def test_a_keypad_key_still_adds_its_face(referee_client, tournament):
    url = sheet_url("game_preview", game_number=1)
    html = referee_client.post(url, example_one(**{"B-tiles": "", "B-keypad": "7 1", "key-B": "12"})).content.decode()
    assert errors_at(html, "B-keypad") == ""
    assert 'value="7 1 12"' in html


def test_unknown_opening(referee_client, tournament):
    html = refused(referee_client, example_one(**{"B-opening": "maybe"}))
    assert errors_at(html, "B-opening") == "Choose one of the four answers about the first laying out."


def test_missing_rack(referee_client, tournament):
    html = refused(referee_client, example_one(**{"C-tiles": ""}))
    assert errors_at(html, "C-tiles") == "Enter the tiles left on the rack of seat C (0 if none)."


def test_pool_exhausted_needs_every_rack(referee_client, tournament):
    html = refused(referee_client, {"version": 0, "ending": "pool", "A-tiles": "3", "B-tiles": "4", "C-tiles": "5"})
    assert errors_at(html, "D-tiles") == "Enter the tiles left on the rack of seat D (0 if none)."


def test_winner_must_sit_at_the_table(referee_client, tournament):
    data = {"version": 0, "ending": "D", "A-tiles": "3", "B-tiles": "4", "C-tiles": "5"}
    html = refused(referee_client, data, table_number=2)
    assert errors_at(html, "ending") == "The player who went out must sit at this table."


def test_a_plain_post_with_errors_shows_the_page_with_the_values_kept(referee_client, tournament):
    response = referee_client.post(sheet_url("game_save", game_number=1), example_one(**{"B-tiles": "999"}))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'value="999"' in html
    assert errors_at(html, "B-tiles") == "The sum of the tiles must be between 0 and 728."
    assert not Game.objects.exists()


def test_missing_or_broken_version_is_refused_without_a_500(referee_client, tournament):
    for version in ("", "abc", "-3"):
        html = refused(referee_client, example_one(version=version))
        assert text_of(html, "g1-errors") == (
            "This form is out of date. Reload the page; your values are kept on this tablet."
        )


@pytest.mark.parametrize(
    "url",
    [
        sheet_url("game_save", game_number=5),
        sheet_url("game_save", table_number=9, game_number=1),
        sheet_url("game_save", round_number=2, game_number=1),
    ],
)
def test_unknown_game_table_or_round_is_404(referee_client, tournament, url):
    assert referee_client.post(url, example_one()).status_code == 404


def test_save_needs_post(referee_client, tournament):
    assert referee_client.get(sheet_url("game_save", game_number=1)).status_code == 405


def test_a_draft_round_is_not_shown(referee_client):
    build(4, rounds=[started_round(table(1, ["p1", "p2", "p3", "p4"], state="empty"), state="draft")])
    assert referee_client.get(sheet_url()).status_code == 404


def test_signed_out_tablet_is_sent_to_the_login_page(client, tournament):
    response = client.post(
        sheet_url("game_save", game_number=1),
        example_one(),
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL="http://testserver" + sheet_url(),
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("accounts:login") + "?next=" + sheet_url()
    assert client.post(sheet_url("game_save", game_number=1), example_one()).status_code == 302


def test_signed_out_tablet_whose_current_url_is_no_address_is_sent_to_the_login_page(client, tournament):
    response = client.post(
        sheet_url("game_save", game_number=1), example_one(), HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL="http://[x"
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("accounts:login") + "?next=" + sheet_url("game_save", game_number=1)


def test_every_rule_violation_code_has_a_translatable_message():
    import inspect

    source = inspect.getsource(rules) + inspect.getsource(__import__("scoring.services.sheets").services.sheets)
    codes = set(re.findall(r'RuleViolation\(\s*"([a-z_]+)"', source))
    codes |= set(re.findall(r'Refused\(\s*"([a-z_]+)"', source))
    assert codes, "no codes found"
    assert codes <= set(MESSAGES)
    assert all(isinstance(message, Promise) for message in MESSAGES.values())


FIELD_NAMES = (
    ["version", "ending", "confirm_tiles", "reason"]
    + [f"{letter}-{name}" for letter in "ABCD" for name in ("tiles", "jokers", "opening", "first_move", "keypad")]
    + ["key-A", "key-C"]
)
ANY_TEXT = st.one_of(
    st.sampled_from(["", "0", "A", "pool", "J", "13", "201", "729", "-1", "back", "clear", "opened", "not_possible"]),
    st.text(max_size=30),
    st.integers(min_value=-(10**6), max_value=10**6).map(str),
)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.dictionaries(st.sampled_from(FIELD_NAMES), st.lists(ANY_TEXT, min_size=1, max_size=3), max_size=14),
    endpoint=st.sampled_from(["game_save", "game_preview"]),
    htmx=st.booleans(),
)
def test_no_posted_values_make_a_server_error(referee_client, tournament, data, endpoint, htmx):
    data = {key: [value.replace("\x00", "") for value in values] for key, values in data.items()}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = referee_client.post(sheet_url(endpoint, game_number=1), data, **headers)
    assert response.status_code in (200, 302, 409)
