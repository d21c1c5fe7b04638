"""The draw, the quality report, swaps and the round lifecycle up to the final (SPEC §4–§6)."""

import re

import pytest

from accounts.models import DeviceLink
from engine import seating
from organiser import services
from scoring.models import Card, ScoreSheet
from tests.factories import build, checked_in, out_game, table, verify_sheets
from tournament.models import AuditEntry, Player, Round, Seat
from tournament.refusals import Refused

pytestmark = pytest.mark.django_db


def seated_ids(round_):
    return set(Seat.objects.filter(round=round_).values_list("player__ext_id", flat=True))


def seating_of(round_):
    return [
        dict(Seat.objects.filter(table=t).values_list("letter", "player__ext_id"))
        for t in round_.tables.order_by("number")
    ]


def play_round(round_, user=None):
    services.start_round(round_, user=user)
    verify_sheets(round_)
    services.complete_round(round_, user=user)


# ------------------------------------------------------------------ the draw


def test_round_1_seats_only_checked_in_active_players_with_a_recorded_seed(organiser):
    tournament = build(10)
    Player.objects.exclude(ext_id__in=["p9", "p10"]).update(present=True)
    Player.objects.filter(ext_id="p8").update(status="withdrawn")
    round_ = services.draw_round(tournament, user=organiser)
    assert (round_.number, round_.state, round_.method, round_.kind) == (1, "draft", "random", "qualifying")
    assert round_.seed.isdigit()
    assert seated_ids(round_) == {"p1", "p2", "p3", "p4", "p5", "p6", "p7"}
    assert [t.seats.count() for t in round_.tables.order_by("number")] == [4, 3]
    assert ScoreSheet.objects.filter(table__round=round_, state="empty").count() == 2
    assert AuditEntry.objects.get(action="round_draw").after == {
        "round": 1,
        "method": "random",
        "seed": round_.seed,
        "players": 7,
    }


def test_the_same_seed_repeats_the_same_draw(organiser):
    tournament = checked_in(13)
    first = seating_of(services.draw_round(tournament, seed="2026", user=organiser))
    services.discard_round(tournament.rounds.get(), user=organiser)
    assert seating_of(services.draw_round(tournament, seed="2026", user=organiser)) == first
    assert tournament.rounds.get().seed == "2026"


@pytest.mark.parametrize(
    "present, message",
    [
        (0, "At least 3 active, checked-in players are needed to seat a round; there are 0."),
        (2, "At least 3 active, checked-in players are needed to seat a round; there are 2."),
        (5, "5 players cannot be seated: tables are for 3 or 4 players."),
    ],
)
def test_too_few_or_exactly_five_players_cannot_be_seated(organiser_client, present, message):
    build(8)
    Player.objects.filter(start_number__lte=present).update(present=True)
    page = organiser_client.get("/staff/test/draw/").content.decode()
    assert message in page
    response = organiser_client.post("/staff/test/draw/", {"method": "random", "seed": ""})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Round.objects.exists()


def test_withdrawn_or_disqualified_players_are_never_seated_later(organiser):
    tournament = checked_in(9)
    round_1 = services.draw_round(tournament, user=organiser)
    play_round(round_1)
    Player.objects.filter(ext_id="p1").update(status="withdrawn")
    Player.objects.filter(ext_id="p2").update(status="disqualified")
    round_2 = services.draw_round(tournament, user=organiser)
    assert seated_ids(round_2) == {f"p{i}" for i in range(3, 10)}
    assert round_2.method == "mixed"


def test_a_late_arrival_is_seated_from_the_round_they_join(organiser):
    tournament = checked_in(8)
    Player.objects.filter(ext_id="p8").update(present=False)
    play_round(services.draw_round(tournament, user=organiser))
    services.set_present(Player.objects.get(ext_id="p8"), present=True, user=organiser)
    assert "p8" in seated_ids(services.draw_round(tournament, user=organiser))


def page_text(html):
    return " ".join(re.sub(r"<[^>]+>", " ", html).split()).replace(" ,", ",").replace(" ;", ";")


