"""Conditional GET and caches for the public pages, all keyed by the tournament's public version.

Database triggers raise the public version whenever anything a public page shows changes
(`public.versions`). One indexed query reads it; the ETag is a digest of it, the page's full
path, the language, whether htmx asked (fragment or page) and who is signed in (a signed-in
page also renews every minute, as roles are not part of the version). A verification,
correction, card or visibility change raises the version, so the next request sees a new ETag
and new cache keys at once: nothing stale is served, and an unchanged poll costs that one
query and a 304.

A season's pages (`season_page`) are keyed the same way by a digest of its settings and of the
public versions of its tournaments: when any of them changes, so does the season's.

Whatever is the same for every visitor is computed once per version and language (`cached`):
the standings, the leaderboard fragment, and whole pages for visitors who are not signed in,
which post nothing and so carry no CSRF token (`shared_page`). They are kept in the cache the app
servers share (`tournament.shared_cache`: Redis on a service), under keys made of what decides
them and nothing one machine has and another not: the tournament's id and public version, the
language, the path and the release's fingerprint (`tournament.release`: a digest of the contents
of the templates, static files, translations and code), which is in the ETag too. So a page one
server renders is served by every other server of the release, and a new release renders anew.
A page is cheap to render, so servers asking at once each render it (no lock, unlike the PDFs).

A visitor who is not signed in is answered before most of the middleware runs
(`PublicAnswerMiddleware`): sessions, users, messages and the view are not needed to say
"unchanged" or to repeat the answer already given in this version, so such a request costs
about what a bare view does.
"""

import functools
import hashlib
import secrets
import time

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.db import connection, transaction
from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import quote_etag
from django.utils.translation import get_language

from public.models import PublicVersion
from tournament import release, shared_cache
from tournament.models import Person, Season, Tournament
from tournament.selectors import season_or_404

SIGNED_IN_STALE_AFTER_SECONDS = 60  # roles are not in the version: a signed-in page renews every minute
CACHE_SECONDS = 600

# Plain SQL: compiling these with the ORM on every request cost more than running them.
_FROM = (
    f"FROM {Tournament._meta.db_table} t JOIN {PublicVersion._meta.db_table} v ON v.tournament_id = t.id "
    f"WHERE t.slug = %s"
)
VERSION_SQL = f"SELECT t.id, v.version {_FROM}"
TOURNAMENT_SQL = f"SELECT t.*, v.version AS version_now {_FROM}"


def public_state(slug, *, with_tournament):
    """(tournament id, public version, the tournament or None); 404 for an unknown tournament.

    One indexed query; the tournament is read only when asked for (a poll that will probably
    get a 304 does not need it).
    """
    if with_tournament:
        tournament = next(iter(Tournament.objects.raw(TOURNAMENT_SQL, [slug])), None)
        if tournament is None:
            raise Http404("no such tournament")
        return tournament.pk, tournament.version_now, tournament
    with connection.cursor() as cursor:
        cursor.execute(VERSION_SQL, [slug])
        row = cursor.fetchone()
    if row is None:
        raise Http404("no such tournament")
    return row[0], row[1], None


def signed_in(request):
    return settings.SESSION_COOKIE_NAME in request.COOKIES and request.user.is_authenticated


def shared_visitor(request):
    """A visitor with no session and no message waiting: sees what every such visitor sees."""
    return settings.SESSION_COOKIE_NAME not in request.COOKIES and CookieStorage.cookie_name not in request.COOKIES


def public_etag(request, digest, *, viewer=None):
    htmx = request.META.get("HTTP_HX_REQUEST") == "true"  # as request.htmx says, without building request.headers
    variant = (release.fingerprint(), digest, request.get_full_path(), get_language(), htmx, viewer)
    return quote_etag(hashlib.sha256(repr(variant).encode()).hexdigest()[:32])


