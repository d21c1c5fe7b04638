"""Conditional GET and a fragment cache for the public pages, both keyed by the data.

One indexed query reads the tournament row (visibility, frozen round, ceremony step,
settings) together with its public version, which database triggers raise whenever a row the
public pages show changes (`public.versions`). Their digest identifies what every public page
of the tournament shows.

The ETag is a digest of that, the page's full path, the language, whether htmx asked
(fragment or page) and who is signed in (a signed-in page also changes every minute, as
roles are not part of the version). A verification, correction, card or visibility change
alters the digest, so the next request sees a new ETag and a new cache key at once: nothing
stale is served, and an unchanged poll costs that one query and a 304.
"""

import functools
import hashlib
import time

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import Http404
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import quote_etag
from django.utils.translation import get_language

from public.models import PublicVersion
from tournament.models import Tournament

SIGNED_IN_STALE_AFTER_SECONDS = 60  # roles are not in the version: a signed-in page renews every minute
CACHE_SECONDS = 600
TOURNAMENT_FIELDS = [field.attname for field in Tournament._meta.concrete_fields]


def _state_sql():
    """The tournament row and its public version, by slug; plain SQL (compiling it with the ORM
    on every poll cost more than running it)."""
    columns = ", ".join(f"t.{connection.ops.quote_name(Tournament._meta.get_field(name).column)}" for name in TOURNAMENT_FIELDS)
    return (
        f"SELECT {columns}, v.version FROM {Tournament._meta.db_table} t "
        f"JOIN {PublicVersion._meta.db_table} v ON v.tournament_id = t.id WHERE t.slug = %s"
    )


STATE_SQL = _state_sql()


@functools.cache
def _converters(vendor):
    """[(column index, converters, column)] turning the raw row into field values, as the ORM would."""
    columns = [Tournament._meta.get_field(name).get_col(Tournament._meta.db_table) for name in TOURNAMENT_FIELDS]
    pairs = [(i, connection.ops.get_db_converters(col) + col.get_db_converters(connection), col) for i, col in enumerate(columns)]
    return [(i, converters, col) for i, converters, col in pairs if converters]


def public_state(slug):
    """(the Tournament, digest of what its public pages show); 404 for an unknown tournament."""
    with connection.cursor() as cursor:
        cursor.execute(STATE_SQL, [slug])
        row = cursor.fetchone()
    if row is None:
        raise Http404("no such tournament")
    values = list(row[:-1])
    for i, converters, column in _converters(connection.vendor):
        for convert in converters:
            values[i] = convert(values[i], column, connection)
    tournament = Tournament.from_db(connection.alias, TOURNAMENT_FIELDS, values)
    return tournament, hashlib.sha256(repr(row).encode()).hexdigest()[:32]


def public_etag(request, digest):
    signed_in = settings.SESSION_COOKIE_NAME in request.COOKIES and request.user.is_authenticated
    viewer = (request.user.pk, int(time.time() // SIGNED_IN_STALE_AFTER_SECONDS)) if signed_in else None
    variant = (digest, request.get_full_path(), get_language(), bool(request.htmx), viewer)
    return quote_etag(hashlib.sha256(repr(variant).encode()).hexdigest()[:32])


def revalidate(response):
    """Browsers may keep the page but must ask again (with If-None-Match) before using it."""
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("HX-Request",))
    return response


def public_page(view):
    """Decorator for public views taking a slug: the view gets the tournament, with `.digest`.

    A GET whose If-None-Match holds the current ETag gets 304 from that one query; a
    successful response carries the ETag. Every response asks browsers to revalidate.
    """

    @functools.wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        tournament, digest = public_state(slug)
        etag = public_etag(request, digest)
        if request.method in ("GET", "HEAD"):
            not_modified = get_conditional_response(request, etag=etag)
            if not_modified is not None:  # 304, or 412 for a failed If-Match
                if not_modified.status_code == 304:
                    not_modified["ETag"] = etag
                return revalidate(not_modified)
        tournament.digest = digest
        response = view(request, tournament, *args, **kwargs)
        if response.status_code == 200:
            response["ETag"] = etag
        return revalidate(response)

    return wrapper


def cached(tournament, name, compute):
    """`compute()` once per digest and language; the key changes whenever the data does.

    Only for values the same for every visitor (no CSRF token, no signed-in user).
    """
    key = f"public:{tournament.pk}:{tournament.digest}:{get_language()}:{name}"
    stored = cache.get(key)
    if stored is None:
        stored = (compute(),)  # a tuple, so that a computed None is cached too
        cache.set(key, stored, CACHE_SECONDS)
    return stored[0]
