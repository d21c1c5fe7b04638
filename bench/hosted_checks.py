"""The hosted test's data and its checks, read from the database (bench/hosted_test.py).

Runs in the test's own process with Django set up on the test's PostgreSQL (`setup`): it prepares
three organisations with two tournaments each (round 1 drawn, the sheets empty, a head referee,
an organiser and a device link per table) and a seventh tournament to restore; afterwards it
compares what the clients were told with what the database holds.
"""

import gzip
import json
import os
import secrets
import sys
import time
from collections import Counter
from pathlib import Path

from hall_report import lines

ROOT = Path(__file__).resolve().parent.parent
ORGANISATIONS = 3
TOURNAMENTS_EACH = 2
TABLES = 4  # per tournament: 16 players
RESTORED = "zapas"  # the tournament the test restores from its own backup (not played)


def setup(env):
    """Django, as a management command has it, on the test's database."""
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def tournament_data(slug, name):
    """A 16-player tournament with round 1 drawn and its sheets empty (the interchange format)."""
    from organiser.demo import random_tournament

    data = random_tournament(4 * TABLES, 1, slug=slug)
    data["tournament"].update(name=name)
    data["tournament"]["settings"]["rounds_planned"] = 4
    data["rounds"][0]["state"] = "started"
    for table in data["rounds"][0]["tables"]:
        table["games"], table["state"] = [], "empty"
    return data


def staff_account(username, role, tournament):
    from django.contrib.auth.models import User

    from accounts.models import TournamentRole

    password = secrets.token_urlsafe(12)
    user = User.objects.create_user(username, password=password)
    TournamentRole.objects.create(user=user, tournament=tournament, role=role)
    return [username, password]


def prepare():
    """The organisations, their tournaments, staff and tablets' links; the scenario's data."""
    from django.contrib.auth.models import User
    from django.db import connections

    from accounts.models import Role
    from accounts.services import create_device_link, create_organisation
    from organiser.interchange import import_tournament

    tournaments, logins, tokens = [], {}, {}
    for number in range(1, ORGANISATIONS + 1):
        organiser = create_organisation(name=f"Klub {number}", slug=f"klub-{number}", organiser=f"szef-{number}")
        host = organiser.memberships.get().host
        for which in range(1, TOURNAMENTS_EACH + 1):
            slug = f"klub-{number}-turniej-{which}"
            data = tournament_data(slug, f"Turniej {which} klubu {number}")
            tournament = import_tournament(data, host=host)
            tournaments.append({"slug": slug, "players": [p["id"] for p in data["players"]]})
            logins[slug] = {
                "head_referee": staff_account(f"sedzia-{slug}", Role.HEAD_REFEREE, tournament),
                "organiser": staff_account(f"organizator-{slug}", Role.ORGANISER, tournament),
            }
            tokens[slug] = {str(t): create_device_link(tournament, label=f"Stół {t}")[1] for t in range(1, TABLES + 1)}
    import_tournament(tournament_data(RESTORED, "Turniej zapasowy"), host=host)
    restorer = User.objects.get(username=f"szef-{ORGANISATIONS}")
    password = secrets.token_urlsafe(12)
    restorer.set_password(password)
    restorer.save()
    connections.close_all()
    return {
        "tournaments": tournaments,
        "tables": TABLES,
        "logins": logins,
        "tokens": tokens,
        "restorer": [restorer.username, password],
        "restored": RESTORED,
    }


def stored_games():
    """{(slug, table, game): (winner, {seat: [tiles, jokers, opening]})} of every round 1, as stored."""
    from scoring.models import Game

    stored = {}
    games = Game.objects.filter(sheet__table__round__number=1).select_related("sheet__table__round__tournament")
    for game in games.prefetch_related("results"):
        racks = {r.letter: [r.tiles, r.jokers, r.opening] for r in game.results.all() if not r.went_out}
        stored[(game.sheet.table.round.tournament.slug, game.sheet.table.number, game.number)] = (game.winner, racks)
    return stored


def lost_saves(out):
    """The saves a tablet saw acknowledged that the database does not hold: (lost, acknowledged)."""
    stored, lost, acknowledged = stored_games(), [], 0
    for ack in lines(out, "acks"):
        acknowledged += 1
        if stored.get((ack["slug"], ack["table"], ack["game"])) != (ack["winner"], ack["racks"]):
            lost.append((ack["slug"], ack["table"], ack["game"]))
    return lost, acknowledged