def viewer_of(request):
    """Who the page is for, as far as the ETag goes: None for every visitor not signed in."""
    return (request.user.pk, int(time.time() // SIGNED_IN_STALE_AFTER_SECONDS)) if signed_in(request) else None


def revalidate(response):
    """Browsers may keep the page but must ask again (with If-None-Match) before using it."""
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("HX-Request",))
    return response


def conditional_answer(request, etag):
    """304 (with the ETag) for an unchanged GET or HEAD, 412 for a failed If-Match, else None."""
    if request.method not in ("GET", "HEAD"):
        return None
    answer = get_conditional_response(request, etag=etag)
    if answer is None:
        return None
    if answer.status_code == 304:
        answer["ETag"] = etag
    return revalidate(answer)


class PublicAnswerMiddleware:
    """Answers a public page for a visitor who is not signed in before sessions, users and messages.

    Such a visitor (no session cookie, no message waiting) sees what every other such visitor
    sees, so the ETag is the one the view would make (no viewer; the language is already
    chosen, as this runs inside LocaleMiddleware) and the answer depends on nothing else:
    an unchanged poll gets its 304 here, and a GET of a page already answered in this
    version is served the stored answer of the stack below (status 200, no cookie set).
    The first request of each version, and every other request, goes down the stack.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in ("GET", "HEAD") or not shared_visitor(request):
            return self.get_response(request)
        slug = public_page_slug(settings.ROOT_URLCONF, request.path_info)
        if slug is None:
            return self.get_response(request)
        try:
            tournament_id, version, _tournament = public_state(slug, with_tournament=False)
        except Http404:
            return self.get_response(request)
        etag = public_etag(request, f"{tournament_id}.{version}")
        answer = conditional_answer(request, etag)
        if answer is not None and answer.status_code == 304:
            return answer
        key = f"public:answer:{etag}"
        stored = shared_cache.get(key)
        if stored is not None:
            content, headers = stored
            return HttpResponse(content, headers=headers)
        response = self.get_response(request)
        if (
            request.method == "GET"
            and response.status_code == 200
            and response.get("ETag") == etag
            and not response.streaming
            and not response.cookies
        ):
            shared_cache.set(key, (response.content, dict(response.items())), CACHE_SECONDS)
        return response


@functools.lru_cache(maxsize=1024)
def public_page_slug(urlconf, path):
    """The slug if `path` is a `public_page` view, else None (resolved once per path)."""
    try:
        match = resolve(path, urlconf)
    except Resolver404:
        return None
    return match.kwargs.get("slug") if getattr(match.func, "public_page", False) else None


def public_page(view):
    """Decorator for public views taking a slug: the view gets the tournament, with `.digest`.

    A GET whose If-None-Match holds the current ETag gets 304 from one query;
    a successful response carries the ETag. Every response asks browsers to revalidate.
    """

    @functools.wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        polling = "HTTP_IF_NONE_MATCH" in request.META
        tournament_id, version, tournament = public_state(slug, with_tournament=not polling)
        digest = f"{tournament_id}.{version}"
        etag = public_etag(request, digest, viewer=viewer_of(request))
        answer = conditional_answer(request, etag)
        if answer is not None:
            return answer
        if tournament is None:  # a poll that missed: read the tournament (after its version, so never older)
            tournament = public_state(slug, with_tournament=True)[2]
        request.public_digest = digest
        tournament.digest = digest
        response = view(request, tournament, *args, **kwargs)
        if response.status_code == 200:
            response["ETag"] = etag
        return revalidate(response)

    wrapper.public_page = True  # PublicAnswerMiddleware may answer it for visitors not signed in
    return wrapper


def cached(tournament, name, compute):
    """`compute()` once per public version and language; the key changes whenever the data does.

    Only for values the same for every visitor (no CSRF token, no signed-in user).
    """
    return _cached(tournament.digest, name, compute)


def _cached(digest, name, compute):
    return shared_cache.once(f"public:{release.fingerprint()}:{digest}:{get_language()}:{name}", compute, CACHE_SECONDS)


LIST_SECONDS = 120  # at most this long, a list changed without a save (a restore's swap) shows the old one
LIST_GENERATION_KEY = "public-list-generation"


def list_generation():
    """The lists' generation: a random token in the shared cache, made anew whenever a tournament
    or a host organisation is saved or deleted (`lists_changed`), so that every app server's next
    list is a new one. Without it (a cache restarted or unreachable) a new one is made."""
    generation = shared_cache.get(LIST_GENERATION_KEY)
    if generation is None:
        generation = lists_changed()
    return generation


def lists_changed(**kwargs):
    """A tournament or a host organisation was saved or deleted: the lists show it from now on
    (at once, and again once the change commits, so that a list rendered meanwhile is not kept)."""
    generation = secrets.token_hex(8)
    shared_cache.set(LIST_GENERATION_KEY, generation, None)
    if kwargs.get("sender") is not None:
        transaction.on_commit(lambda: shared_cache.set(LIST_GENERATION_KEY, secrets.token_hex(8), None))
    return generation


def listing_page(request, make):
    """A list of the service's organisations or tournaments (the home page, an organisation's
    page). `make()` gives (template, context, keep): for a visitor who is not signed in, a page
    to `keep` is rendered once per list generation, path, language and day (upcoming tournaments
    come first) for every app server. The way in of an empty service (the first organiser's
    setup) is never kept."""
    if not shared_visitor(request):
        template, context, _keep = make()
        return HttpResponse(render_to_string(template, context, request))
    page_key = hashlib.sha256(request.get_full_path().encode()).hexdigest()
    key = f"public-list:{release.fingerprint()}:{list_generation()}:{timezone.localdate()}:{get_language()}:{page_key}"
    page = shared_cache.get(key)
    if page is None:
        template, context, keep = make()
        page = render_to_string(template, {**context, "csrf_token": ""}, request).encode()
        if keep:
            shared_cache.set(key, page, LIST_SECONDS)
    return HttpResponse(page)


def shared_page(request, template, context):
    """Render `template` with the dict `context()` returns.

    For a visitor who is not signed in and has no message waiting, the page is the same for
    everyone: it is rendered once per public version, language and path. Such pages carry no
    CSRF token (the public pages post nothing: their language switch is a GET link), so no
    token is made for each new visitor either.
    """
    if not shared_visitor(request):
        return HttpResponse(render_to_string(template, context(), request))
    page_key = hashlib.sha256(f"{template} {request.get_full_path()}".encode()).hexdigest()
    page = _cached(
        request.public_digest,
        f"page:{page_key}",
        lambda: render_to_string(template, {**context(), "csrf_token": ""}, request).encode(),
    )
    return HttpResponse(page)


SEASON_VERSIONS_SQL = (
    f"SELECT v.tournament_id, v.version, (SELECT MAX(p.updated_at) FROM {Person._meta.db_table} p "
    f"WHERE p.host_id = %s) FROM {PublicVersion._meta.db_table} v "
    f"JOIN {Season.tournaments.through._meta.db_table} s ON s.tournament_id = v.tournament_id "
    f"WHERE s.season_id = %s ORDER BY v.tournament_id"
)


def season_digest(season):
    """A digest of the season's settings, of its tournaments' public versions and of the last change
    to its organisation's people (a name corrected), in one query."""
    with connection.cursor() as cursor:
        cursor.execute(SEASON_VERSIONS_SQL, [season.host_id, season.pk])
        versions = cursor.fetchall()
    state = (season.name, season.slug, tuple(season.place_points), season.best_count, tuple(map(tuple, versions)))
    return f"season-{season.pk}.{hashlib.sha256(repr(state).encode()).hexdigest()[:24]}"


def season_page(view):
    """Decorator for a season's public views taking its address (`season`): the view gets the
    season, with `.digest`; an unchanged GET gets 304, as `public_page` does for a tournament."""

    @functools.wraps(view)
    def wrapper(request, season, *args, **kwargs):
        season = season_or_404(season)
        digest = season_digest(season)
        etag = public_etag(request, digest, viewer=viewer_of(request))
        answer = conditional_answer(request, etag)
        if answer is not None:
            return answer
        request.public_digest = season.digest = digest
        response = view(request, season, *args, **kwargs)
        if response.status_code == 200:
            response["ETag"] = etag
        return revalidate(response)

    return wrapper
