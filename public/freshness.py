"""Conditional GET and a small fragment cache for the public pages, both keyed by the data.

One query reads the tournament row and a fingerprint of everything the public pages show,
from small, indexed aggregates:

- the tournament row itself (visibility, frozen round, ceremony step, settings, created_at),
- rounds (count, newest id, Σ number × state), seats of rounds not completed (count,
  Σ player × position: a swap changes it),
- score sheets (count, Σ version, verified count: every save of a sheet raises its version),
- cards and tie decisions (count, newest id), players (count, Σ id × status),
- the newest audit entry (every result change is audited),
- the current minute, so that anything the marks miss (a corrected name) shows within a minute.

The ETag is a digest of that fingerprint, the page's full path, the language, whether htmx
asked (fragment or page) and who is signed in. A verification, correction, card or
visibility change alters the fingerprint, so the next request sees a new ETag and a new cache
key at once: nothing stale is served, and an unchanged poll costs that one query and a 304.
"""

import hashlib
import time
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import Http404
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import quote_etag
from django.utils.translation import get_language

from scoring.models import AuditEntry, Card, ScoreSheet, TieDecision
from tournament.models import SEAT_LETTERS, Player, Round, Seat, Table, Tournament

STALE_AFTER_SECONDS = 60  # bound for changes the marks do not see (see the module docstring)
CACHE_SECONDS = 600


def _rank(column, values):
    """SQL giving 1, 2, 3 … for the values of a text column (the values are model constants)."""
    cases = " ".join(f"WHEN '{value}' THEN {i}" for i, value in enumerate(values, start=1))
    return f"CASE {column} {cases} ELSE 0 END"


def _fingerprint_sql():
    """The tournament row and one text mark per kind of data, in plain SQL that SQLite and
    PostgreSQL both run (compiling it with the ORM on every poll cost more than running it).
    A mark is NULL when there are no rows of its kind."""
    table = {model.__name__: model._meta.db_table for model in (
        Tournament, Round, Table, Seat, ScoreSheet, Card, TieDecision, Player, AuditEntry,
    )}
    position = f"(s.table_id * {len(SEAT_LETTERS)} + {_rank('s.letter', SEAT_LETTERS)})"
    verified = f"CASE WHEN h.state = '{ScoreSheet.State.VERIFIED}' THEN 1 ELSE 0 END"
    marks = [
        f"SELECT COUNT(*) || ':' || MAX(r.id) || ':' || SUM(r.number * {_rank('r.state', Round.State.values)}) "
        f"FROM {table['Round']} r WHERE r.tournament_id = t.id",
        f"SELECT COUNT(*) || ':' || SUM(s.player_id * {position}) "
        f"FROM {table['Seat']} s JOIN {table['Round']} r ON r.id = s.round_id "
        f"WHERE r.tournament_id = t.id AND r.state <> '{Round.State.COMPLETED}'",
        f"SELECT COUNT(*) || ':' || SUM(h.version) || ':' || SUM({verified}) "
        f"FROM {table['ScoreSheet']} h JOIN {table['Table']} b ON b.id = h.table_id "
        f"JOIN {table['Round']} r ON r.id = b.round_id WHERE r.tournament_id = t.id",
        f"SELECT COUNT(*) || ':' || MAX(c.id) FROM {table['Card']} c WHERE c.tournament_id = t.id",
        f"SELECT COUNT(*) || ':' || MAX(d.id) FROM {table['TieDecision']} d WHERE d.tournament_id = t.id",
        f"SELECT COUNT(*) || ':' || SUM(p.id * {_rank('p.status', Player.Status.values)}) "
        f"FROM {table['Player']} p WHERE p.tournament_id = t.id",
        f"SELECT MAX(a.id) FROM {table['AuditEntry']} a WHERE a.tournament_id = t.id",
    ]
    columns = ", ".join(f"({sql})" for sql in marks)
    return f"SELECT t.id, t.*, {columns} FROM {table['Tournament']} t WHERE t.slug = %s"


FINGERPRINT_SQL = _fingerprint_sql()
TOURNAMENT_SQL = f"SELECT * FROM {Tournament._meta.db_table} WHERE id = %s"  # raw: no ORM compiling per poll


def fingerprint(slug):
    """(tournament id, digest of what its public pages show); 404 for an unknown tournament."""
    with connection.cursor() as cursor:
        cursor.execute(FINGERPRINT_SQL, [slug])
        row = cursor.fetchone()
    if row is None:
        raise Http404("no such tournament")
    minute = int(time.time() // STALE_AFTER_SECONDS)
    return row[0], hashlib.sha256(repr((row, minute)).encode()).hexdigest()[:32]


def public_etag(request, digest):
    signed_in = settings.SESSION_COOKIE_NAME in request.COOKIES and request.user.is_authenticated
    variant = (digest, request.get_full_path(), get_language(), bool(request.htmx), request.user.pk if signed_in else 0)
    return quote_etag(hashlib.sha256(repr(variant).encode()).hexdigest()[:32])


def revalidate(response):
    """Browsers may keep the page but must ask again (with If-None-Match) before using it."""
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("HX-Request",))
    return response


def public_page(view):
    """Decorator for public views taking a slug: the view gets the tournament, with `.digest`.

    A GET whose If-None-Match holds the current ETag gets 304 from the fingerprint query
    alone; a successful response carries the ETag. Every response asks browsers to revalidate.
    """

    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        tournament_id, digest = fingerprint(slug)
        etag = public_etag(request, digest)
        if request.method in ("GET", "HEAD"):
            not_modified = get_conditional_response(request, etag=etag)
            if not_modified is not None:  # 304, or 412 for a failed If-Match
                if not_modified.status_code == 304:
                    not_modified["ETag"] = etag
                return revalidate(not_modified)
        # Read after the fingerprint: what the view shows is never older than its ETag.
        tournament = next(iter(Tournament.objects.raw(TOURNAMENT_SQL, [tournament_id])), None)
        if tournament is None:
            raise Http404("no such tournament")
        tournament.digest = digest
        response = view(request, tournament, *args, **kwargs)
        if response.status_code == 200:
            response["ETag"] = etag
        return revalidate(response)

    return wrapper


def cached(tournament, name, compute):
    """`compute()` once per fingerprint and language; the key changes whenever the data does.

    Only for values the same for every visitor (no CSRF token, no signed-in user).
    """
    key = f"public:{tournament.pk}:{tournament.digest}:{get_language()}:{name}"
    stored = cache.get(key)
    if stored is None:
        stored = (compute(),)  # a tuple, so that a computed None is cached too
        cache.set(key, stored, CACHE_SECONDS)
    return stored[0]