def test_the_draw_page_names_the_registered_players_it_will_not_seat(organiser_client, organiser):
    tournament = checked_in(8)
    play_round(services.draw_round(tournament, user=organiser))
    late = services.add_player(
        tournament, name="Anna Nowak", organisation="Klub A", user=organiser
    )  # here: the default
    services.add_player(tournament, name="Ewa Ćwik", organisation="Klub B", present=False, user=organiser)
    services.add_player(tournament, name="Jan Cebula", organisation="Klub C", present=False, user=organiser)
    Player.objects.filter(ext_id="p1").update(status="withdrawn")
    html = organiser_client.get("/staff/test/draw/").content.decode()
    assert re.search(r"Players to seat</dt><dd>8<", html)
    assert "Not seated: Cebula Jan, Ćwik Ewa (not checked in); 1 Gracz (withdrawn)" in page_text(html)
    assert 'href="/staff/test/players/"' in html.split('id="not-seated"')[1]
    round_2 = services.draw_round(tournament, user=organiser)
    assert late.ext_id in seated_ids(round_2) and len(seated_ids(round_2)) == 8


def test_the_draw_page_names_nobody_when_everyone_is_seated(organiser_client):
    checked_in(8)
    assert 'id="not-seated"' not in organiser_client.get("/staff/test/draw/").content.decode()


def test_a_field_that_cannot_be_seated_names_who_is_missing(organiser_client):
    build(6)
    Player.objects.filter(start_number__lte=5).update(present=True)
    html = organiser_client.get("/staff/test/draw/").content.decode()
    assert "5 players cannot be seated" in html
    assert "Not seated: 6 Gracz (not checked in)" in page_text(html)


def test_the_engine_gets_history_standings_and_organisations(monkeypatch, organiser):
    calls = []
    real = seating.draw_round

    def spy(players, history, **kwargs):
        calls.append((sorted(players), history, kwargs))
        return real(players, history, **kwargs)

    monkeypatch.setattr(seating, "draw_round", spy)
    games = [out_game(1, "C", A=(10, 0), B=(5, 0), D=(20, 0)), out_game(2, "D", A=(1, 0), B=(2, 0), C=(3, 0))]
    tournament = build(
        8,
        rounds=[
            {
                "number": 1,
                "seed": "7",
                "method": "random",
                "tables": [table(1, ["p1", "p2", "p3", "p4"], games), table(2, ["p5", "p6", "p7", "p8"])],
            }
        ],
        settings={"players_per_organisation": 2, "rounds_planned": 4},
    )
    Player.objects.update(present=True)
    pk = dict(Player.objects.values_list("ext_id", "pk"))
    round_2 = services.draw_round(tournament, method="swiss", seed="s", user=organiser)
    players, history, kwargs = calls[-1]
    assert players == sorted(pk.values())
    assert history == [
        [
            {"A": pk["p1"], "B": pk["p2"], "C": pk["p3"], "D": pk["p4"]},
            {"A": pk["p5"], "B": pk["p6"], "C": pk["p7"], "D": pk["p8"]},
        ]
    ]
    # p3 and p4 won a game each (1 big point); p3 has +73 small points, p4 +6. The rest by start number.
    assert kwargs["standings"][:2] == [pk["p3"], pk["p4"]]
    assert kwargs["organisations"] == {pk[e]: Player.objects.get(pk=pk[e]).organisation_id for e in pk}
    assert (kwargs["seed"], kwargs["method"], kwargs["remaining_rounds"]) == ("s", "swiss", 2)
    assert round_2.method == "swiss"


def test_manual_seating_starts_from_a_mixed_draw_and_records_manual(monkeypatch, organiser):
    tournament = checked_in(8)
    play_round(services.draw_round(tournament, user=organiser))
    methods = []
    real = seating.draw_round
    monkeypatch.setattr(seating, "draw_round", lambda *a, **k: methods.append(k["method"]) or real(*a, **k))
    assert services.draw_round(tournament, method="manual", user=organiser).method == "manual"
    assert methods == ["mixed"]


