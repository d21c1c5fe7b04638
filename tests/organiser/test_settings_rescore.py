"""New scoring settings that change verified results are a decision (SPEC §6): the settings page
shows first what would change (sheets, players, places), saves only when the head referee or
the organiser confirms it with a reason, and writes one audit entry per changed result; tie
decisions whose players are no longer tied are flagged. Settings that change nothing verified
save as before."""

import pytest

from organiser import services
from organiser.forms import TournamentForm
from scoring.models import SeatResult, TieDecision
from scoring.selectors.ties import decisions_to_review
from tests.factories import build, out_game, settings_data, table
from tournament.models import AuditEntry, Tournament
from tournament.refusals import Refused

pytestmark = pytest.mark.django_db

URL = "/staff/test/settings/"

# Round 1, completed and verified; a final of four follows.
# Table 1 (p1 A, p2 B, p3 C, p4 D): A goes out in every game, B, C, D keep 5 each:
#   p1 4 big points +60; p2, p3, p4 0 big points −20 each.
# Table 2 (p5 A, p6 B, p7 C, p8 D):
#   game 1: A out; B a joker (−50 with jokers at 50, −30 at 30), C 10, D 50 → A +110 (+90)
#   game 2: B out; A 1, C 2, D 3 → B +6, A −1, C −2, D −3
#   game 3: D out; A 1, C 2, B 3 → D +6, A −1, C −2, B −3
#   game 4: C out; A, B, D 2 each → C +6, A −2, B −2, D −2
#   p5 1 big point +106 (+86), p6 1 −49 (−29), p7 1 −8, p8 1 −49.
# Standings with jokers at 50: 1 p1, 2 p5, 3 p7, 4–5 p6 and p8 (across the last seat of the
# final: the head referee decides), 6–8 p2, p3, p4. With jokers at 30: p6 4th, p8 5th.
TABLE_1 = [out_game(n, "A", B=(5, 0), C=(5, 0), D=(5, 0)) for n in range(1, 5)]
TABLE_2 = [
    out_game(1, "A", B=(0, 1), C=(10, 0), D=(50, 0)),
    out_game(2, "B", A=(1, 0), C=(2, 0), D=(3, 0)),
    out_game(3, "D", A=(1, 0), C=(2, 0), B=(3, 0)),
    out_game(4, "C", A=(2, 0), B=(2, 0), D=(2, 0)),
]


def qualified(state="verified"):
    rounds = [
        {
            "number": 1,
            "state": "completed",
            "tables": [
                table(1, ["p1", "p2", "p3", "p4"], TABLE_1, "verified"),
                table(2, ["p5", "p6", "p7", "p8"], TABLE_2, state),
            ],
        }
    ]
    return build(8, rounds=rounds, settings={"rounds_planned": 1})


def scores(letter_table=2):
    results = SeatResult.objects.filter(game__sheet__table__number=letter_table, game__number=1)
    return dict(results.values_list("letter", "score"))


def post(client, tournament, *, confirm=None, reason=None, token=None, **changes):
    data = settings_data(tournament, **changes)
    if confirm:
        data["rescore-confirm"] = "1"
    if reason is not None:
        data["rescore-reason"] = reason
    if token is not None:
        data["rescore-token"] = token
    return client.post(URL, data)


