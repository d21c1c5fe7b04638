"""SPEC §9: import, export, the three commands and the JSON endpoint."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from organiser.interchange import dumps, export_tournament, import_tournament
from scoring.models import Game, SeatResult
from tests.factories import out_game, table, tournament_data
from tournament.models import Person, Player, Tournament

pytestmark = pytest.mark.django_db


def one_round(**table_kwargs):
    games = [
        out_game(1, "A", B=(23, 0), C=(10, 1), D=(0, 0, "not_possible")),
        {
            "number": 2,
            "ending": "pool_exhausted",
            "racks": {
                "A": {"tiles": 12, "jokers": 0, "opening": "opened"},
                "B": {"tiles": 7, "jokers": 0, "opening": "opened"},
                "C": {"tiles": 7, "jokers": 0, "opening": "opened"},
                "D": {"tiles": 0, "jokers": 0, "opening": "possible_not_done"},
            },
        },
    ]
    return {
        "number": 1,
        "kind": "qualifying",
        "tables": [table(1, ["p1", "p2", "p3", "p4"], games, **table_kwargs), table(2, ["p5", "p6", "p7", "p8"])],
    }


def full_data():
    data = tournament_data(8, [one_round()])
    data["rounds"][0]["tables"][0]["games"][0]["racks"]["B"]["override"] = {"score": -30, "reason": "recount"}
    data["rounds"][0]["tables"][0]["games"][0]["racks"]["C"]["keypad"] = [10, "J"]
    data["cards"] = [{"player": "p2", "round": 1, "colour": "yellow", "reason": "untidy table"}]
    data["tie_decisions"] = [{"order": ["p7", "p3"], "reason": "lot drawn by the head referee"}]
    return data


def test_import_stores_scores_from_the_rules_engine():
    tournament = import_tournament(full_data())
    game = Game.objects.get(sheet__table__round__tournament=tournament, number=1)
    scores = {r.letter: (r.score, r.effective_score) for r in game.results.all()}
    # SPEC §3 example 1; B's score is overridden to -30 by the referee.
    assert scores == {"A": (183, 183), "B": (-23, -30), "C": (-60, -60), "D": (-100, -100)}
    pool = Game.objects.get(sheet__table__round__tournament=tournament, number=2)
    assert {r.letter: r.score for r in pool.results.all()} == {"A": -12, "B": 106, "C": 106, "D": -200}
    assert SeatResult.objects.get(game=game, letter="C").keypad == [10, "J"]


def test_export_import_export_is_byte_identical():
    first = dumps(export_tournament(import_tournament(full_data())))
    data = json.loads(first)
    Tournament.objects.all().delete()
    second = dumps(export_tournament(import_tournament(data)))
    assert first == second
    assert data["format"] == "rummikub-tournament/1"
    assert data["players"][0] == {
        "id": "p1",
        "name": "Gracz 1",
        "surname": "1",
        "given_names": "Gracz",
        "organisation": "Klub 1",
        "status": "active",
        "present": False,
        "joins_from_round": None,
        "person": str(Person.objects.get(players__ext_id="p1").uid),  # the same person on the second import
    }


def test_a_file_without_the_name_parts_has_its_names_split_and_one_with_them_keeps_them():
    data = tournament_data(3)
    data["players"][0]["name"] = "Anna Maria Nowak"
    data["players"][1].update(name="Anna Nowak Kowalska", surname="Nowak Kowalska", given_names="Anna")
    data["players"][2].update(name="Kowalski", surname="Kowalski", given_names="")
    tournament = import_tournament(data)
    parts = list(Player.objects.filter(tournament=tournament).values_list("given_names", "surname", "name"))
    assert parts == [
        ("Anna Maria", "Nowak", "Anna Maria Nowak"),
        ("Anna", "Nowak Kowalska", "Anna Nowak Kowalska"),
        ("", "Kowalski", "Kowalski"),
    ]
    exported = export_tournament(tournament)["players"]
    assert [(p["name"], p["given_names"], p["surname"]) for p in exported] == [(n, g, s) for g, s, n in parts]


def test_two_yellow_cards_disqualify_whatever_the_file_says():
    data = tournament_data(4)
    data["cards"] = [
        {"player": "p1", "round": None, "colour": "yellow", "reason": "a"},
        {"player": "p1", "round": None, "colour": "yellow", "reason": "b"},
        {"player": "p2", "round": None, "colour": "red", "reason": "c"},
        {"player": "p3", "round": None, "colour": "warning", "reason": "d"},
    ]
    tournament = import_tournament(data)
    status = dict(Player.objects.filter(tournament=tournament).values_list("ext_id", "status"))
    assert status == {"p1": "disqualified", "p2": "disqualified", "p3": "active", "p4": "active"}


def breaking(path_setter):
    data = tournament_data(8, [one_round()])
    path_setter(data)
    return data


def game(data, index=0):
    return data["rounds"][0]["tables"][0]["games"][index]


BAD_FILES = [
    (
        "winner has a rack",
        lambda d: game(d)["racks"].update(A={"tiles": 3, "jokers": 0, "opening": "opened"}),
        "rounds[0].tables[0].games[0].racks.A: seat A went out and cannot have a rack",
    ),
    (
        "negative tiles",
        lambda d: game(d)["racks"]["B"].update(tiles=-3),
        "rounds[0].tables[0].games[0].racks.B.tiles: must be 0–728, got -3",
    ),
    (
        "absurd tiles",
        lambda d: game(d)["racks"]["B"].update(tiles=100000),
        "rounds[0].tables[0].games[0].racks.B.tiles: must be 0–728, got 100000",
    ),
    (
        "three jokers on a rack",
        lambda d: game(d)["racks"]["B"].update(jokers=3),
        "rounds[0].tables[0].games[0].racks.B.jokers: must be 0–2, got 3",
    ),
    (
        "three jokers at a table",
        lambda d: game(d)["racks"]["B"].update(jokers=2),
        "rounds[0].tables[0].games[0].racks: at most 2 jokers in one game at a table, got 3",
    ),
    (
        "seat letter E",
        lambda d: d["rounds"][0]["tables"][1]["seats"].update(E="p1"),
        "rounds[0].tables[1].seats.E: seat letters are A–D, got 'E'",
    ),
    (
        "player sits twice",
        lambda d: d["rounds"][0]["tables"][1]["seats"].update(D="p1"),
        "rounds[0].tables[1].seats.D: player 'p1' sits twice in this round",
    ),
    (
        "unknown player",
        lambda d: d["rounds"][0]["tables"][1]["seats"].update(D="p99"),
        "rounds[0].tables[1].seats.D: unknown player 'p99'",
    ),
    (
        "rack for a seat not at the table",
        lambda d: (d["rounds"][0]["tables"][0]["seats"].pop("D"), game(d)["racks"].pop("A", None)),
        "rounds[0].tables[0].games[0].racks.D: seat D is not at this table",
    ),
    (
        "missing rack",
        lambda d: game(d)["racks"].pop("B"),
        "rounds[0].tables[0].games[0].racks.B: a rack is needed for seat B",
    ),
    (
        "over quota",
        lambda d: d["players"][1].update(organisation="Klub 1"),
        "players[1].organisation: organisation 'Klub 1' exceeds its quota of 1",
    ),
    (
        "wrong format",
        lambda d: d.update(format="something/2"),
        "format: must be 'rummikub-tournament/1', got 'something/2'",
    ),
    (
        "tiles as text",
        lambda d: game(d)["racks"]["B"].update(tiles="23"),
        "rounds[0].tables[0].games[0].racks.B.tiles: must be a whole number, got '23'",
    ),
    (
        "pool exhausted with a winner",
        lambda d: game(d, 1).update(winner="A"),
        "rounds[0].tables[0].games[1].winner: a pool-exhausted game has no winner",
    ),
    ("players not a list", lambda d: d.update(players={}), "players: must be a list, got dict"),
    (
        "parts that do not make the name",
        lambda d: d["players"][0].update(surname="Nowak", given_names="Anna"),
        "players[0].surname: given_names and surname make 'Anna Nowak', not the name 'Gracz 1'",
    ),
    (
        "a surname without given names",
        lambda d: d["players"][0].update(surname="1"),
        "players[0].given_names: surname and given_names come together",
    ),
    (
        "an empty surname",
        lambda d: d["players"][0].update(name="Gracz", surname=" ", given_names="Gracz"),
        "players[0].surname: This field is required.",
    ),
]


@pytest.mark.parametrize("label,change,message", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_import_refuses_a_bad_file_and_writes_nothing(tmp_path, label, change, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(breaking(change)), encoding="utf-8")
    with pytest.raises(CommandError) as error:
        call_command("import_tournament", str(path))
    assert str(error.value) == message
    assert not Tournament.objects.exists()
    assert not Player.objects.exists()


def test_import_refuses_broken_json(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": ', encoding="utf-8")
    with pytest.raises(CommandError) as error:
        call_command("import_tournament", str(path))
    assert str(error.value) == "invalid JSON at line 1, column 12: Expecting value"


def test_import_refuses_an_existing_slug(tmp_path):
    import_tournament(tournament_data(4))
    path = tmp_path / "again.json"
    path.write_text(json.dumps(tournament_data(4)), encoding="utf-8")
    with pytest.raises(CommandError, match="tournament.slug: a tournament 'test' already exists"):
        call_command("import_tournament", str(path))


def test_commands_round_trip_through_files(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(full_data()), encoding="utf-8")
    out = StringIO()
    call_command("import_tournament", str(path), stdout=out)
    assert "Imported test" in out.getvalue()
    exported = StringIO()
    call_command("export_tournament", "test", stdout=exported)
    standings = StringIO()
    call_command("standings", "test", "--json", stdout=standings)
    rows = json.loads(standings.getvalue())
    assert [row["player_id"] for row in rows][:3] == ["p1", "p2", "p3"]  # big 1 each; small 171, 76, 46
    assert set(rows[0]) == {
        "rank",
        "player_id",
        "player",
        "organisation",
        "big_points",
        "small_points",
        "games_won",
        "status",
    }
    with pytest.raises(CommandError, match="no tournament 'nope'"):
        call_command("export_tournament", "nope")


def test_public_json_obeys_visibility(client):
    tournament = import_tournament(full_data())
    response = client.get("/t/test/standings.json")
    assert response.status_code == 200
    assert response.json()[0] == {
        "rank": 1,
        "player_id": "p1",
        "player": "Gracz 1",
        "organisation": "Klub 1",
        "big_points": 1,
        "small_points": 171,
        "games_won": 1,
        "status": "active",
    }
    tournament.visibility = Tournament.Visibility.HIDDEN
    tournament.save()
    hidden = client.get("/t/test/standings.json")
    assert hidden.status_code == 403
    assert "183" not in hidden.content.decode() and "171" not in hidden.content.decode()
    assert client.get("/t/unknown/standings.json").status_code == 404


def test_backup_of_a_tournament_in_progress_restores_identical_standings():
    from scoring.selectors.standings import compute_standings, standings_json

    data = full_data()
    data["rounds"][0]["state"] = "started"
    data["rounds"][0]["tables"][1]["state"] = "in_progress"
    tournament = import_tournament(data)
    before_public = standings_json(compute_standings(tournament))
    before_staff = standings_json(compute_standings(tournament, verified_only=False))
    backup = dumps(export_tournament(tournament))
    Tournament.objects.all().delete()
    restored = import_tournament(json.loads(backup))
    assert standings_json(compute_standings(restored)) == before_public
    assert standings_json(compute_standings(restored, verified_only=False)) == before_staff
    assert restored.rounds.get().state == "started"
