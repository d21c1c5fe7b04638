"""Builders shared by the tests: a tournament as an interchange dict, imported in one call, and
the rounds, score sheets, form data and small tournaments the tests of several modules start from.

Fixtures live in conftest.py; the real server, the HTTP client, the browser fixtures and the
readers of files are support modules in tests/support/. The benchmarks import this module too,
with the runtime dependencies only.
"""

import copy
import re

from django.urls import reverse

from organiser.forms import TournamentForm
from organiser.interchange import import_tournament
from scoring.models import ScoreSheet
from tournament.models import Player

BASE = {
    "format": "rummikub-tournament/1",
    "tournament": {"name": "Senioriada Test", "slug": "test", "date": "2026-02-10", "settings": {}},
    "players": [],
    "rounds": [],
}


def players(n, prefix="p"):
    """n players p1…pn, each from an organisation of their own."""
    return [{"id": f"{prefix}{i}", "name": f"Gracz {i}", "organisation": f"Klub {i}"} for i in range(1, n + 1)]


def out_game(number, winner, **racks):
    """A game where `winner` went out; racks as letter=(tiles, jokers[, opening])."""
    return {
        "number": number,
        "ending": "out",
        "winner": winner,
        "racks": {letter: _rack(value) for letter, value in racks.items()},
    }


def _rack(value):
    if isinstance(value, dict):
        return value
    tiles, jokers, *opening = value
    return {"tiles": tiles, "jokers": jokers, "opening": opening[0] if opening else "opened"}


def table(number, seats, games=(), state=None):
    data = {"number": number, "seats": dict(zip("ABCD", seats)), "games": list(games)}
    if state:
        data["state"] = state
    return data


def tournament_data(n_players=8, rounds=(), settings=None, **extra):
    data = copy.deepcopy(BASE)
    data["players"] = players(n_players)
    data["rounds"] = list(rounds)
    data["tournament"]["settings"] = dict(settings or {})
    data.update(extra)
    return data


def build(n_players=8, rounds=(), settings=None, **extra):
    return import_tournament(tournament_data(n_players, rounds, settings, **extra))


# ---------------------------------------------------------------- rounds and score sheets


def started_round(*tables, number=1, state="started"):
    return {"number": number, "kind": "qualifying", "state": state, "tables": list(tables)}


def sheet_url(name="sheet", slug="test", round_number=1, table_number=1, **kwargs):
    return reverse(
        f"scoring:{name}", kwargs={"slug": slug, "round_number": round_number, "table_number": table_number, **kwargs}
    )


def sheet_of(tournament, table_number=1, round_number=1):
    return ScoreSheet.objects.get(
        table__round__tournament=tournament, table__round__number=round_number, table__number=table_number
    )


def text_of(html, element_id):
    """The text inside the element with `element_id` (tags stripped), or None."""
    match = re.search(rf'id="{re.escape(element_id)}"[^>]*>(.*?)</(output|div|p|span)>', html, re.S)
    if match is None:
        return None
    return " ".join(re.sub(r"<[^>]+>", " ", match.group(1)).split())


def example_one(version=0, **extra):
    """SPEC §3 example 1: A goes out; B 23 opened; C 10 + joker opened; D could not lay out."""
    data = {
        "version": version,
        "ending": "A",
        "B-tiles": "23",
        "B-jokers": "0",
        "B-opening": "opened",
        "C-tiles": "10",
        "C-jokers": "1",
        "C-opening": "opened",
        "D-tiles": "",
        "D-jokers": "0",
        "D-opening": "not_possible",
    }
    data.update(extra)
    return data


def four_games():
    return [out_game(n, "ABCD"[n - 1], **{x: (5, 0) for x in "ABCD" if x != "ABCD"[n - 1]}) for n in range(1, 5)]


def submitted_and_verified():
    """Round 1 started: table 1's four games submitted, table 2's verified (the verification tests' tournament)."""
    return build(
        8,
        rounds=[
            started_round(
                table(1, ["p1", "p2", "p3", "p4"], four_games(), state="submitted"),
                table(2, ["p5", "p6", "p7", "p8"], four_games(), state="verified"),
            )
        ],
    )


