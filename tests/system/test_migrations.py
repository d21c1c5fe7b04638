"""A database made by an earlier release migrates forward with nothing lost.

`tests/data/main-2026-11-25.sqlite3.gz` was filled by the code of 2026-11-25 through its own
doors (the demo, a drawn and started third round with entered, submitted, verified and
overridden sheets, cards, a withdrawal, a device link, hidden results, and an imported second
tournament with two players per organisation and a tie decision); `main-2026-11-25.json.gz`
holds what that code exported from it. Today's code migrates a copy of that file and must read
back every row and export the same tournaments.
"""

import datetime
import gzip
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parents[1] / "data"
RELEASE = "main-2026-11-25"
# Tables that a migration may rightly grow: the migration log and Django's catalogue of models.
CATALOGUE = {"django_migrations", "django_content_type", "auth_permission", "auth_group_permissions", "sqlite_sequence"}


def row_counts(path):
    with sqlite3.connect(path) as connection:
        tables = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {table: connection.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0] for table in tables}


def membership_roles(path):
    with sqlite3.connect(path) as connection:
        query = (
            "SELECT u.username, m.role, h.slug FROM accounts_membership m JOIN auth_user u ON u.id = m.user_id "
            "JOIN tournament_hostorganisation h ON h.id = m.host_id ORDER BY u.username"
        )
        return [(username, role) for username, role, _host in connection.execute(query)]


def group_roles(packed_path, folder):
    """Each staff member's group in the earlier release's database (one group each there)."""
    earlier = folder / "earlier.sqlite3"
    with gzip.open(packed_path) as packed, earlier.open("wb") as unpacked:
        shutil.copyfileobj(packed, unpacked)
    with sqlite3.connect(earlier) as connection:
        query = (
            "SELECT u.username, g.name FROM auth_user_groups ug JOIN auth_user u ON u.id = ug.user_id "
            "JOIN auth_group g ON g.id = ug.group_id ORDER BY u.username"
        )
        return list(connection.execute(query))


def manage(folder, *arguments):
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in ("DATABASE_URL", "VAR_DIR", "DJANGO_SETTINGS_MODULE")
    }
    environment.update(TESTING="1", VAR_DIR=str(folder), DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}")
    finished = subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert finished.returncode == 0, finished.stdout + finished.stderr
    return finished.stdout


