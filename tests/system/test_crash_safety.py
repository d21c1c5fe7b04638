"""kill -9 of the real server in the middle of a burst of saves, then a restart.

Whatever the server acknowledged before it died is in the database with exactly the values
sent; a save that was in flight is either entirely there or not at all; the database passes
an integrity check; the server then serves as before. On SQLite and PostgreSQL.
"""

import json
import sqlite3
import threading
import urllib.error
from concurrent.futures import ThreadPoolExecutor
from http.client import HTTPException

import pytest

from tests.support.venue import (
    GAMES,
    TABLES,
    exported_game,
    exported_games,
    form_data,
    game_path,
    game_values,
    next_version,
    save_outcome,
    server_errors,
    sheet_version,
    sign_in,
    start_venue,
)

pytestmark = pytest.mark.server

REFEREES = 6
KILL_AFTER = 40  # acknowledged saves before the power cut (of 6 × 8 tables × 4 games)
CONNECTION_LOST = (OSError, HTTPException, urllib.error.URLError)  # what a tablet sees when the server dies

# Run with `manage.py shell`: what must hold in any state the server can leave behind. Every
# row of every model can be read; every game has one result per seat, adding up to zero; a
# sheet's version counts its saves (the version and the audit entry are written in the save's
# transaction), and its games are exactly what its latest audit entries say was saved.
CONSISTENCY_CHECK = """
import json
from django.apps import apps
from scoring.models import ScoreSheet
from scoring.services.sheets import game_snapshot

problems = []
for model in apps.get_models():
    list(model._base_manager.all())
sheets = ScoreSheet.objects.prefetch_related("games__results", "table__seats", "audit_entries")
for sheet in sheets:
    name = f"table {sheet.table.number}"
    letters = sorted(seat.letter for seat in sheet.table.seats.all())
    games = {game.number: game for game in sheet.games.all()}
    for number, game in games.items():
        results = list(game.results.all())
        if sorted(r.letter for r in results) != letters or sum(r.score for r in results) != 0:
            problems.append(f"{name} game {number}: results {[(r.letter, r.score) for r in results]}")
    saves = sorted((e for e in sheet.audit_entries.all() if e.action == "save_game"), key=lambda e: e.after["version"])
    if sheet.version != len(saves) or [e.after["version"] for e in saves] != list(range(1, len(saves) + 1)):
        problems.append(f"{name}: version {sheet.version} after {len(saves)} saves")
    latest = {e.after["game"]["number"]: e.after["game"] for e in saves}
    stored = {number: json.loads(json.dumps(game_snapshot(game))) for number, game in games.items()}
    if stored != latest:
        problems.append(f"{name}: stored games differ from the audit log")
    if sheet.state != ("in_progress" if games else "empty"):
        problems.append(f"{name}: state {sheet.state} with {len(games)} games")
print(json.dumps(problems))
"""


def integrity_problems(server):
    """What the database engine and the consistency check find wrong (nothing, we hope)."""
    problems = []
    if "DATABASE_URL" not in server.env:  # SQLite: the file in the server's folder
        with sqlite3.connect(server.folder / "db.sqlite3") as database:
            check = database.execute("PRAGMA integrity_check").fetchall()
            if check != [("ok",)]:
                problems.append(f"integrity_check: {check}")
            problems += [f"foreign key: {row}" for row in database.execute("PRAGMA foreign_key_check")]
        database.close()
    output = server.manage("shell", "-v", "0", "-c", CONSISTENCY_CHECK).stdout
    return problems + json.loads(output)


def test_kill_9_during_a_burst_of_saves_loses_no_acknowledged_save(tmp_path):
    server, _ = start_venue(tmp_path, referees=REFEREES)
    try:
        tablets = sign_in(server, referees=REFEREES)
        acknowledged, in_flight, refused = {}, {}, []
        enough = threading.Event()

        def referee(first_table, client):
            """Save every game of every REFEREES-th table until the connection is lost."""
            for table_number in range(first_table, TABLES - 1, REFEREES):  # tables 49 and 50 stay empty
                try:
                    version = sheet_version(client, table_number)
                except CONNECTION_LOST:
                    return
                for number in range(1, GAMES + 1):
                    values = game_values(table_number * 10 + number)
                    in_flight[table_number, number] = values
                    try:
                        response = client.post(game_path(table_number, number), form_data(version, values), htmx=True)
                    except CONNECTION_LOST:
                        return
                    if save_outcome(response, number) != "saved":
                        refused.append((table_number, number, response.status))
                        return
                    acknowledged[table_number, number] = in_flight.pop((table_number, number))
                    version = next_version(response, number)
                    if len(acknowledged) >= KILL_AFTER:
                        enough.set()

        with ThreadPoolExecutor(max_workers=REFEREES) as pool:
            futures = [pool.submit(referee, k, client) for k, client in enumerate(tablets, start=1)]
            assert enough.wait(timeout=90), f"only {len(acknowledged)} saves acknowledged"
            server.kill()
            for future in futures:
                future.result(timeout=90)

        assert not refused, refused[:5]
        assert not server_errors(server)
        planned = len(range(1, TABLES - 1)) * GAMES
        assert KILL_AFTER <= len(acknowledged) < planned  # the server died in the middle of the burst

        server.start()
        assert integrity_problems(server) == []
        stored = exported_games(server)
        for (table_number, number), values in acknowledged.items():
            assert stored[table_number].get(number) == exported_game(number, values), (table_number, number)
        # A save in flight at the kill is there entirely, with the values sent, or not at all;
        # nothing else was stored.
        for table_number, games in stored.items():
            for number, game in games.items():
                sent = acknowledged.get((table_number, number)) or in_flight.get((table_number, number))
                assert sent is not None and game == exported_game(number, sent), (table_number, number)

        # After the restart the same tablets (their sessions are in the database) carry on.
        client = tablets[0]
        version = sheet_version(client, TABLES)
        values = game_values(TABLES * 10 + 1)
        response = client.post(game_path(TABLES, 1), form_data(version, values), htmx=True)
        assert save_outcome(response, 1) == "saved"
        assert client.get("/t/test/standings.json").status == 200
        assert exported_games(server)[TABLES] == {1: exported_game(1, values)}
        assert integrity_problems(server) == []
    finally:
        server.close()