def test_the_next_round_cannot_be_drawn_before_the_current_one_is_complete(organiser_client, organiser):
    tournament = checked_in(8)
    round_1 = services.draw_round(tournament, user=organiser)
    for state in ("draft", "published", "started"):
        Round.objects.filter(pk=round_1.pk).update(state=state)
        response = organiser_client.post("/staff/test/draw/", {"method": "random"})
        assert "Round 1 is not complete yet" in response.content.decode()
    assert Round.objects.count() == 1


def test_no_round_after_the_last_qualifying_round(organiser):
    tournament = checked_in(4, rounds_planned=1, final=False)
    play_round(services.draw_round(tournament, user=organiser))
    with pytest.raises(Refused, match="^qualifying_played$") as refused:
        services.draw_round(tournament, user=organiser)
    assert refused.value.message == "The only qualifying round has been played."


# ------------------------------------------------------------------ the lifecycle


def test_publish_start_complete_and_starting_twice_is_refused(organiser_client, organiser):
    tournament = checked_in(8)
    round_ = services.draw_round(tournament, user=organiser)
    assert organiser_client.post("/staff/test/rounds/1/publish/").status_code == 302
    organiser_client.post("/staff/test/rounds/1/start/")
    round_.refresh_from_db()
    assert round_.state == "started" and round_.started_at is not None
    response = organiser_client.post("/staff/test/rounds/1/start/", follow=True)
    assert "Round 1 cannot be started: it is started." in response.content.decode()
    with pytest.raises(Refused, match="^round_not_publishable$"):
        services.publish_round(round_, user=organiser)


def test_a_round_is_completed_only_when_every_sheet_is_verified(organiser_client, organiser):
    tournament = checked_in(11)
    round_ = services.draw_round(tournament, user=organiser)
    services.start_round(round_, user=organiser)
    sheets = ScoreSheet.objects.filter(table__round=round_).order_by("table__number")
    sheets.filter(table__number=1).update(state="verified")
    sheets.filter(table__number=2).update(state="submitted")
    response = organiser_client.post("/staff/test/rounds/1/complete/", {"confirm": "complete"}, follow=True)
    assert "the sheets of tables 2, 3 are not verified yet" in response.content.decode()
    round_.refresh_from_db()
    assert round_.state == "started"
    verify_sheets(round_)
    organiser_client.post("/staff/test/rounds/1/complete/", {"confirm": "complete"})
    round_.refresh_from_db()
    assert round_.state == "completed" and round_.completed_at is not None
    with pytest.raises(Refused, match="^round_not_completable$") as refused:
        services.complete_round(round_, user=organiser)
    assert refused.value.message == "Round 1 cannot be completed: it is completed."


def test_a_started_round_cannot_be_discarded(organiser):
    tournament = checked_in(4)
    round_ = services.draw_round(tournament, user=organiser)
    services.start_round(round_, user=organiser)
    with pytest.raises(Refused, match="^round_started_no_discard$"):
        services.discard_round(round_, user=organiser)


@pytest.mark.parametrize("final, planned, freezes_in", [(True, 2, 2), (False, 2, 2), (True, 1, 1)])
def test_auto_freeze_when_the_last_qualifying_round_starts(organiser, final, planned, freezes_in):
    tournament = checked_in(4, auto_freeze=True, final=final, rounds_planned=planned)
    for number in range(1, planned + 1):
        round_ = services.draw_round(tournament, user=organiser)
        services.start_round(round_, user=organiser)
        tournament.refresh_from_db()
        expected = ("frozen", number - 1) if number == freezes_in else ("live", None)
        assert (tournament.visibility, tournament.frozen_round) == expected
        verify_sheets(round_)
        services.complete_round(round_, user=organiser)


