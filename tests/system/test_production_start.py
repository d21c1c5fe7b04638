"""`make run HOST=0.0.0.0` is the production server, as `bench-hall` measures it: gunicorn, DEBUG
off, the app's own error pages, a secret key of its own kept in VAR_DIR, foreign host names
refused; a referee saves a game through it, SIGTERM stops it, and a restart serves the same data."""

import json
import re
import sqlite3
import stat
import time

import pytest

from tests.factories import table, tournament_data
from tests.support.http_client import Client
from tests.support.server import MakeRun

pytestmark = [pytest.mark.full, pytest.mark.server, pytest.mark.own_database]
SLUG = "test"
TRACEBACK_WORDS = ("Traceback", "settings.py", "DEBUG", "URLconf", "SECRET_KEY", "site-packages")


def logins(folder):
    """{user name: password} from the demo's logins file, as `make run` prints it."""
    lines = (folder / "demo-logins.txt").read_text(encoding="utf-8").splitlines()
    return dict(line.split()[-2:] for line in lines)


def import_started_round(server):
    """A tournament of 8 players whose round 1 is started, imported while the server runs."""
    data = tournament_data(
        8,
        rounds=[
            {
                "number": 1,
                "kind": "qualifying",
                "state": "started",
                "tables": [
                    table(1, ["p1", "p2", "p3", "p4"], state="empty"),
                    table(2, ["p5", "p6", "p7", "p8"], state="empty"),
                ],
            }
        ],
    )
    path = server.folder / "tournament.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    server.manage("import_tournament", str(path))


def save_game(referee):
    sheet = referee.get(f"/referee/{SLUG}/round/1/table/1/")
    assert sheet.status == 200
    version = re.search(r'name="version"[^>]*value="(\d+)"', sheet.text).group(1)
    answer = referee.post(
        f"/referee/{SLUG}/round/1/table/1/game/1/",
        {
            "version": version,
            "ending": "A",
            "B-tiles": "23",
            "B-jokers": "0",
            "B-opening": "opened",
            "C-tiles": "10",
            "C-jokers": "1",
            "C-opening": "opened",
            "D-tiles": "0",
            "D-jokers": "0",
            "D-opening": "not_possible",
        },
    )
    assert answer.status in (200, 302), answer.text[:500]


def assert_no_debug_text(text):
    for word in TRACEBACK_WORDS:
        assert word not in text, word


def force_a_server_error(server, visitor):
    """Take a table away under the running server: the players' page then fails with a 500."""
    with sqlite3.connect(server.folder / "db.sqlite3") as database:
        database.execute("ALTER TABLE tournament_player RENAME TO tournament_player_away")
    try:
        return visitor.get(f"/t/{SLUG}/player/p1/"), visitor.get(f"/t/{SLUG}/player/p1/", {"Accept-Language": "en"})
    finally:
        with sqlite3.connect(server.folder / "db.sqlite3") as database:
            database.execute("ALTER TABLE tournament_player_away RENAME TO tournament_player")


def test_make_run_serves_the_production_way_and_keeps_its_data(tmp_path):
    server = MakeRun(tmp_path).wait()
    try:
        key_file = tmp_path / "secret_key"
        key = key_file.read_text().strip()
        assert len(key) >= 40 and stat.S_IMODE(key_file.stat().st_mode) == 0o600
        import_started_round(server)
        visitor = Client(server.url)
        home = visitor.get("/")
        assert home.status == 200 and home.headers["server"] == "gunicorn"  # not Django's WSGIServer

        missing_pl, missing_en = visitor.get("/no-such-page/"), visitor.get("/no-such-page/", {"Accept-Language": "en"})
        assert (missing_pl.status, missing_en.status) == (404, 404)
        assert "Nie znaleźliśmy tej strony" in missing_pl.text and "We could not find this page" in missing_en.text
        assert_no_debug_text(missing_pl.text + missing_en.text)

        failed_pl, failed_en = force_a_server_error(server, visitor)
        assert (failed_pl.status, failed_en.status) == (500, 500)
        assert "Coś poszło nie tak" in failed_pl.text and "Something went wrong" in failed_en.text
        assert_no_debug_text(failed_pl.text + failed_en.text)
        assert "Traceback" in (tmp_path / "log" / "errors.log").read_text(encoding="utf-8")

        foreign = visitor.get("/", {"Host": "rebinding.example"})
        assert foreign.status == 400 and "rebinding.example" not in foreign.text

        organiser = Client(server.url).login("organizator", logins(tmp_path)["organizator"])
        dashboard = organiser.get(f"/staff/{SLUG}/")
        assert "errors.log" in dashboard.text  # the organiser is told where the error was written

        save_game(Client(server.url).login("sedzia", logins(tmp_path)["sedzia"]))
        started = time.monotonic()
        server.stop()
        assert time.monotonic() - started < 8 and server.process.returncode is not None
    finally:
        server.stop()

    server = MakeRun(tmp_path).wait()
    try:
        assert key_file.read_text().strip() == key
        sheet = Client(server.url).login("sedzia", logins(tmp_path)["sedzia"]).get(f"/referee/{SLUG}/round/1/table/1/")
        assert 'value="23"' in sheet.text  # the game saved before the stop
    finally:
        server.stop()