def verified_sheets():
    """{slug: {table number}} of the sheets verified in round 1."""
    from scoring.models import ScoreSheet

    found = {}
    rows = ScoreSheet.objects.filter(state=ScoreSheet.State.VERIFIED, table__round__number=1)
    for slug, table in rows.values_list("table__round__tournament__slug", "table__number"):
        found.setdefault(slug, set()).add(table)
    return found


def tasks_waiting():
    """Tasks queued or running (a task of a killed worker stays running until it is retried)."""
    from django_tasks.base import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    return DBTaskResult.objects.filter(status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING]).count()


def wait_for_tasks(seconds):
    """Until the worker has run every queued task, or `seconds` passed; returns those left."""
    deadline = time.monotonic() + seconds
    while (left := tasks_waiting()) and time.monotonic() < deadline:
        time.sleep(0.5)
    return left


def snapshots_of(slug):
    """[(trigger, decoded JSON)] of a tournament's snapshots (rows in the database), oldest first."""
    from django.apps import apps

    from tournament.models import Tournament

    Snapshot = apps.get_model("organiser", "Snapshot")
    uid = Tournament.objects.get(slug=slug).uid
    rows = Snapshot.objects.filter(tournament_uid=uid).order_by("taken_at", "pk")
    return [(row.trigger, json.loads(gzip.decompress(bytes(row.content)))) for row in rows]


def snapshots_missing():
    """The verified sheets that the newest snapshot of their tournament does not hold as verified."""
    missing = []
    for slug, tables in sorted(verified_sheets().items()):
        taken = snapshots_of(slug)
        newest = taken[-1][1] if taken else {"rounds": []}
        held = {
            t["number"] for r in newest["rounds"] if r["number"] == 1 for t in r["tables"] if t["state"] == "verified"
        }
        missing += [(slug, table) for table in sorted(tables - held)]
    return missing


def restores_applied():
    """How many times the restored tournament was replaced: each restore first takes a snapshot
    'before-restore' of what it replaces."""
    return Counter(trigger for trigger, _data in snapshots_of(RESTORED))["before-restore"]


def files_on_app_servers(var_dirs):
    """Every file in the app servers' VAR_DIRs but the collected static files."""
    return sorted(
        str(path)
        for var_dir in var_dirs
        for path in var_dir.rglob("*")
        if path.is_file() and path.relative_to(var_dir).parts[0] != "staticfiles"
    )


def close_connections():
    from django.db import connections

    connections.close_all()


# What the requests' records say (the scenario's `requests` and `failures` files), against the
# moments the database went away and came back.

SIGN_INS = {"staff: sign-in page", "staff: sign in", "referee: sign-in link", "referee: sign in"}
SETTLE = 2.0  # seconds after the database accepts connections again by which every answer is right


def outage_windows(outages):
    """[(from, to)] of each outage: from the fault to SETTLE seconds after the database was back."""
    return [(down, back + SETTLE) for down, back in outages]


def overlaps(start, end, windows):
    return any(start <= until and end >= since for since, until in windows)


def failures_outside(out, outages):
    """The failed requests that were under way at no moment of a database outage (or its settling)."""
    windows = outage_windows(outages)
    return [failure for failure in lines(out, "failures") if not overlaps(failure["start"], failure["at"], windows)]


def errors_after_return(out, outages):
    """The 5xx answers to requests that started SETTLE seconds or more after the database came back
    and ended before it went away again: what a restart must not leave behind."""
    found = []
    for request in lines(out, "requests"):
        if request["status"] < 500:
            continue
        end = request["start"] + request["ms"] / 1000
        for number, (_down, back) in enumerate(outages):
            following = outages[number + 1][0] if number + 1 < len(outages) else float("inf")
            if back + SETTLE <= request["start"] and end < following:
                found.append(request)
    return found


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def p95s(out, steady_from, outages):
    """(steady state's p95, sign-ins' p95) in ms: the steady state is every request but a sign-in
    that started after the sign-ins' spread and was under way at no moment of a database outage."""
    windows = outage_windows(outages)
    steady, sign_ins = [], []
    for request in lines(out, "requests"):
        if request["name"] in SIGN_INS:
            sign_ins.append(request["ms"])
        elif request["start"] >= steady_from and not overlaps(
            request["start"], request["start"] + request["ms"] / 1000, windows
        ):
            steady.append(request["ms"])
    return percentile(steady, 0.95), percentile(sign_ins, 0.95)
