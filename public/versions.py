"""The public version of a tournament: it changes whenever anything its public pages show changes.

Database triggers raise `PublicVersion.version` on every insert, update and delete of the
rows the public pages read, and on every update of the tournament row itself (visibility,
frozen round, ceremony step, settings), whichever door made the change: referee and organiser
screens, the admin, imports, management commands or plain SQL. So the version says whether a
public page can have changed: an ETag and a cache key built from it are never stale.

On PostgreSQL each statement raises the versions it touches once, whatever the number of rows it
writes (statement triggers reading the changed rows); SQLite, which has only row triggers, raises
them row by row.

Score sheets that are not verified, and their games, show nothing in public, so their rows
raise nothing: entering games on the tablets (the busiest writes) never touches the version.

The triggers are dropped before every `migrate` and installed again after it, so a migration
that rebuilds a table (SQLite does for most changes) neither loses them nor trips over them.
"""

from django.db import connection as default_connection
from django.db.models.signals import post_migrate, pre_migrate

from public.models import PublicVersion
from scoring.models import Card, Game, ScoreSheet, SeatResult, TieDecision
from tournament.models import Organisation, Player, Round, Seat, Table, Tournament

PREFIX = "public_version_"


def _table(model):
    return model._meta.db_table


def watched_sources():
    """{model: SQL giving the tournament id of row `{row}` when that row shows in public, else NULL}."""
    rounds, tables, sheets, games = (_table(m) for m in (Round, Table, ScoreSheet, Game))
    verified = ScoreSheet.State.VERIFIED.value
    by_round = f"(SELECT r.tournament_id FROM {rounds} r WHERE r.id = {{row}}.round_id)"
    sheet_path = f"JOIN {tables} b ON b.id = h.table_id JOIN {rounds} r ON r.id = b.round_id"
    return {
        Organisation: "{row}.tournament_id",
        Player: "{row}.tournament_id",
        Round: "{row}.tournament_id",
        Card: "{row}.tournament_id",
        TieDecision: "{row}.tournament_id",
        Table: by_round,
        Seat: by_round,
        ScoreSheet: (
            f"(SELECT r.tournament_id FROM {tables} b JOIN {rounds} r ON r.id = b.round_id "
            f"WHERE b.id = {{row}}.table_id AND {{row}}.state = '{verified}')"
        ),
        Game: (
            f"(SELECT r.tournament_id FROM {sheets} h {sheet_path} "
            f"WHERE h.id = {{row}}.sheet_id AND h.state = '{verified}')"
        ),
        SeatResult: (
            f"(SELECT r.tournament_id FROM {games} g JOIN {sheets} h ON h.id = g.sheet_id {sheet_path} "
            f"WHERE g.id = {{row}}.game_id AND h.state = '{verified}')"
        ),
    }


def _bump(tournament_ids):
    return (
        f"UPDATE {_table(PublicVersion)} SET version = version + 1 WHERE tournament_id IN ({', '.join(tournament_ids)})"
    )


# A version row starts at a random number, so that a tournament deleted and created again
# (SQLite may give it the same id) never meets the ETags and cache keys of its predecessor.
RANDOM_START = {
    "sqlite": "abs(random() % 1000000000000000)",
    "postgresql": "floor(random() * 1000000000000000)::bigint",
}


def _create_version_row(vendor, new_id):
    return (
        f"INSERT INTO {_table(PublicVersion)} (tournament_id, version) "
        f"VALUES ({new_id}, {RANDOM_START[vendor]}) ON CONFLICT DO NOTHING"
    )


def _sqlite_statements():
    tournaments = _table(Tournament)
    statements = [
        f"CREATE TRIGGER {PREFIX}{tournaments}_insert AFTER INSERT ON {tournaments} "
        f"BEGIN {_create_version_row('sqlite', 'NEW.id')}; END",
        f"CREATE TRIGGER {PREFIX}{tournaments}_update AFTER UPDATE ON {tournaments} BEGIN {_bump(['NEW.id'])}; END",
    ]
    for model, source in watched_sources().items():
        old, new = source.format(row="OLD"), source.format(row="NEW")
        for event, ids in (("INSERT", [new]), ("UPDATE", [old, new]), ("DELETE", [old])):
            statements.append(
                f"CREATE TRIGGER {PREFIX}{_table(model)}_{event.lower()} AFTER {event} ON {_table(model)} "
                f"BEGIN {_bump(ids)}; END"
            )
    return statements