def test_a_database_of_the_earlier_release_migrates_forward_with_every_row_and_the_same_export(tmp_path):
    database = tmp_path / "db.sqlite3"
    with gzip.open(DATA / f"{RELEASE}.sqlite3.gz") as packed, database.open("wb") as unpacked:
        shutil.copyfileobj(packed, unpacked)
    before = row_counts(database)
    assert before["scoring_seatresult"] and before["scoring_auditentry"] and before["accounts_devicelink"]

    manage(tmp_path, "migrate", "--noinput")

    after = row_counts(database)
    # The staff groups became memberships of the one host organisation every tournament moved into.
    groups = {"auth_group": before.pop("auth_group"), "auth_user_groups": before.pop("auth_user_groups")}
    assert (after["auth_group"], after["auth_user_groups"]) == (0, 0)
    assert after["accounts_membership"] == groups["auth_user_groups"] and after["tournament_hostorganisation"] == 1
    assert membership_roles(database) == group_roles(DATA / f"{RELEASE}.sqlite3.gz", tmp_path)
    kept = {table: count for table, count in before.items() if table not in CATALOGUE}
    assert {table: after[table] for table in kept} == kept
    expected = json.loads(gzip.decompress((DATA / f"{RELEASE}.json.gz").read_bytes()))
    for slug, export in expected.items():
        exported = json.loads(manage(tmp_path, "export_tournament", slug))
        # That release exported no audit log, nor when and by whom a card was given; today's
        # export adds them (the optional `audit` list, each card's `given_at` and `given_by`),
        # each player's name in two parts (`given_names`, `surname`: the last word of the
        # name), the language of the hall's screens (Polish, the default) and how the final's
        # results are released (neither tournament has started a final: hidden until the
        # ceremony, as for a new one), when each round started and was completed, and the day's
        # timetable (that release had none: empty), each player's person, and leaves every other byte as it was. No
        # card of that release is withdrawn.
        audit = exported.pop("audit")
        given = [(card.pop("given_at"), card.pop("given_by")) for card in exported["cards"]]
        assert exported["tournament"]["settings"].pop("public_language") == "pl", slug
        assert exported["tournament"]["settings"].pop("final_release") == "ceremony", slug
        assert exported.pop("timetable") == [], slug
        played = [(r["number"], r.pop("started_at"), r.pop("completed_at")) for r in exported["rounds"]]
        assert played == round_rows(database, slug), slug
        parts = [(player.pop("given_names"), player.pop("surname")) for player in exported["players"]]
        # and each player's person (`person`): one of the people 0012 made of the players
        people = [player.pop("person") for player in exported["players"]]
        assert len(set(people)) == len(people) and set(people) <= person_uids(database), slug
        assert parts == [tuple(player["name"].rsplit(" ", 1)) for player in export["players"]], slug
        assert exported == export, slug
        assert [(e["what"], e["who"], e["reason"]) for e in audit] == audit_rows(database, slug), slug
        assert given == card_rows(database, slug), slug
    with sqlite3.connect(database) as connection:
        split = dict(connection.execute("SELECT name, given_names || ' / ' || surname FROM tournament_player"))
    assert (split["Genowefa Gąsior"], split["Henryk Ćwik"], split["Łucja Żak 0"]) == (
        "Genowefa / Gąsior",
        "Henryk / Ćwik",
        "Łucja Żak / 0",
    )


def person_uids(path):
    """The people's ids as the export writes them (SQLite keeps them as 32 hex digits)."""
    with sqlite3.connect(path) as connection:
        return {str(uuid.UUID(uid)) for (uid,) in connection.execute("SELECT uid FROM tournament_person")}


def audit_rows(path, slug):
    """(action, user name, reason) of a tournament's audit entries in the old database, oldest first."""
    with sqlite3.connect(path) as connection:
        return [
            tuple(row)
            for row in connection.execute(
                "SELECT a.action, u.username, a.reason FROM scoring_auditentry a JOIN tournament_tournament t"
                " ON t.id = a.tournament_id LEFT JOIN auth_user u ON u.id = a.user_id WHERE t.slug = ?"
                " ORDER BY a.created_at, a.id",
                (slug,),
            )
        ]


def round_rows(path, slug):
    """(number, started, completed as the export writes them) of a tournament's rounds in the old database."""
    with sqlite3.connect(path) as connection:
        rows = connection.execute(
            "SELECT r.number, r.started_at, r.completed_at FROM tournament_round r JOIN tournament_tournament t"
            " ON t.id = r.tournament_id WHERE t.slug = ? ORDER BY r.number",
            (slug,),
        )
        return [(number, utc_text(started), utc_text(completed)) for number, started, completed in rows]


def utc_text(stored):
    """A time as the old database stores it (UTC, no offset) written as the export writes it, or None."""
    return stored and datetime.datetime.fromisoformat(stored).replace(tzinfo=datetime.UTC).isoformat()


def card_rows(path, slug):
    """(when as the export writes it, the giver's user name) of a tournament's cards in the old database, oldest first."""
    with sqlite3.connect(path) as connection:
        rows = connection.execute(
            "SELECT c.created_at, u.username FROM scoring_card c JOIN tournament_tournament t ON t.id = c.tournament_id"
            " LEFT JOIN auth_user u ON u.id = c.given_by_id WHERE t.slug = ? ORDER BY c.created_at, c.id",
            (slug,),
        )
        return [(utc_text(when), user) for when, user in rows]