# ---------------------------------------------------------------- the organiser's screens


def checked_in(n_players, **settings):
    """A tournament `test` with n players, all checked in, no rounds."""
    tournament = build(n_players, settings=settings or None)
    Player.objects.filter(tournament=tournament).update(present=True)
    return tournament


def verify_sheets(round_):
    """The head referee has verified every sheet of the round (no games needed for the lifecycle)."""
    ScoreSheet.objects.filter(table__round=round_).update(state=ScoreSheet.State.VERIFIED)


def settings_data(tournament=None, **changes):
    """The POST data of the settings form as it stands (defaults for a new tournament)."""
    form = TournamentForm(instance=tournament)
    data = {}
    for name, _field in form.fields.items():
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = value
    data.update(name="Senioriada Łódź", date="2026-03-14")
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


# ---------------------------------------------------------------- the hall: a small tournament for the public pages
#
# Eight players with Polish names, four rounds:
# 1 completed and verified (player p1 wins a game with an overridden score of ROUND1_SCORE),
# 2 completed and verified, 3 started (table 1 verified with LATE_SCORE, table 2 submitted
# but not verified with UNVERIFIED_SCORE), 4 published (seating only), 5 a draft.

ROUND1_SCORE = 3917  # verified, round 1: public in live and frozen (as of round 2) modes
LATE_SCORE = 4321  # verified, round 3 (after the freeze): public only in live mode
UNVERIFIED_SCORE = 2789  # never public: the sheet is not verified
# The live totals of the players whose scores are planted: p1 +8084 (frozen: +3788), p5 +54.
LIVE_ONLY_TOTALS = ("8084",)

NAMES = [
    ("Jan Łęcki", "UTW Kraków"),
    ("Anna Nowak", "UTW Łódź"),
    ("Zofia Żółkiewska", "Klub Seniora Gdańsk"),
    ("Stanisław Ćwik", "UTW Poznań"),
    ("Małgorzata Wiśniewska", "UTW Wrocław"),
    ("Józef Kowalski", "UTW Lublin"),
    ("Halina Dąbrowska", "UTW Opole"),
    ("Ryszard Gęba", "UTW Toruń"),
]


def _override(game, score):
    game["winner_override"] = {"score": score, "reason": "counted again by the referee"}
    return game


def games(a_score=None):
    """Four games at a 4-table; the winner of game 1 (seat A) may get an overridden score."""
    first = out_game(1, "A", B=(23, 0), C=(10, 1), D=(0, 0, "not_possible"))
    if a_score is not None:
        _override(first, a_score)
    return [
        first,
        out_game(2, "B", A=(12, 0), C=(7, 0), D=(30, 0)),
        out_game(3, "C", A=(5, 0), B=(40, 0), D=(9, 0)),
        out_game(4, "D", A=(8, 0), B=(6, 0), C=(21, 0)),
    ]


def hall_data(visibility="live", frozen_round=None, players=8, slug="test"):
    data = tournament_data(players, settings={"final": False, "rounds_planned": 5, "visibility": visibility})
    data["tournament"]["slug"] = slug
    if frozen_round is not None:
        data["tournament"]["settings"]["frozen_round"] = frozen_round
    for player, (name, organisation) in zip(data["players"], NAMES):
        player["name"], player["organisation"] = name, organisation
    ids = [p["id"] for p in data["players"]]
    quads = [ids[i : i + 4] for i in range(0, len(ids) - len(ids) % 4, 4)]
    rotated = [q[1:] + q[:1] for q in quads]
    data["rounds"] = [
        {
            "number": 1,
            "state": "completed",
            "tables": [
                table(n, quad, games(ROUND1_SCORE if n == 1 else None)) for n, quad in enumerate(quads, start=1)
            ],
        },
        {
            "number": 2,
            "state": "completed",
            "tables": [table(n, quad, games()) for n, quad in enumerate(rotated, start=1)],
        },
        {
            "number": 3,
            "state": "started",
            "tables": [
                table(
                    n,
                    quad,
                    games(LATE_SCORE if n == 1 else UNVERIFIED_SCORE if n == 2 else None),
                    state="verified" if n != 2 else "submitted",
                )
                for n, quad in enumerate(quads, start=1)
            ],
        },
        {
            "number": 4,
            "state": "published",
            "tables": [table(n, quad) for n, quad in enumerate(reversed(rotated), start=1)],
        },
        {"number": 5, "state": "draft", "tables": [table(n, quad) for n, quad in enumerate(quads, start=1)]},
    ]
    return data