def test_auto_freeze_never_reveals_hidden_results(organiser):
    tournament = checked_in(4, auto_freeze=True, rounds_planned=1, visibility="hidden")
    services.start_round(services.draw_round(tournament, user=organiser), user=organiser)
    tournament.refresh_from_db()
    assert tournament.visibility == "hidden"


# ------------------------------------------------------------------ swaps and the quality report


def test_the_organiser_swaps_two_players_in_a_draft_and_the_report_is_recomputed(organiser_client):
    tournament = build(
        8,
        rounds=[
            {"number": 1, "tables": [table(1, ["p1", "p2", "p3", "p4"]), table(2, ["p5", "p6", "p7", "p8"])]},
            {
                "number": 2,
                "state": "draft",
                "method": "manual",
                "tables": [table(1, ["p1", "p2", "p3", "p5"]), table(2, ["p4", "p6", "p7", "p8"])],
            },
        ],
    )
    pk = dict(Player.objects.values_list("ext_id", "pk"))
    response = organiser_client.get("/staff/test/rounds/2/")
    quality = response.context["quality"]
    assert [(a.ext_id, b.ext_id, n) for a, b, n in quality.repeat_pairs] == [
        ("p1", "p2", 2),
        ("p1", "p3", 2),
        ("p2", "p3", 2),
        ("p6", "p7", 2),
        ("p6", "p8", 2),
        ("p7", "p8", 2),
    ]
    assert quality.worst_pair == 2
    assert "Gracz 1 and Gracz 2: 2 times" in response.content.decode()
    # the same letter twice (A A, B B, C C, D D) is unbalanced; p4 (D, A) and p5 (A, D) are not
    assert [p.ext_id for p in quality.unbalanced] == ["p1", "p2", "p3", "p6", "p7", "p8"]
    assert "<dt>Players with unbalanced seat letters</dt><dd>6</dd>" in response.content.decode()
    # p3 ↔ p6: table 1 becomes p1 p2 p6 p5 (p1–p2 and p5–p6 met before), table 2 p4 p3 p7 p8 (p3–p4, p7–p8).
    response = organiser_client.post("/staff/test/rounds/2/", {"player_a": pk["p3"], "player_b": pk["p6"]})
    assert response.status_code == 302
    round_2 = tournament.rounds.get(number=2)
    assert seating_of(round_2) == [
        {"A": "p1", "B": "p2", "C": "p6", "D": "p5"},
        {"A": "p4", "B": "p3", "C": "p7", "D": "p8"},
    ]
    quality = organiser_client.get("/staff/test/rounds/2/").context["quality"]
    assert [(a.ext_id, b.ext_id) for a, b, _n in quality.repeat_pairs] == [
        ("p1", "p2"),
        ("p3", "p4"),
        ("p5", "p6"),
        ("p7", "p8"),
    ]
    entry = AuditEntry.objects.get(action="swap_seats")
    assert entry.before == {"p3": {"table": 1, "seat": "C"}, "p6": {"table": 2, "seat": "B"}}
    assert entry.after == {"p3": {"table": 2, "seat": "B"}, "p6": {"table": 1, "seat": "C"}}


