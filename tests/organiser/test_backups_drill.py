"""The drill: half a tournament, a sheet verified on the real server, kill -9 at once, the worker
started afterwards writes the snapshot that verification queued, and that snapshot (the laptop's
file copy) restored on a fresh database gives the standings of before the kill."""

import json

import pytest

from tests.support.http_client import Client
from tests.support.server import Server

pytestmark = [pytest.mark.full, pytest.mark.server]

SLUG = "drill"
PASSWORD = "drill-pass-4821"
# Run in the server's database with `manage.py shell`: 16 players, rounds 1-2 played and completed
# through the services, round 3 played with every sheet verified but table 4's (submitted).
FILL = f"""
from django.conf import settings
settings.BACKUP_SNAPSHOTS = "off"  # the fill is not what the drill measures
from django.contrib.auth.models import User
from accounts.services import make_member
from engine import rules
from organiser import services
from organiser.interchange import import_tournament
from scoring.services import sheets as scoring
from scoring.models import ScoreSheet
from tournament.models import Table

organiser = User.objects.create_user("org", password={PASSWORD!r}, is_superuser=True)
head = User.objects.create_user("head", password={PASSWORD!r})
make_member(head, "head_referee")
tournament = import_tournament({{
    "format": "rummikub-tournament/1",
    "tournament": {{"name": "Drill", "slug": {SLUG!r}, "date": "2026-02-10", "settings": {{"rounds_planned": 6, "final": False}}}},
    "players": [{{"id": f"p{{i}}", "name": f"Gracz {{i}}", "organisation": f"Klub {{i}}", "present": True}} for i in range(1, 17)],
}})
for number in (1, 2, 3):
    round_ = services.draw_round(tournament, user=organiser)
    services.start_round(round_, user=organiser)
    for table in Table.objects.filter(round=round_).order_by("number"):
        letters = ("A", "B", "C", "D")
        sheet = scoring.ensure_sheet(table)
        for game in range(1, 5):
            winner = letters[(game + table.number + number) % 4]
            racks = {{x: rules.Rack(tiles=(7 * game + 3 * table.number + number + k) % 60) for k, x in enumerate(letters) if x != winner}}
            scoring.save_game(sheet, game, rules.Game(seats=letters, winner=winner, racks=racks), version=game - 1, user=head)
        scoring.submit_sheet(sheet, version=4, user=head)
        if number < 3 or table.number != 4:
            scoring.verify_sheet(sheet, version=5, user=head)
    if number < 3:
        services.complete_round(round_, user=organiser)
"""


def standings(server):
    return json.loads(server.manage("standings", SLUG, "--json").stdout)


def newest_snapshot(folder, trigger):
    [found] = sorted((folder / "backups" / "tournaments").glob(f"*/*_{trigger}.json.gz"))  # the one tournament's
    return found


def test_the_newest_snapshot_restores_the_standings_of_before_a_kill_9(tmp_path):
    venue, spare = tmp_path / "venue", tmp_path / "spare"
    venue.mkdir(), spare.mkdir()
    with Server(venue) as server:
        server.manage("shell", "-v", "0", "-c", FILL)
        server.start()
        head = Client(server.url).login("head", PASSWORD)
        sheet = f"/referee/{SLUG}/round/3/table/4/"
        assert f"{sheet}verify/" in head.get(sheet).text  # the verify button is offered
        answer = head.post(sheet + "verify/", {"version": 5})
        assert answer.status == 302, answer.text[:500]
        server.kill()  # at once: the snapshot is queued (a row), not written
        assert not list((venue / "backups").glob("tournaments/*/*_verify-r3-t4.json.gz"))
        server.manage("run_tasks", "--batch")  # the worker, started again after the power cut
        snapshot = newest_snapshot(venue, "verify-r3-t4")
        before = standings(server)
    assert sum(row["big_points"] for row in before) == 4 * 4 * 3  # every game of 12 tables, 4 per table

    with Server(spare) as fresh:
        fresh.manage("import_tournament", str(snapshot))
        assert standings(fresh) == before