def build_hall(visibility="live", frozen_round=None, players=8, slug="test"):
    return import_tournament(hall_data(visibility, frozen_round, players, slug))


# ---------------------------------------------------------------- hostile names: a small tournament for the exports
# (its round 2, table 1 is a submitted sheet with UNVERIFIED_SCORE: never counted)

# Names a spreadsheet would run as formulas, HTML that must stay text, quotes, emoji, right-to-left text.
HOSTILE_NAMES = [
    '=HYPERLINK("http://example.com","klik")',
    "+48 600 100 200",
    "-Anna Nowak",
    "@SUM(A1:A9)",
    'Zoë "Quote" O\'Neil',
    "<script>alert(1)</script>",
    "שלום עליכם 🎲",
    "Łucja Żółć",
]
HOSTILE_CLUB = "=1+1 Klub <b>Seniora</b>"


def hostile_tournament():
    """8 players; round 1 completed and verified (two tables of the same four games: seat A
    +158, B −20, C −34, D −104; one game won each); round 2 started, table 1 submitted (not
    verified) with UNVERIFIED_SCORE; player 8 disqualified by a red card in round 1."""
    ids = [f"p{i}" for i in range(1, 9)]
    rounds = [
        {"number": 1, "state": "completed", "tables": [table(1, ids[:4], games()), table(2, ids[4:], games())]},
        {
            "number": 2,
            "state": "started",
            "tables": [
                table(1, ["p2", "p3", "p4", "p1"], games(UNVERIFIED_SCORE), state="submitted"),
                table(2, ["p6", "p7", "p5"]),
            ],
        },
    ]
    tournament = build(
        8,
        rounds=rounds,
        settings={"final": False},
        cards=[{"player": "p8", "round": 1, "colour": "red", "reason": "=cmd|' /C calc'!A0"}],
    )
    for player, name in zip(tournament.players.order_by("start_number"), HOSTILE_NAMES):
        player.name = name
        player.save(update_fields=["name"])
    tournament.organisations.filter(players__ext_id="p1").update(name=HOSTILE_CLUB)
    return tournament