def test_a_setting_that_changes_verified_results_is_shown_first_and_changes_nothing(organiser_client):
    tournament = qualified()
    before = scores()
    response = post(organiser_client, tournament, joker_penalty="30")
    assert response.status_code == 200
    page = response.content.decode()
    assert "These settings change verified results" in page
    assert "Not saved yet: these settings change 2 results of verified sheets." in page
    plan = response.context["plan"]
    assert [(c.seat.player.ext_id, c.games) for c in plan.changes] == [("p5", [(1, 110, 90)]), ("p6", [(1, -50, -30)])]
    assert [(c.before.small_points, c.after.small_points) for c in plan.changes] == [(106, 86), (-49, -29)]
    # which sheet, which players, points before → after, places before → after
    assert "Round 1 · Table 2" in page and "Gracz 5" in page and "game 1: +110 → +90" in page
    assert "game 1: −50 → −30" in page and "−49 → <strong>−29</strong>" in page
    places = {p.player.ext_id: (p.before.rank_label, p.after.rank_label) for p in plan.places}
    assert places == {"p5": ("2", "2"), "p6": ("4–5", "4"), "p8": ("4–5", "5")}
    assert "4–5 → <strong>4</strong>" in page
    assert 'name="rescore-confirm"' in page and "Save and change 2 verified results" in page
    # nothing was saved: scores, settings and the log as they were
    assert scores() == before
    tournament.refresh_from_db()
    assert tournament.joker_penalty == 50
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize(
    "confirm, reason, token, message",
    [
        (True, "", "plan", "give the reason for changing verified results"),
        (True, "   ", "plan", "give the reason for changing verified results"),
        (True, "New rules", "", "no longer what you checked"),
        (True, "New rules", "0" * 32, "no longer what you checked"),
        (False, "New rules", "plan", "Not saved yet"),  # the plain save button does not confirm
    ],
)
def test_a_post_without_confirmation_and_reason_is_refused_and_changes_nothing(
    organiser_client, confirm, reason, token, message
):
    tournament = qualified()
    plan = post(organiser_client, tournament, joker_penalty="30").context["plan"]
    response = post(
        organiser_client,
        tournament,
        joker_penalty="30",
        confirm=confirm,
        reason=reason,
        token=plan.token if token == "plan" else token,
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert scores() == {"A": 110, "B": -50, "C": -10, "D": -50}
    tournament.refresh_from_db()
    assert tournament.joker_penalty == 50
    assert not AuditEntry.objects.exists()


def test_confirmed_with_a_reason_each_changed_result_is_logged_before_and_after(organiser_client, organiser):
    tournament = qualified()
    token = post(organiser_client, tournament, joker_penalty="30").context["plan"].token
    response = post(
        organiser_client, tournament, joker_penalty="30", confirm=True, reason="  Regulamin 2026  ", token=token
    )
    assert response.status_code == 302 and response["Location"] == "/staff/test/"
    assert scores() == {"A": 90, "B": -30, "C": -10, "D": -50}
    entries = AuditEntry.objects.filter(action="rescore_result").order_by("pk")
    assert [(e.reason, e.user, e.sheet.table.number) for e in entries] == [("Regulamin 2026", organiser, 2)] * 2
    assert entries[0].before == {
        "round": 1,
        "table": 2,
        "seat": "A",
        "player": "p5",
        "name": "Gracz 5",
        "scores": {"1": 110, "2": -1, "3": -1, "4": -2},
        "small_points": 106,
        "big_points": 1,
        "games_won": 1,
    }
    assert entries[0].after == dict(entries[0].before, scores={"1": 90, "2": -1, "3": -1, "4": -2}, small_points=86)
    assert (entries[1].before["small_points"], entries[1].after["small_points"]) == (-49, -29)
    settings = AuditEntry.objects.get(action="settings_rescore")
    assert (settings.before, settings.after, settings.reason) == (
        {"joker_penalty": 50},
        {"joker_penalty": 30},
        "Regulamin 2026",
    )
    messages = [str(m) for m in response.wsgi_request._messages]
    assert "2 results of verified sheets changed; each is in the log with your reason." in messages
    # the changes are on the sheet's log, in words
    log = organiser_client.get("/referee/test/round/1/table/2/log/").content.decode()
    assert "Regulamin 2026" in log and "game 1 +110" in log and "game 1 +90" in log


def test_settings_that_change_no_verified_result_save_as_before(organiser_client):
    tournament = qualified(state="submitted")  # table 2 is not verified yet
    response = post(organiser_client, tournament, joker_penalty="30")
    assert response.status_code == 302
    assert scores() == {"A": 90, "B": -30, "C": -10, "D": -50}
    messages = [str(m) for m in response.wsgi_request._messages]
    assert "Scores were recomputed with the new settings: 2 results changed." in messages
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.before, entry.after) == (
        "settings_rescore",
        {"joker_penalty": 50},
        {"joker_penalty": 30},
    )
    # and a change of no scoring setting at all is saved without a word about results
    response = post(organiser_client, Tournament.objects.get(), name="Senioriada Kraków", joker_penalty="30")
    assert response.status_code == 302 and AuditEntry.objects.count() == 1


def test_big_points_by_place_change_big_points_only_and_are_confirmed_too(organiser_client):
    tournament = qualified()
    response = post(organiser_client, tournament, big_point_places="2, 0, 0, 0")
    plan = response.context["plan"]
    assert len(plan.changes) == 5 and all(not change.games for change in plan.changes)  # the games' winners
    assert "the same game scores" in response.content.decode()
    assert {(c.seat.player.ext_id, c.before.big_points, c.after.big_points) for c in plan.changes} == {
        ("p1", 4, 8),
        ("p5", 1, 2),
        ("p6", 1, 2),
        ("p7", 1, 2),
        ("p8", 1, 2),
    }


def test_only_the_head_referee_or_the_organiser_confirms(referee, organiser):
    tournament = qualified()
    form = TournamentForm(settings_data(tournament, joker_penalty="30"), instance=tournament)
    assert form.is_valid()
    with pytest.raises(services.ResultsWouldChange) as shown:
        services.save_tournament(form, user=organiser)
    confirmation = services.Confirmation(token=shown.value.plan.token, reason="New rules")
    form = TournamentForm(settings_data(tournament, joker_penalty="30"), instance=Tournament.objects.get())
    assert form.is_valid()
    with pytest.raises(Refused, match="^rescore_head_referee_only$"):
        services.save_tournament(form, user=referee, confirmation=confirmation)
    assert Tournament.objects.get().joker_penalty == 50


def test_a_tie_decision_whose_players_are_no_longer_tied_is_flagged(organiser_client, head_referee, client):
    tournament = qualified()
    TieDecision.objects.create(tournament=tournament, order=["p8", "p6"], reason="Losowanie", decided_by=head_referee)
    assert decisions_to_review(tournament) == []
    response = post(organiser_client, tournament, joker_penalty="30")
    page = response.content.decode()
    assert [tie.names for tie in response.context["plan"].ties] == [["Gracz 8", "Gracz 6"]]
    assert "Tie decisions" in page and "Gracz 8, Gracz 6" in page
    token = response.context["plan"].token
    response = post(organiser_client, tournament, joker_penalty="30", confirm=True, reason="New rules", token=token)
    messages = [str(m) for m in response.wsgi_request._messages]
    assert any("1 tie decision no longer orders a tie" in m for m in messages)
    # kept, but flagged where the head referee looks: the ties page and the dashboard
    assert TieDecision.objects.count() == 1
    assert [review.names for review in decisions_to_review(tournament)] == [["Gracz 8", "Gracz 6"]]
    client.force_login(head_referee)
    ties = client.get("/referee/test/ties/").content.decode()
    assert "Needs a new look: Gracz 8, Gracz 6" in ties and "Losowanie" in ties
    dashboard = client.get("/staff/test/").content.decode()
    assert "1 tie decision needs a new look" in dashboard and 'href="/referee/test/ties/"' in dashboard
