"""What a change to a score sheet costs the server: the queries of one request, and how often
the rules engine scores the game (a save scores it once, in the service, and the page shows
what the service returned).

Every request counts whole: the session, the user, and the tournament read with the user's role
(three queries, the same for every staff page) included; on SQLite the transaction's BEGIN and
COMMIT count too.
"""

import re

import pytest
from django.urls import reverse

from engine import rules
from scoring.models import ScoreSheet
from tests.factories import build, out_game, table
from tournament.models import AuditEntry

pytestmark = pytest.mark.django_db

SIGN_IN = 3  # the session, the user, and the tournament read with the user's roles (groups and grant)
SAVE = (
    SIGN_IN + 7
)  # the table with its stored games, the compare-and-swap, the game and its seats, the audit, a transaction
PREVIEW = SIGN_IN + 1  # the table with its stored games
SUBMIT = SIGN_IN + 5  # the table, the compare-and-swap (every game entered), the audit, a transaction
VERIFY = SIGN_IN + 5


def four_games():
    return [out_game(n, "ABCD"[n - 1], **{x: (5, 0) for x in "ABCD" if x != "ABCD"[n - 1]}) for n in range(1, 5)]


@pytest.fixture
def tournament():
    """Table 1 empty, table 2 with four games submitted, table 3 with four games verified."""
    return build(
        12,
        rounds=[
            {
                "number": 1,
                "kind": "qualifying",
                "state": "started",
                "tables": [
                    table(1, ["p1", "p2", "p3", "p4"], state="empty"),
                    table(2, ["p5", "p6", "p7", "p8"], four_games(), state="submitted"),
                    table(3, ["p9", "p10", "p11", "p12"], four_games(), state="verified"),
                ],
            }
        ],
    )


@pytest.fixture
def scorings(monkeypatch):
    """The calls of the rules engine's `score_game`, counted."""
    calls = []
    score_game = rules.score_game

    def counting(*args, **kwargs):
        calls.append(args)
        return score_game(*args, **kwargs)

    monkeypatch.setattr(rules, "score_game", counting)
    return calls


def url(name, table_number=1, **kwargs):
    return reverse(
        f"scoring:{name}", kwargs={"slug": "test", "round_number": 1, "table_number": table_number, **kwargs}
    )


def sheet(table_number=1):
    return ScoreSheet.objects.get(table__number=table_number)


def example_one(version, **extra):
    """SPEC §3 example 1: A goes out; B 23; C 10 and a joker (on the keypad); D could not lay out."""
    return {
        "version": version,
        "ending": "A",
        "B-tiles": "23",
        "C-keypad": "7 3 J",
        "D-opening": "not_possible",
        **extra,
    }


def text_of(html, element_id):
    match = re.search(rf'id="{re.escape(element_id)}"[^>]*>(.*?)</(output|span|div)>', html, re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", match.group(1)).split()) if match else None


def test_an_htmx_save_scores_once_and_shows_what_the_service_returned(
    referee_client, tournament, scorings, django_assert_max_num_queries
):
    with django_assert_max_num_queries(SAVE):
        response = referee_client.post(url("game_save", game_number=1), example_one(0), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert len(scorings) == 1
    assert text_of(html, "g1-status") == "✓ saved"
    assert [text_of(html, f"g1-{x}-score") for x in "ABCD"] == ["+183", "−23", "−60", "−100"]
    assert text_of(html, "g1-C-keypad-total") == "= 10 in tiles and 1 joker"
    assert 'id="g2-version" value="1"' in html and "+183" in html.split('id="sheet-summary"')[1]  # the totals
    assert sheet().version == 1


def test_a_save_validates_each_rack_once(referee_client, tournament, monkeypatch):
    """The form only parses; the service reads the keypad's faces once and the engine validates
    each rack once (while scoring the game): B, C and D have racks, A went out."""
    validated = []
    validate_rack = rules.validate_rack

    def counting(rack, path):
        validated.append(path)
        return validate_rack(rack, path)

    monkeypatch.setattr(rules, "validate_rack", counting)
    response = referee_client.post(url("game_save", game_number=1), example_one(0), HTTP_HX_REQUEST="true")
    assert text_of(response.content.decode(), "g1-status") == "✓ saved"
    assert sorted(validated) == ["racks.B", "racks.C", "racks.D"]


def test_saving_a_game_again_replaces_it_within_the_same_budget(
    referee_client, tournament, scorings, django_assert_max_num_queries
):
    referee_client.post(url("game_save", game_number=1), example_one(0), HTTP_HX_REQUEST="true")
    scorings.clear()
    with django_assert_max_num_queries(SAVE):
        response = referee_client.post(
            url("game_save", game_number=1), example_one(1, ending="pool", **{"A-tiles": "4"}), HTTP_HX_REQUEST="true"
        )
    assert len(scorings) == 1
    html = response.content.decode()
    assert [text_of(html, f"g1-{x}-score") for x in "ABCD"] == ["+183", "−23", "−60", "−100"]
    assert sheet().games.get().winner == ""


def test_a_retry_after_a_lost_reply_is_saved_already_within_the_budget(
    referee_client, tournament, scorings, django_assert_max_num_queries
):
    referee_client.post(url("game_save", game_number=1), example_one(0), HTTP_HX_REQUEST="true")
    scorings.clear()
    with django_assert_max_num_queries(SAVE):
        response = referee_client.post(url("game_save", game_number=1), example_one(0), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert len(scorings) == 1
    assert text_of(html, "g1-status") == "✓ saved" and 'id="g1-version" value="1"' in html
    assert AuditEntry.objects.filter(action="save_game").count() == 1 and sheet().version == 1


def test_the_preview_scores_once_and_saves_nothing(referee_client, tournament, scorings, django_assert_max_num_queries):
    with django_assert_max_num_queries(PREVIEW):
        response = referee_client.post(url("game_preview", game_number=1), example_one(0), HTTP_HX_REQUEST="true")
    assert len(scorings) == 1
    assert text_of(response.content.decode(), "g1-A-score") == "+183"
    assert sheet().version == 0


def test_submit_scores_nothing(referee_client, tournament, scorings, django_assert_max_num_queries):
    ScoreSheet.objects.filter(table__number=2).update(state="in_progress")
    with django_assert_max_num_queries(SUBMIT):
        response = referee_client.post(url("sheet_submit", table_number=2), {"version": 0})
    assert response.status_code == 302 and not scorings
    assert sheet(2).state == "submitted"


def test_verify_scores_nothing(head_referee_client, tournament, scorings, django_assert_max_num_queries):
    with django_assert_max_num_queries(VERIFY):
        response = head_referee_client.post(url("sheet_verify", table_number=2), {"version": 0})
    assert response.status_code == 302 and not scorings
    assert sheet(2).state == "verified"


def test_a_correction_of_a_verified_sheet_scores_once(
    head_referee_client, tournament, scorings, django_assert_max_num_queries
):
    data = example_one(0, reason="recounted with the players")
    with django_assert_max_num_queries(SAVE):
        response = head_referee_client.post(
            url("game_save", table_number=3, game_number=1), data, HTTP_HX_REQUEST="true"
        )
    assert len(scorings) == 1
    assert text_of(response.content.decode(), "g1-A-score") == "+183"
    assert (sheet(3).state, sheet(3).version) == ("verified", 1)
    assert AuditEntry.objects.get().action == "correct_game"