# ---------------------------------------------------------------- after the final: a tie at its last seat decided by lot
#
# Eight players "Gracz 1" … "Gracz 8", one qualifying round of two tables, then the final.
# Round 1, table 1 (A p1, B p2, C p3, D p4):
#   game 1: A out; B 10, C 20, D 30 → A +60, B −10, C −20, D −30
#   game 2: A out; B 5, C 5, D 5    → A +15, B −5,  C −5,  D −5
#   game 3: B out; A 10, C 10, D 10 → B +30, A −10, C −10, D −10
#   game 4: C out; A 5, B 5, D 10   → C +20, A −5,  B −5,  D −10
#   p1 2 big points +60 (2 won), p2 1 +10 (1), p3 1 −15 (1), p4 0 −55 (0)
# Round 1, table 2 (A p5, B p6, C p7, D p8):
#   game 1: A out; B 10, C 5, D 30  → A +45, B −10, C −5, D −30
#   game 2: A out; B 5, C 5, D 10   → A +20, B −5,  C −5, D −10
#   game 3: B out; A 10, C 5, D 15  → B +30, A −10, C −5, D −15
#   game 4: C out; A 5, B 5, D 30   → C +40, A −5,  B −5, D −30
#   p5 2 big points +50 (2 won), p6 1 +10 (1), p7 1 +25 (1), p8 0 −85 (0)
# Qualifying: 1 p1, 2 p5, 3 p7, 4–5 p2 and p6 (1, +10, 1 each), 6 p3, 7 p4, 8 p8. The head
# referee drew lots: p6 before p2, so p6 took the final's last seat.
# The final (A p1, B p5, C p7, D p6):
#   game 1: C out; A 10, B 10, D 5  → C +25, A −10, B −10, D −5
#   game 2: D out; A 5, B 10, C 15  → D +30, A −5,  B −10, C −15
#   game 3: C out; A 5, B 10, D 5   → C +20, A −5,  B −10, D −5
#   game 4: A out; B 10, C 10, D 5  → A +25, B −10, C −10, D −5
#   p7 2 big points +20 (2 won), p6 1 +15 (1), p1 1 +5 (1), p5 0 −40 (0)
# Standings: the final's places 1 p7, 2 p6, 3 p1, 4 p5, with the final's points; then in
# qualifying order 5 p2 (1, +10, 1: its place settled by the lot for places 4–5), 6 p3, 7 p4, 8 p8.
# Qualifying and final added up would read 3, 2, 3, 2 big points for places 1–4.
FINAL_STANDINGS = [  # place, player, big points, small points, games won, placed by the final, tie note
    ("1", "Gracz 7", 2, 20, 2, True, ""),
    ("2", "Gracz 6", 1, 15, 1, True, ""),
    ("3", "Gracz 1", 1, 5, 1, True, ""),
    ("4", "Gracz 5", 0, -40, 0, True, ""),
    ("5", "Gracz 2", 1, 10, 1, False, "places 4–5 decided by the head referee"),
    ("6", "Gracz 3", 1, -15, 1, False, ""),
    ("7", "Gracz 4", 0, -55, 0, False, ""),
    ("8", "Gracz 8", 0, -85, 0, False, ""),
]
FINAL_CAPTION = (
    "Places 1–4: the final (its big points, then its small points, then the qualifying place); "
    "from place 5: big points, then small points, then games won"
)


def after_the_final():
    """The tournament of FINAL_STANDINGS: every sheet verified, the final completed."""

    def four(winners, racks):
        return [
            out_game(n, winner, **{letter: (tiles, 0) for letter, tiles in rack.items()})
            for n, (winner, rack) in enumerate(zip(winners, racks), start=1)
        ]

    table_1 = four("AABC", [dict(B=10, C=20, D=30), dict(B=5, C=5, D=5), dict(A=10, C=10, D=10), dict(A=5, B=5, D=10)])
    table_2 = four("AABC", [dict(B=10, C=5, D=30), dict(B=5, C=5, D=10), dict(A=10, C=5, D=15), dict(A=5, B=5, D=30)])
    final = four("CDCA", [dict(A=10, B=10, D=5), dict(A=5, B=10, C=15), dict(A=5, B=10, D=5), dict(B=10, C=10, D=5)])
    rounds = [
        {
            "number": 1,
            "state": "completed",
            "tables": [table(1, ["p1", "p2", "p3", "p4"], table_1), table(2, ["p5", "p6", "p7", "p8"], table_2)],
        },
        {"number": 2, "kind": "final", "state": "completed", "tables": [table(1, ["p1", "p5", "p7", "p6"], final)]},
    ]
    return build(
        8,
        rounds=rounds,
        settings={"final": True, "rounds_planned": 1},
        tie_decisions=[{"order": ["p6", "p2"], "reason": "lot drawn by the head referee"}],
    )