def _sqlite_drop_statements(cursor):
    cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE %s", [PREFIX + "%"])
    return [f"DROP TRIGGER IF EXISTS {name}" for (name,) in cursor.fetchall()]


def _postgresql_function(name, body):
    return (
        f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN {body} RETURN NULL; END $$"
    )


def _postgresql_statements():
    name = f"{PREFIX}{_table(Tournament)}"
    body = f"IF TG_OP = 'INSERT' THEN {_create_version_row('postgresql', 'NEW.id')}; ELSE {_bump(['NEW.id'])}; END IF;"
    statements = [
        _postgresql_function(name, body),
        f"CREATE TRIGGER {name} AFTER INSERT OR UPDATE ON {_table(Tournament)} FOR EACH ROW EXECUTE FUNCTION {name}()",
    ]
    for model, source in watched_sources().items():
        for event, transition in (("INSERT", ["NEW"]), ("UPDATE", ["OLD", "NEW"]), ("DELETE", ["OLD"])):
            name = f"{PREFIX}{_table(model)}_{event.lower()}"
            changed = " UNION ".join(
                f"SELECT {source.format(row='changed')} FROM {rows.lower()}_rows changed" for rows in transition
            )
            referencing = " ".join(f"{rows} TABLE AS {rows.lower()}_rows" for rows in transition)
            statements += [
                _postgresql_function(name, _bump([changed]) + ";"),
                f"CREATE TRIGGER {name} AFTER {event} ON {_table(model)} REFERENCING {referencing} "
                f"FOR EACH STATEMENT EXECUTE FUNCTION {name}()",
            ]
    return statements


def _postgresql_drop_statements(cursor):
    cursor.execute(
        "SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
        "WHERE n.nspname = current_schema() AND p.proname LIKE %s",
        [PREFIX + "%"],
    )
    return [f"DROP FUNCTION IF EXISTS {name}() CASCADE" for (name,) in cursor.fetchall()]


DIALECTS = {
    "sqlite": (_sqlite_statements, _sqlite_drop_statements),
    "postgresql": (_postgresql_statements, _postgresql_drop_statements),
}


def drop_triggers(connection=default_connection):
    _, drop_statements = DIALECTS[connection.vendor]
    with connection.cursor() as cursor:
        for statement in drop_statements(cursor):
            cursor.execute(statement)


def install_triggers(connection=default_connection):
    """Drop and create the triggers, and give every tournament without one its version row."""
    statements, _ = DIALECTS[connection.vendor]
    drop_triggers(connection)
    with connection.cursor() as cursor:
        for statement in statements():
            cursor.execute(statement)
        cursor.execute(
            f"INSERT INTO {_table(PublicVersion)} (tournament_id, version) "
            f"SELECT t.id, {RANDOM_START[connection.vendor]} FROM {_table(Tournament)} t WHERE NOT EXISTS "
            f"(SELECT 1 FROM {_table(PublicVersion)} v WHERE v.tournament_id = t.id)"
        )


def _tables_exist(connection):
    with connection.cursor() as cursor:
        existing = set(connection.introspection.table_names(cursor))
    needed = {_table(m) for m in (PublicVersion, Tournament, *watched_sources())}
    return needed <= existing


def _before_migrate(using, **kwargs):
    from django.db import connections

    drop_triggers(connections[using])


def _after_migrate(using, **kwargs):
    from django.db import connections

    connection = connections[using]
    if _tables_exist(connection):
        install_triggers(connection)


def connect_signals(sender):
    pre_migrate.connect(_before_migrate, sender=sender, dispatch_uid="public.versions.drop")
    post_migrate.connect(_after_migrate, sender=sender, dispatch_uid="public.versions.install")
