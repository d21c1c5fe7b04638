"""Conditional GET and a small fragment cache for the public pages, both keyed by the data.

The tournament is loaded together with a fingerprint of everything the public pages show,
read in the same single query from small, indexed aggregates:

- the tournament row itself (visibility, frozen round, ceremony step, settings, created_at),
- rounds (count, newest id, Σ number × state), seats of rounds not completed (count,
  Σ player × position: a swap changes it),
- score sheets (verified count, Σ version, newest updated_at: every save raises the version),
- cards and tie decisions (count, newest id), players (count, Σ id × status),
- the newest audit entry (every result change is audited),
- the current minute, so that anything the marks miss (a corrected name) shows within a minute.

The ETag is a digest of that fingerprint, the page's full path, the language, whether htmx
asked (fragment or page) and who is signed in. A verification, correction, card or
visibility change alters the fingerprint, so the next request sees a new ETag and a new cache
key at once: nothing stale is served, and unchanged polls cost one query and a 304.
"""

import hashlib
import time
from functools import wraps

from django.core.cache import cache
from django.db.models import Case, Count, F, IntegerField, Max, OuterRef, Subquery, Sum, Value, When
from django.shortcuts import get_object_or_404
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import quote_etag
from django.utils.translation import get_language

from scoring.models import AuditEntry, Card, ScoreSheet, TieDecision
from tournament.models import SEAT_LETTERS, Player, Round, Seat, Tournament

STALE_AFTER_SECONDS = 60  # bound for changes the marks do not see (see the module docstring)
CACHE_SECONDS = 600


def _rank(field, values):
    """1, 2, 3 … for the values of a text field, as an SQL expression."""
    return Case(
        *(When(**{field: value}, then=Value(i)) for i, value in enumerate(values, start=1)),
        default=Value(0), output_field=IntegerField(),
    )


def _per_tournament(queryset, path, expression):
    """A correlated subquery: `expression` aggregated over the rows of one tournament."""
    return Subquery(
        queryset.filter(**{path: OuterRef("pk")}).order_by().values(path).annotate(mark=expression).values("mark")[:1]
    )


def _marks():
    rounds = Round.objects.all()
    open_seats = Seat.objects.exclude(round__state=Round.State.COMPLETED)
    sheets = ScoreSheet.objects.all()
    position = F("table_id") * len(SEAT_LETTERS) + _rank("letter", SEAT_LETTERS)
    return {
        "fp_rounds": _per_tournament(rounds, "tournament", Count("pk")),
        "fp_round_last": _per_tournament(rounds, "tournament", Max("pk")),
        "fp_round_states": _per_tournament(
            rounds, "tournament", Sum(F("number") * _rank("state", Round.State.values))
        ),
        "fp_seats": _per_tournament(open_seats, "round__tournament", Count("pk")),
        "fp_seat_places": _per_tournament(open_seats, "round__tournament", Sum(F("player_id") * position)),
        "fp_verified": _per_tournament(
            sheets.filter(state=ScoreSheet.State.VERIFIED), "table__round__tournament", Count("pk")
        ),
        "fp_versions": _per_tournament(sheets, "table__round__tournament", Sum("version")),
        "fp_sheet_saved": _per_tournament(sheets, "table__round__tournament", Max("updated_at")),
        "fp_cards": _per_tournament(Card.objects.all(), "tournament", Count("pk")),
        "fp_card_last": _per_tournament(Card.objects.all(), "tournament", Max("pk")),
        "fp_ties": _per_tournament(TieDecision.objects.all(), "tournament", Count("pk")),
        "fp_tie_last": _per_tournament(TieDecision.objects.all(), "tournament", Max("pk")),
        "fp_players": _per_tournament(Player.objects.all(), "tournament", Count("pk")),
        "fp_player_states": _per_tournament(
            Player.objects.all(), "tournament", Sum(F("pk") * _rank("status", Player.Status.values))
        ),
        "fp_audit_last": _per_tournament(AuditEntry.objects.all(), "tournament", Max("pk")),
    }


def tournament_with_fingerprint(slug):
    """The tournament (404 when unknown) with `.digest`: a hash of what its public pages show."""
    marks = _marks()
    tournament = get_object_or_404(Tournament.objects.annotate(**marks), slug=slug)
    own = [getattr(tournament, f.attname) for f in Tournament._meta.concrete_fields]
    values = [getattr(tournament, name) for name in marks]
    minute = int(time.time() // STALE_AFTER_SECONDS)
    tournament.digest = hashlib.sha256(repr((own, values, minute)).encode()).hexdigest()[:32]
    return tournament


def public_etag(request, tournament):
    viewer = request.user.pk if request.user.is_authenticated else 0
    variant = (tournament.digest, request.get_full_path(), get_language(), bool(request.htmx), viewer)
    return quote_etag(hashlib.sha256(repr(variant).encode()).hexdigest()[:32])


def revalidate(response):
    """Browsers may keep the page but must ask again (with If-None-Match) before using it."""
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ("HX-Request",))
    return response


def public_page(view):
    """Decorator for public views taking a slug: the view gets the fingerprinted tournament.

    A GET whose If-None-Match holds the current ETag gets 304 without running the view; a
    successful response carries the ETag. Every response asks browsers to revalidate.
    """

    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        tournament = tournament_with_fingerprint(slug)
        etag = public_etag(request, tournament)
        if request.method in ("GET", "HEAD"):
            not_modified = get_conditional_response(request, etag=etag)
            if not_modified is not None:  # 304, or 412 for a failed If-Match
                if not_modified.status_code == 304:
                    not_modified["ETag"] = etag
                return revalidate(not_modified)
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