# ---------------------------------------------------------------- a season of three tournaments
# Ten people; one game per table, the winner going out (big points 1, small points the others'
# racks); each tournament one round, completed, no final. Default points (25, 20, 16, 13, 11, 10,
# 9, 8, …), the best 2 results count.
#   zima-1 (live):   Zieliński 1 (25), Żak 2 (20), Nowak and Wójcik tied 3 (16 each), Kowalski 5 (11),
#                    Lewandowski 6 (10), Wiśniewska 7 (9), Kamińska 8 (8)
#   zima-2 (live):   Nowak 1 (25), Dąbrowski 2 (20), Kowalski 3 withdrawn (16), Wójcik 4 (13), Żak 5 (11),
#                    Szymańska 6 (10), Zieliński 7 (9), Wiśniewska disqualified (0)
#   zima-3 (hidden): Żak 1 (25), Kamińska 2 (20), Dąbrowski 3 (16), Szymańska 4 (13), Nowak and
#                    Zieliński tied 5 (11 each), Lewandowski 7 (9), Wójcik 8 (8)
SEASON_PEOPLE = {
    "A": ("Łucja Żak", "UTW Kraków"),
    "B": ("Anna Nowak", "UTW Łódź"),
    "C": ("Jan Kowalski", "Klub Seniora Gdańsk"),
    "D": ("Ewa Wiśniewska", "UTW Poznań"),
    "E": ("Piotr Zieliński", "UTW Wrocław"),
    "F": ("Maria Wójcik", "UTW Lublin"),
    "G": ("Tomasz Lewandowski", "UTW Opole"),
    "H": ("Zofia Kamińska", "UTW Kielce"),
    "I": ("Adam Dąbrowski", "UTW Toruń"),
    "J": ("Olga Szymańska", "UTW Rzeszów"),
}
# Staff (every tournament): [rank, surname first, club, points, tournaments, wins, best place,
# [(tournament, place, points, counted)]]
SEASON_STAFF_TABLE = [
    (
        1,
        "Żak Łucja",
        "UTW Kraków",
        45,
        3,
        1,
        1,
        [("zima-1", 2, 20, True), ("zima-2", 5, 11, False), ("zima-3", 1, 25, True)],
    ),
    (
        2,
        "Nowak Anna",
        "UTW Łódź",
        41,
        3,
        1,
        1,
        [("zima-1", 3, 16, True), ("zima-2", 1, 25, True), ("zima-3", 5, 11, False)],
    ),
    (
        3,
        "Zieliński Piotr",
        "UTW Wrocław",
        36,
        3,
        1,
        1,
        [("zima-1", 1, 25, True), ("zima-2", 7, 9, False), ("zima-3", 5, 11, True)],
    ),
    (4, "Dąbrowski Adam", "UTW Toruń", 36, 2, 0, 2, [("zima-2", 2, 20, True), ("zima-3", 3, 16, True)]),
    (
        5,
        "Wójcik Maria",
        "UTW Lublin",
        29,
        3,
        0,
        3,
        [("zima-1", 3, 16, True), ("zima-2", 4, 13, True), ("zima-3", 8, 8, False)],
    ),
    (6, "Kamińska Zofia", "UTW Kielce", 28, 2, 0, 2, [("zima-1", 8, 8, True), ("zima-3", 2, 20, True)]),
    (7, "Kowalski Jan", "Klub Seniora Gdańsk", 27, 2, 0, 3, [("zima-1", 5, 11, True), ("zima-2", 3, 16, True)]),
    (8, "Szymańska Olga", "UTW Rzeszów", 23, 2, 0, 4, [("zima-2", 6, 10, True), ("zima-3", 4, 13, True)]),
    (9, "Lewandowski Tomasz", "UTW Opole", 19, 2, 0, 6, [("zima-1", 6, 10, True), ("zima-3", 7, 9, True)]),
    (10, "Wiśniewska Ewa", "UTW Poznań", 9, 2, 0, 7, [("zima-1", 7, 9, True), ("zima-2", None, 0, True)]),
]
# Public (zima-3 hidden: pending): every result counts (two each at most).
SEASON_PUBLIC_TABLE = [
    (1, "Nowak Anna", "UTW Łódź", 41, 2, 1, 1, [("zima-1", 3, 16, True), ("zima-2", 1, 25, True)]),
    (2, "Zieliński Piotr", "UTW Wrocław", 34, 2, 1, 1, [("zima-1", 1, 25, True), ("zima-2", 7, 9, True)]),
    (3, "Żak Łucja", "UTW Kraków", 31, 2, 0, 2, [("zima-1", 2, 20, True), ("zima-2", 5, 11, True)]),
    (4, "Wójcik Maria", "UTW Lublin", 29, 2, 0, 3, [("zima-1", 3, 16, True), ("zima-2", 4, 13, True)]),
    (5, "Kowalski Jan", "Klub Seniora Gdańsk", 27, 2, 0, 3, [("zima-1", 5, 11, True), ("zima-2", 3, 16, True)]),
    (6, "Dąbrowski Adam", "UTW Toruń", 20, 1, 0, 2, [("zima-2", 2, 20, True)]),
    (7, "Lewandowski Tomasz", "UTW Opole", 10, 1, 0, 6, [("zima-1", 6, 10, True)]),
    (7, "Szymańska Olga", "UTW Rzeszów", 10, 1, 0, 6, [("zima-2", 6, 10, True)]),
    (9, "Wiśniewska Ewa", "UTW Poznań", 9, 2, 0, 7, [("zima-1", 7, 9, True), ("zima-2", None, 0, True)]),
    (10, "Kamińska Zofia", "UTW Kielce", 8, 1, 0, 8, [("zima-1", 8, 8, True)]),
]