def test_swap_form_errors_come_back_with_status_200(organiser_client):
    build(
        8,
        rounds=[
            {
                "number": 1,
                "state": "draft",
                "tables": [table(1, ["p1", "p2", "p3", "p4"]), table(2, ["p5", "p6", "p7", "p8"])],
            }
        ],
    )
    p1 = Player.objects.get(ext_id="p1").pk
    response = organiser_client.post(
        "/staff/test/rounds/1/", {"player_a": p1, "player_b": p1}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert "Choose two different players." in response.content.decode()
    response = organiser_client.post("/staff/test/rounds/1/", {"player_a": p1, "player_b": 999999})
    assert "player_b" in response.context["form"].errors


def test_a_started_round_changes_only_by_the_head_referee_with_a_reason(client, organiser, head_referee, referee):
    tournament = build(
        8,
        rounds=[
            {
                "number": 1,
                "state": "started",
                "tables": [table(1, ["p1", "p2", "p3", "p4"]), table(2, ["p5", "p6", "p7", "p8"])],
            }
        ],
    )
    round_ = tournament.rounds.get()
    p1, p5 = Player.objects.get(ext_id="p1"), Player.objects.get(ext_id="p5")
    with pytest.raises(Refused, match="^swap_head_referee_only$"):
        services.swap_players(round_, player_a=p1, player_b=p5, user=referee, reason="wrong table")
    client.force_login(head_referee)
    response = client.post("/staff/test/rounds/1/", {"player_a": p1.pk, "player_b": p5.pk, "reason": "  "})
    assert response.context["form"].errors["reason"] == [
        "Round 1 has started: give the reason for changing its seating."
    ]
    assert seating_of(round_)[0]["A"] == "p1"
    response = client.post(
        "/staff/test/rounds/1/", {"player_a": p1.pk, "player_b": p5.pk, "reason": "sat at the wrong table"}
    )
    assert response.status_code == 302
    assert seating_of(round_)[0]["A"] == "p5"
    entry = AuditEntry.objects.get(action="swap_seats")
    assert (entry.user, entry.reason) == (head_referee, "sat at the wrong table")


def test_a_head_referee_may_not_swap_before_the_start_and_nobody_after_completion(head_referee, organiser):
    tournament = build(
        8,
        rounds=[
            {
                "number": 1,
                "state": "published",
                "tables": [table(1, ["p1", "p2", "p3", "p4"]), table(2, ["p5", "p6", "p7", "p8"])],
            }
        ],
    )
    round_ = tournament.rounds.get()
    p1, p5 = Player.objects.get(ext_id="p1"), Player.objects.get(ext_id="p5")
    with pytest.raises(Refused, match="^swap_organiser_only$"):
        services.swap_players(round_, player_a=p1, player_b=p5, user=head_referee)
    Round.objects.filter(pk=round_.pk).update(state="completed")
    with pytest.raises(Refused, match="^round_completed_no_swap$"):
        services.swap_players(round_, player_a=p1, player_b=p5, user=organiser, reason="late")
    assert not AuditEntry.objects.filter(action="swap_seats").exists()


def test_the_round_page_warns_about_players_left_out_or_no_longer_active(organiser_client, organiser):
    tournament = checked_in(9)
    Player.objects.filter(ext_id="p9").update(present=False)
    services.draw_round(tournament, user=organiser)
    Player.objects.filter(ext_id="p9").update(present=True)
    Player.objects.filter(ext_id="p1").update(status="withdrawn")
    Player.objects.filter(ext_id="p2").update(present=False)
    response = organiser_client.get("/staff/test/rounds/1/")
    assert [p.ext_id for p in response.context["left_out"]] == ["p9"]
    assert [p.ext_id for p in response.context["inactive"]] == ["p1", "p2"]
    assert "2 Gracz (not checked in)" in response.content.decode()  # "Gracz 2": surname 2, listed surname first


# ------------------------------------------------------------------ the final


def qualified(n_players=7, **settings):
    """A tournament whose only qualifying round is completed; p6 > p5 > … by big points."""
    games = [
        out_game(1, "D", A=(5, 0), B=(6, 0), C=(7, 0)),
        out_game(2, "D", A=(5, 0), B=(6, 0), C=(7, 0)),
        out_game(3, "C", A=(5, 0), B=(6, 0), D=(7, 0)),
    ]
    tables = [
        table(1, ["p1", "p2", "p3", "p4"], games),
        table(
            2,
            ["p5", "p6", "p7"],
            [
                out_game(1, "B", A=(9, 0), C=(1, 0)),
                out_game(2, "B", A=(9, 0), C=(1, 0)),
                out_game(3, "A", B=(9, 0), C=(1, 0)),
            ],
        ),
    ]
    tournament = build(n_players, rounds=[{"number": 1, "tables": tables}], settings={"rounds_planned": 1, **settings})
    return tournament


def test_the_final_seats_the_top_four_active_players(organiser_client, organiser):
    tournament = qualified(7)
    # Table 1: p4 wins games 1–2 (+18 each), p3 game 3 → p4 2 big points (+29), p3 1 (+4), p1 −15, p2 −18.
    # Table 2: p6 wins games 1–2 (+10 each), p5 game 3 → p6 2 (+11), p5 1 (−8), p7 −3.
    # Standings: p4, p6, p3, p5, p7, p1, p2. p6 withdraws, so the final is p4, p3, p5, p7.
    Player.objects.filter(ext_id="p6").update(status="withdrawn")
    assert organiser_client.get("/staff/test/").context["step"] == "final"
    response = organiser_client.post("/staff/test/final/")
    final = Round.objects.get(kind="final")
    assert response["Location"] == f"/staff/test/rounds/{final.number}/"
    assert (final.number, final.state, final.method) == (2, "draft", "final")
    assert seating_of(final) == [{"A": "p4", "B": "p3", "C": "p5", "D": "p7"}]
    with pytest.raises(Refused, match="^final_seated$"):
        services.seat_final(tournament, user=organiser)
    with pytest.raises(Refused, match="^no_round_after_final$"):
        services.draw_round(tournament, user=organiser)


def test_the_final_waits_for_the_last_qualifying_round(organiser):
    tournament = checked_in(8, rounds_planned=2)
    play_round(services.draw_round(tournament, user=organiser))
    with pytest.raises(Refused, match="^final_too_early$") as refused:
        services.seat_final(tournament, user=organiser)
    assert "after the last qualifying round (round 2) is completed" in refused.value.message
    round_2 = services.draw_round(tournament, user=organiser)
    services.start_round(round_2, user=organiser)
    with pytest.raises(Refused, match="^final_too_early$"):
        services.seat_final(tournament, user=organiser)
    with pytest.raises(Refused, match="^round_not_complete$") as refused:
        services.draw_round(tournament, user=organiser)
    assert refused.value.message.startswith("Round 2 is not complete yet")


def test_no_final_when_it_is_switched_off(organiser):
    tournament = qualified(final=False)
    with pytest.raises(Refused, match="^no_final$"):
        services.seat_final(tournament, user=organiser)


def test_a_tie_for_the_last_final_place_must_be_decided_first(organiser):
    tournament = checked_in(8, rounds_planned=1)
    play_round(services.draw_round(tournament, user=organiser))  # no games: everyone tied on 0
    with pytest.raises(Refused, match="^final_cut_tied$"):
        services.seat_final(tournament, user=organiser)
    assert not Round.objects.filter(kind="final").exists()


def test_starting_the_final_freezes_when_set_and_completing_it_ends_the_tournament(organiser_client, organiser):
    tournament = qualified(auto_freeze=True, final_release="live")
    final = services.seat_final(tournament, user=organiser)
    services.start_round(final, user=organiser)
    tournament.refresh_from_db()
    assert (tournament.visibility, tournament.frozen_round) == ("frozen", 1)
    verify_sheets(final)
    services.complete_round(final, user=organiser)
    assert organiser_client.get("/staff/test/").context["step"] == "finished"


@pytest.mark.parametrize("auto_freeze", [False, True])
def test_the_final_hides_the_results_until_the_ceremony_by_default(organiser, auto_freeze):
    tournament = qualified(auto_freeze=auto_freeze)
    assert tournament.final_release == "ceremony"
    final = services.seat_final(tournament, user=organiser)
    services.publish_round(final, user=organiser)
    tournament.refresh_from_db()
    assert tournament.visibility == "live", "the final's seating is public; its start hides the results"
    services.start_round(final, user=organiser)
    tournament.refresh_from_db()
    assert (tournament.visibility, tournament.frozen_round) == ("hidden", None)
    entry = AuditEntry.objects.filter(tournament=tournament, action="visibility").get()
    assert (entry.user, entry.before["visibility"], entry.after["visibility"]) == (organiser, "live", "hidden")
    assert entry.reason == "the final started: results hidden until the medal ceremony"


def test_the_live_plan_leaves_the_results_live_when_the_final_starts(organiser):
    tournament = qualified(final_release="live")
    services.start_round(services.seat_final(tournament, user=organiser), user=organiser)
    tournament.refresh_from_db()
    assert tournament.visibility == "live"
    assert not AuditEntry.objects.filter(tournament=tournament, action="visibility").exists()


# ------------------------------------------------------------------ the dashboard


def test_the_dashboard_shows_every_table_sheet_state_and_polls(organiser_client, organiser):
    tournament = checked_in(8)
    round_ = services.draw_round(tournament, user=organiser)
    services.start_round(round_, user=organiser)
    ScoreSheet.objects.filter(table__round=round_, table__number=2).update(state="submitted")
    Card.objects.create(
        tournament=tournament,
        player=Player.objects.get(ext_id="p3"),
        round=round_,
        colour="yellow",
        reason="untidy table",
    )
    response = organiser_client.get("/staff/test/")
    html = response.content.decode()
    assert response.context["step"] == "play"
    assert 'hx-trigger="every 10s"' in html and 'hx-get="/staff/test/status/"' in html
    assert "untidy table" in html and "yellow card" in html
    for link in (
        "/staff/test/players/",
        "/staff/test/draw/",
        "/staff/test/settings/",
        "/referee/test/",
        "/t/test/",
        "/print/test/",
    ):
        assert f'href="{link}"' in html
    fragment = organiser_client.get("/staff/test/status/", headers={"HX-Request": "true"})
    text = fragment.content.decode()
    assert "<!doctype" not in text.lower() and 'id="round-status"' in text
    assert '<li class="state--empty"><strong>1</strong>' in text
    assert '<li class="state--submitted"><strong>1</strong>' in text
    assert text.count("table-tile--submitted") == 1 and text.count("table-tile--empty") == 1
    assert '<li class="state--verified"><strong>0</strong>' in text
    verify_sheets(round_)
    assert "/staff/test/rounds/1/complete/" in organiser_client.get("/staff/test/status/").content.decode()


def test_every_pdf_is_one_click_from_the_dashboard(organiser_client, organiser):
    tournament = checked_in(8)
    services.draw_round(tournament, user=organiser)
    html = organiser_client.get("/staff/test/").content.decode()
    for path in (
        "round/1/seating.pdf",
        "round/1/where-do-i-sit.pdf",
        "round/1/score-sheets.pdf",
        "round/1/table-cards.pdf",
        "standings.pdf",
        "diplomas.pdf",
        "certificates.pdf",
        "blank-score-sheet.pdf",
    ):
        assert f'href="/print/test/{path}"' in html
    # The tablets' sign-in sheet: the dashboard's form, as posted with its defaults, prints it.
    form = re.search(r'<form method="post" action="/print/test/devices.pdf".*?</form>', html, flags=re.S).group(0)
    fields = dict(re.findall(r'name="(label|valid_hours|count)"[^>]*? value="([^"]*)"', form))
    assert fields == {"label": "Tablet", "valid_hours": "16", "count": "3"}
    response = organiser_client.post("/print/test/devices.pdf", fields)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert DeviceLink.objects.filter(tournament=tournament).count() == 3


@pytest.mark.parametrize("n_players", [8, 40])
def test_the_dashboard_costs_the_same_number_of_queries_for_8_and_40_players(
    organiser_client, organiser, django_assert_max_num_queries, n_players
):
    tournament = checked_in(n_players)
    round_ = services.draw_round(tournament, user=organiser)
    services.start_round(round_, user=organiser)
    for player in Player.objects.all()[:3]:
        Card.objects.create(tournament=tournament, player=player, round=round_, colour="warning", reason="noise")
    with django_assert_max_num_queries(10):  # one of them: the organisation's server errors
        response = organiser_client.get("/staff/test/")
    assert len(response.context["tables"]) == n_players // 4
    with django_assert_max_num_queries(8):
        organiser_client.get("/staff/test/rounds/1/")
