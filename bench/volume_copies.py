"""`bench_volume.py`'s fast load: one organisation's tournaments, made through the interchange import
(the engine's rules and the models), copied to many more organisations by PostgreSQL itself.

`rows_written(work)` runs `work` and returns, for every table it wrote to, the range of ids it
wrote: the template. `copy_template(ranges, template_host, hosts, rename)` then writes the template's
rows once per new host, one `INSERT ... SELECT ... CROSS JOIN generate_series(1, N)` a table: every
id is moved to past the table's highest (copy k of row `id`: `id - lo + top + (k - 1) * span`), every
foreign key into a copied table moved the same way, every foreign key to the template host pointed
at the copy's host, the unique ids (`uid`) drawn again, and the columns `rename` names given a new
value (an SQL expression of `k`, the copy's number from 1, and `h`, its host's number). The copies
are rows of the same models with the same constraints (foreign keys, unique numbers, checks), which
PostgreSQL checks when the copy commits; the sequences are moved past the new ids after it.
"""

from django.apps import apps
from django.db import connection, models, transaction

from tournament.models import HostOrganisation

NOT_COPIED = {"tournament.HostOrganisation", "tournament.Season", "public.PublicVersion"}
FRESH = {models.UUIDField: "gen_random_uuid()"}


def _copyable():
    return [
        m
        for m in apps.get_models(include_auto_created=True)
        if m._meta.label not in NOT_COPIED
        and not m._meta.proxy
        and m._meta.managed
        and isinstance(m._meta.pk, models.AutoField)
    ]


def _top_ids():
    with connection.cursor() as cursor:
        tops = {}
        for model in _copyable():
            cursor.execute(f'SELECT COALESCE(MAX("{model._meta.pk.column}"), 0) FROM "{model._meta.db_table}"')
            tops[model] = cursor.fetchone()[0]
    return tops


def rows_written(work):
    """Run `work()`; {model: (lo, hi)}: the ids above lo up to hi are the rows it wrote."""
    before = _top_ids()
    work()
    after = _top_ids()
    return {m: (before[m], after[m]) for m in before if after[m] > before[m]}


def _moved(column, lo, hi, top):
    span = hi - lo
    return f'CASE WHEN "{column}" > {lo} AND "{column}" <= {hi} THEN "{column}" - {lo} + {top} + (k - 1) * {span} ELSE "{column}" END'


def _expression(field, ranges, tops, template_host, rename):
    """The SQL giving `field`'s value in copy k."""
    column = field.column
    if field is field.model._meta.pk:
        lo, hi = ranges[field.model]
        return f'"{column}" - {lo} + {tops[field.model]} + (k - 1) * {hi - lo}'
    if (field.model._meta.label, field.name) in rename:
        return rename[field.model._meta.label, field.name]
    if field.is_relation and field.related_model is HostOrganisation:
        return f'CASE WHEN "{column}" = {template_host} THEN (hosts.ids)[k] ELSE "{column}" END'
    if field.is_relation and field.related_model in ranges:
        lo, hi = ranges[field.related_model]
        return _moved(column, lo, hi, tops[field.related_model])
    if field.unique and type(field) in FRESH:
        return FRESH[type(field)]
    if field.unique and not field.is_relation:
        raise ValueError(f"{field.model._meta.label}.{field.name} is unique: say how its copies are named")
    return f'"{column}"'


def copy_template(ranges, template_host, hosts, first_number, rename, *, batch=20):
    """Copy the template's rows once for each host of `hosts` (copy k's host number: first_number
    + k - 1), `batch` hosts a transaction (the foreign keys are checked as each commits). A bulk
    load, as a migration is: its statements are not bound by the requests' statement timeout."""
    with connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = 0")
    try:
        for start in range(0, len(hosts), batch):
            _copy(ranges, template_host, hosts[start : start + batch], first_number + start, rename)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET statement_timeout")


def _copy(ranges, template_host, hosts, first_number, rename):
    tops = _top_ids()
    ids = ",".join(str(h.pk) for h in hosts)
    with transaction.atomic(), connection.cursor() as cursor:
        for model, (lo, hi) in ranges.items():
            fields = list(model._meta.concrete_fields)
            columns = ", ".join(f'"{f.column}"' for f in fields)
            values = ", ".join(_expression(f, ranges, tops, template_host, rename) for f in fields)
            cursor.execute(
                f'INSERT INTO "{model._meta.db_table}" ({columns}) '
                f'SELECT {values} FROM "{model._meta.db_table}" '
                f"CROSS JOIN generate_series(1, {len(hosts)}) AS k "
                f"CROSS JOIN (SELECT ARRAY[{ids}]::bigint[] AS ids) AS hosts "
                f"CROSS JOIN LATERAL (SELECT {first_number} + k - 1 AS h) AS numbers "
                f'WHERE "{model._meta.pk.column}" > {lo} AND "{model._meta.pk.column}" <= {hi}'
            )
        for model in ranges:
            table, pk = model._meta.db_table, model._meta.pk.column
            cursor.execute(
                f'SELECT setval(pg_get_serial_sequence(\'"{table}"\', \'{pk}\'), (SELECT MAX("{pk}") FROM "{table}"))'
            )
