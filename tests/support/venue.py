"""A venue on the real server, for the concurrency and crash-safety tests: a started round of 50
tables over 200 players, referee accounts and tablets' sign-in links, a game as a tablet posts
it, what the server answered, and the database read back."""

import json
import re
from concurrent.futures import ThreadPoolExecutor

from tests.factories import table, tournament_data
from tests.support.http_client import Client
from tests.support.server import Server

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
        data = tournament_data(
            TABLES * 4,
            rounds=[
                {
                    "number": 1,
                    "kind": "qualifying",
                    "state": "started",
                    "tables": [
                        table(t, [f"p{4 * t - k}" for k in (3, 2, 1, 0)], state="empty") for t in range(1, TABLES + 1)
                    ],
                }
            ],
        )
        path = folder / "tournament.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        server.manage("import_tournament", str(path))
        staff = server.manage(
            "shell",
            "-v",
            "0",
            "-c",
            (
                "import json\n"
                "from django.contrib.auth.hashers import make_password\n"
                "from django.contrib.auth.models import User\n"
                "from accounts.services import make_member\n"
                "from accounts.services import create_device_link\n"
                "from tournament.models import Tournament\n"
                f"password = make_password({PASSWORD!r})\n"  # hashed once: the same hash for every account
                f"users = User.objects.bulk_create([User(username=f'ref{{i}}', password=password) for i in range(1, {referees} + 1)])\n"
                "[make_member(u, 'referee') for u in users]\n"
                f"tournament = Tournament.objects.get(slug={SLUG!r})\n"
                f"print(json.dumps([create_device_link(tournament, label=f'Tablet {{i}}')[1] for i in range(1, {device_links} + 1)]))\n"
            ),
        )
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
        "number": number,
        "ending": "out",
        "winner": winner,
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
