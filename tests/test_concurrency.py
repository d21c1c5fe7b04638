"""Many referee tablets on a real server (gunicorn on 127.0.0.1), on SQLite and PostgreSQL.

50 referees save 50 different sheets at once: no error, and every save the server
acknowledged is in the database afterwards with exactly the values sent. Two referees save the
same game of the same sheet from the same loaded version at the same moment: exactly one wins,
the other gets the conflict screen, and the stored game is the winner's.

The helpers here (a started round of 50 tables, referee accounts, a game as a tablet posts it,
reading the database back) are shared with the crash-safety test.
"""

import json
import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.factories import table, tournament_data
from tests.http_client import Client
from tests.server import Server

pytestmark = pytest.mark.server

SLUG = "test"
PASSWORD = "tablet-password-1"
TABLES = 50
GAMES = 4  # four players a table: one game started by each seat
SEATS = "ABCD"
OPENINGS = ("opened", "not_possible", "possible_not_done", "drawn_last_round")


# ---------------------------------------------------------------- the venue


def start_venue(folder, *, referees=0, device_links=0, workers=2, threads=4):
    """A started server over a tournament of 200 players at 50 tables in a started round.

    Staff: `referees` accounts ref1…refN signing in with PASSWORD, and `device_links` tablet
    sign-in links (how tablets join at a venue: no password hash to check, so 50 of them sign in
    quickly). Returns (server, the links' tokens).
    """
    server = Server(folder, workers=workers, threads=threads)
    try:
        data = tournament_data(TABLES * 4, rounds=[{
            "number": 1, "kind": "qualifying", "state": "started",
            "tables": [table(t, [f"p{4 * t - k}" for k in (3, 2, 1, 0)], state="empty") for t in range(1, TABLES + 1)],
        }])
        path = folder / "tournament.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        server.manage("import_tournament", str(path))
        staff = server.manage("shell", "-v", "0", "-c", (
            "import json\n"
            "from django.contrib.auth.hashers import make_password\n"
            "from django.contrib.auth.models import Group, User\n"
            "from accounts.services import create_device_link\n"
            "from tournament.models import Tournament\n"
            f"password = make_password({PASSWORD!r})\n"  # hashed once: the same hash for every account
            f"users = User.objects.bulk_create([User(username=f'ref{{i}}', password=password) for i in range(1, {referees} + 1)])\n"
            "Group.objects.get(name='referee').user_set.add(*users)\n"
            f"tournament = Tournament.objects.get(slug={SLUG!r})\n"
            f"print(json.dumps([create_device_link(tournament, f'Tablet {{i}}')[1] for i in range(1, {device_links} + 1)]))\n"
        ))
        tokens = json.loads(staff.stdout)
        return server.start(), tokens
    except BaseException:
        server.close()
        raise


def sign_in(server, *, referees=0, tokens=()):
    """Signed-in tablets (in parallel): ref1…refN through the login form, then one per device link."""
    def tablet(who):
        client = Client(server.url)
        return client.device_sign_in(who) if isinstance(who, str) else client.login(f"ref{who}", PASSWORD)

    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(tablet, [*range(1, referees + 1), *tokens]))


def sheet_path(table_number, round_number=1):
    return f"/referee/{SLUG}/round/{round_number}/table/{table_number}/"


def game_path(table_number, game_number, round_number=1):
    return f"{sheet_path(table_number, round_number)}game/{game_number}/"


# ---------------------------------------------------------------- one game as a tablet sends it


def game_values(seed):
    """A valid game, different for every seed: the winner, and per other seat (tiles, jokers, opening)."""
    winner = SEATS[seed % 4]
    losers = [letter for letter in SEATS if letter != winner]
    racks = {
        letter: (1 + (seed * 7 + 13 * k) % 150, (seed % 3) if k == 0 else 0, OPENINGS[(seed + k) % 4])
        for k, letter in enumerate(losers)
    }
    return winner, racks


def form_data(version, values):
    winner, racks = values
    data = {"version": version, "ending": winner}
    for letter, (tiles, jokers, opening) in racks.items():
        data.update({f"{letter}-tiles": tiles, f"{letter}-jokers": jokers, f"{letter}-opening": opening})
    return data


def exported_game(number, values):
    """The game as `export_tournament` writes it back (the interchange format)."""
    winner, racks = values
    return {
        "number": number, "ending": "out", "winner": winner,
        "racks": {letter: {"tiles": t, "jokers": j, "opening": o} for letter, (t, j, o) in sorted(racks.items())},
    }


# ---------------------------------------------------------------- what the server answered

VERSION = re.compile(r'id="g(\d+)-version" value="(\d+)"')


def sheet_version(client, table_number):
    page = client.get(sheet_path(table_number))
    assert page.status == 200, page.status
    versions = {int(v) for _, v in VERSION.findall(page.text)}
    assert len(versions) == 1, versions  # every game form carries the sheet's version
    return versions.pop()