def _season_tournament(slug, date, tables, visibility="live", statuses=None):
    """One round, completed: each table one game, its first seat going out; the others' racks as given."""
    letters = [letter for seats, _racks in tables for letter in seats]
    data = tournament_data(0, settings={"final": False, "rounds_planned": 1, "visibility": visibility})
    data["tournament"].update(slug=slug, date=date, name=f"Senioriada {slug}")
    data["players"] = [
        {"id": letter, "name": SEASON_PEOPLE[letter][0], "organisation": SEASON_PEOPLE[letter][1]}
        | ({"status": statuses[letter]} if letter in (statuses or {}) else {})
        for letter in letters
    ]
    data["rounds"] = [
        {
            "number": 1,
            "state": "completed",
            "tables": [
                table(n, seats, [out_game(1, "A", **{seat: (rack, 0) for seat, rack in zip("BCD", racks)})])
                for n, (seats, racks) in enumerate(tables, start=1)
            ],
        }
    ]
    return import_tournament(data)


def with_people(tournament):
    """Each player becomes the person of their name (one Person per name across tournaments),
    unless registration already made them one."""
    from tournament.models import Person

    for player in Player.objects.filter(tournament=tournament, person__isnull=True).select_related("organisation"):
        player.person = Person.objects.get_or_create(
            host=tournament.host,
            surname=player.surname,
            given_names=player.given_names,
            defaults={"club": player.organisation.name},
        )[0]
        player.save(update_fields=["person"])
    return tournament


def season_of_three():
    """The season of SEASON_STAFF_TABLE and SEASON_PUBLIC_TABLE: zima-1, zima-2 and zima-3 (hidden), best 2."""
    from tournament.models import Season

    tournaments = [
        _season_tournament("zima-1", "2026-01-10", [("ABCD", (5, 10, 20)), ("EFGH", (5, 12, 30))]),
        _season_tournament(
            "zima-2",
            "2026-02-14",
            [("BACE", (8, 3, 40)), ("IFJD", (6, 15, 2))],
            statuses={"C": "withdrawn", "D": "disqualified"},
        ),
        _season_tournament("zima-3", "2026-03-14", [("ABEG", (10, 10, 20)), ("HIJF", (4, 9, 25))], visibility="hidden"),
    ]
    for tournament in tournaments:
        with_people(tournament)
    season = Season.objects.create(host=tournaments[0].host, name="Sezon zimowy 2026", slug="zima", best_count=2)
    season.tournaments.set(tournaments)
    return season