def save_outcome(response, game_number):
    """What an answer to a game save says: "saved", "conflict" or "other" (htmx or plain form).

    htmx: status 200 either way; a save marks the game's status `data-just-saved`, a conflict
    shows `status--conflict` and the conflict box. Plain form: a save redirects to the sheet,
    a conflict shows the sheet with the conflict box and status 409.
    """
    text = response.text
    conflict = "status--conflict" in text and f'id="g{game_number}-conflict"' in text and 'class="conflict"' in text
    if response.status == 200 and "data-just-saved" in text and not conflict:
        return "saved"
    if response.status == 302 and "/referee/" in response.location and "#" in response.location:
        return "saved"  # back to the sheet, at the next game to enter
    if response.status in (200, 409) and conflict and "data-just-saved" not in text:
        return "conflict"
    return "other"


def next_version(response, game_number):
    """The sheet version an htmx save answer moves the form on to."""
    return int(dict(VERSION.findall(response.text))[str(game_number)])


# ---------------------------------------------------------------- the database, read back


def exported_games(server):
    """{table number: {game number: game}} of round 1, from `manage.py export_tournament`."""
    data = json.loads(server.manage("export_tournament", SLUG).stdout)
    (round_,) = data["rounds"]
    return {t["number"]: {g["number"]: g for g in t["games"]} for t in round_["tables"]}


def server_errors(server):
    """Tracebacks and 'database is locked' in the server's log."""
    log = (server.folder / "gunicorn.log").read_text(errors="replace")
    return [line for line in log.splitlines() if "Traceback" in line or "locked" in line or "Error" in line]


# ---------------------------------------------------------------- the tests


@pytest.fixture(scope="module")
def venue(tmp_path_factory):
    server, tokens = start_venue(tmp_path_factory.mktemp("venue"), device_links=TABLES)
    try:
        yield server, sign_in(server, tokens=tokens)
    finally:
        server.close()


def test_fifty_referees_saving_different_sheets_at_once_lose_nothing(venue):
    server, tablets = venue
    start = threading.Barrier(len(tablets))
    acknowledged, answers = {}, []

    def referee(table_number, client):
        """Open the sheet and save its four games one after another, as a tablet does."""
        version = sheet_version(client, table_number)
        start.wait(timeout=60)
        for number in range(1, GAMES + 1):
            values = game_values(table_number * 10 + number)
            response = client.post(game_path(table_number, number), form_data(version, values), htmx=True)
            outcome = save_outcome(response, number)
            answers.append((table_number, number, response.status, outcome))
            if outcome != "saved":
                return
            acknowledged[table_number, number] = values
            version = next_version(response, number)

    with ThreadPoolExecutor(max_workers=len(tablets)) as pool:
        for future in [pool.submit(referee, t, client) for t, client in enumerate(tablets, start=1)]:
            future.result()

    failed = [a for a in answers if a[3] != "saved"]
    assert not failed, failed[:5]
    assert len(acknowledged) == TABLES * GAMES
    stored = exported_games(server)
    for (table_number, number), values in acknowledged.items():
        assert stored[table_number][number] == exported_game(number, values), (table_number, number)
    assert not server_errors(server)


def test_two_referees_saving_the_same_game_at_once_one_wins_the_other_sees_the_conflict(venue):
    """25 pairs, each on its own sheet; half of them as htmx tablets, half as plain forms.

    Tablet k signed in with the device link labelled "Tablet k": the conflict screen names the
    tablet whose save won.
    """
    server, tablets = venue
    results = {}

    def contender(table_number, tablet, barrier, htmx):
        client = tablets[tablet - 1]
        version = sheet_version(client, table_number)
        values = game_values(1000 * tablet + table_number)
        barrier.wait(timeout=60)  # both tablets loaded the same version; now both save
        response = client.post(game_path(table_number, 1), form_data(version, values), htmx=htmx)
        results.setdefault(table_number, []).append((save_outcome(response, 1), tablet, values, response))

    pairs = range(1, TABLES // 2 + 1)
    with ThreadPoolExecutor(max_workers=len(tablets)) as pool:
        futures = []
        for table_number in pairs:
            barrier = threading.Barrier(2)
            for tablet in (2 * table_number - 1, 2 * table_number):
                futures.append(pool.submit(contender, table_number, tablet, barrier, table_number % 2 == 0))
        for future in futures:
            future.result()

    stored = exported_games(server)
    for table_number in pairs:
        (won, winner, values, _), (lost, _, _, answer) = sorted(results[table_number], key=lambda r: r[0] != "saved")
        assert (won, lost) == ("saved", "conflict"), (table_number, won, lost, answer.status)
        assert answer.status == (200 if table_number % 2 == 0 else 409)
        assert f"<strong>Tablet {winner}</strong>" in answer.text  # what was saved in the meantime, and by whom
        assert stored[table_number][1] == exported_game(1, values)
    assert not server_errors(server)
