"""Public pages for players and the projector. Everything here obeys `scoring.selectors.visibility`.

Views parse the request, ask `scoring.selectors.results` / `scoring.selectors.visibility` for what the public may
see, and render. `public_page` answers unchanged polls with 304 (see `public.freshness`).
"""

import functools

from django.conf import settings
from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from accounts.first_run import needs_setup
from accounts.help import BY_SLUG, HELP_PAGES
from accounts.models import Role
from accounts.roles import has_role, role_for, staff_required
from organiser.entry_selectors import open_for_entries
from organiser.services.entries import entries_open
from public.freshness import cached, listing_page, public_page, revalidate, shared_page, shared_visitor
from public.projector import projector_layout
from public.selectors import find_players, public_rounds_in_order, round_being_seated, seating_by_surname
from scoring.selectors.results import player_rounds, public_round, public_rounds, round_tables
from scoring.selectors.sheets import sheets_in_play_count, unfinished_results
from scoring.selectors.standings import compute_standings, placing_reason, standings_json
from scoring.selectors.visibility import (
    CEREMONY_PLACES,
    Scope,
    ceremony_podium,
    counts_any_game,
    final_order_public,
    public_scope,
    public_standings,
    standings_progress,
)
from scoring.services.visibility import advance_ceremony, reset_ceremony, set_visibility
from tournament.listing import search_of
from tournament.models import Tournament
from tournament.navigation import return_path
from tournament.selectors import (
    all_seasons,
    final_round,
    host_or_404,
    hosts_with_tournaments_page,
    last_completed_round,
    player_or_404,
    playing_clock,
    public_tournament_page,
    several_hosts_with_tournaments,
    tournament_or_404,
)

SEATING_ONLY = Scope(visible=False, up_to_round=None)
SEASONS_SHOWN = 20  # the newest seasons the tournaments' list names


def visible_standings(tournament):
    """The public standings rows (None when hidden), computed once per public version."""
    return cached(tournament, "standings", lambda: public_standings(tournament))


def results_context(tournament):
    scope = public_scope(tournament)
    return {"tournament": tournament, "scope": scope, "frozen_round": scope.up_to_round}


def standings_context(tournament, rounds=None):
    """What a page showing places adds: how far the standings are (`progress`: "after round N of M")
    and whether the places are final (`medals`: medal marks only then, issue 48.1: the leader after
    the qualifying rounds is not the medallist). `rounds`: the public rounds in order, when read."""
    found = results_context(tournament)
    rounds = public_rounds_in_order(tournament) if rounds is None else rounds
    progress = standings_progress(tournament, rounds, found["frozen_round"])
    return {**found, "progress": progress, "medals": progress.finished}


def in_the_halls_language(view):
    """The hall's screens (projector, ceremony) speak the tournament's language for public screens,
    whatever the browser showing them is set to (a projector's laptop often has an English one).
    The ETag keeps the browser's language: for a given public version the page is the same."""

    @functools.wraps(view)
    def wrapper(request, tournament, *args, **kwargs):
        with translation.override(tournament.public_language):
            response = view(request, tournament, *args, **kwargs)
        response["Content-Language"] = tournament.public_language
        return response

    return wrapper


@require_safe
def switch_language(request):
    """The public pages' language switch: a plain link (GET), so that those pages post nothing
    and need no CSRF token. Sets the language cookie as Django's `set_language` does."""
    response = redirect(return_path(request, request.GET.get("next"), "/"))
    language = request.GET.get("language", "")
    if language in dict(settings.LANGUAGES):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response


def move_timer(request, slug):
    """A full-screen countdown of the tournament's move time; everything inline, works offline.
    Its one link leads back: to the tables for staff, to the tournament's page for anyone else."""
    tournament = tournament_or_404(slug)
    staff = role_for(request.user, tournament) is not None
    back = reverse("scoring:home", args=[slug]) if staff else reverse("public:tournament", args=[slug])
    return render(
        request, "public/timer.html", {"tournament": tournament, "seconds": tournament.move_seconds, "back": back}
    )


@require_safe
@never_cache
def round_clock(request, slug):
    """The clock of the round being played, by the server's time: the block the projector and the
    referees' pages refresh (`?hall=1`: in the hall's language, as on the projector). Never cached."""
    tournament = tournament_or_404(slug)
    language = tournament.public_language if request.GET.get("hall") else translation.get_language()
    with translation.override(language):
        context = {
            "tournament": tournament,
            "clock": playing_clock(tournament),
            "hall": bool(request.GET.get("hall")),
            "refreshed": True,
        }
        return render(request, "public/_round_clock.html", context)


@require_safe
def home(request):
    """The tournaments, a page at a time with a search; with none yet, the way in: the first
    organiser's setup or the sign-in. With several host organisations, theirs instead (a page at
    a time, searched), each leading to its own page."""
    search, number = search_of(request.GET.get("q")), request.GET.get("page")

    def make():
        if several_hosts_with_tournaments():
            page = hosts_with_tournaments_page(search=search, number=number)
            return "public/organisations.html", {"page": page, "hosts": page.object_list, "search": search}, True
        page = public_tournament_page(search=search, number=number)
        empty = not page.object_list and not search
        context = {
            "page": page,
            "tournaments": page.object_list,
            "search": search,
            "seasons": all_seasons(limit=SEASONS_SHOWN),
            "needs_setup": empty and needs_setup(),
        }
        return "public/home.html", context, not empty

    return listing_page(request, make)


@require_safe
def organisation_page(request, host):
    """One host organisation's tournaments, a page at a time with a search."""
    host = host_or_404(host)
    search, number = search_of(request.GET.get("q")), request.GET.get("page")

    def make():
        page = public_tournament_page(host, search=search, number=number)
        context = {
            "page": page,
            "tournaments": page.object_list,
            "search": search,
            "seasons": all_seasons(host, limit=SEASONS_SHOWN),
            "host": host,
            "entries_open": open_for_entries(list(page.object_list), timezone.now()),
        }
        return "public/home.html", context, True

    return listing_page(request, make)


@require_safe
@public_page
def tournament_page(request, tournament):
    """The current round's seating and "find my table" (`?q=`; htmx gets the answer only)."""

    def context():
        rounds = public_rounds(tournament)
        current = rounds[-1] if rounds else None
        query = request.GET.get("q", "")
        matches, more = find_players(tournament, query=query, round_=current)
        found = {
            **results_context(tournament),
            "entries_open": entries_open(tournament),
            "nav": "tables",
            "rounds": rounds,
            "current": current,
            "query": query[:100],
            "matches": matches,
            "more": more,
        }
        if not request.htmx:
            found["tables"] = round_tables(tournament, current, SEATING_ONLY) if current else []
        return found

    template = "public/tournament.html#find-results" if request.htmx else "public/tournament.html"
    return shared_page(request, template, context)


@require_safe
@public_page
def standings_page(request, tournament):
    """The leaderboard (SPEC §4); htmx polls get the table only."""

    def context():
        rows = visible_standings(tournament)
        return {**standings_context(tournament), "nav": "standings", "rows": rows, "has_results": counts_any_game(rows)}

    template = "public/standings.html#leaderboard" if request.htmx else "public/standings.html"
    return shared_page(request, template, context)


@require_safe
@public_page
def standings_json_view(request, tournament):
    """SPEC §9: the public standings rows; 403 with a reason while results are hidden."""
    rows = visible_standings(tournament)
    if rows is None:
        return JsonResponse({"detail": _("The results are hidden until the end of the tournament.")}, status=403)
    return JsonResponse(standings_json(rows), safe=False, json_dumps_params={"ensure_ascii": False})


@require_safe
@public_page
def player_page(request, tournament, ext_id):
    def context():  # an unknown player raises 404 here: nothing is cached then
        player = player_or_404(tournament, ext_id=ext_id)
        rows = visible_standings(tournament)
        own_row = next((row for row in rows or () if row.player.pk == player.pk), None)
        return {
            **standings_context(tournament),
            "player": player,
            "history": player_rounds(tournament, player),
            "standing": own_row if counts_any_game(rows) else None,
            "placing_reason": placing_reason(tournament, own_row),
            "status": own_row.status if own_row else player.status,  # frozen: as of the frozen round
        }

    return shared_page(request, "public/player.html", context)


@require_safe
@public_page
def round_page(request, tournament, number):
    def context():
        round_ = public_round(tournament, number)
        if round_ is None:  # nothing is cached then
            raise Http404("no such public round")
        scope = public_scope(tournament)
        return {
            **results_context(tournament),
            "round": round_,
            "rounds": public_rounds(tournament),
            "tables": round_tables(tournament, round_, scope),
            "results_shown": scope.shows_round(round_.number),
        }

    return shared_page(request, "public/round.html", context)


def page_number(value):
    try:
        return max(int(value), 1)
    except (TypeError, ValueError):
        return 1


@require_safe
@public_page
@in_the_halls_language
def projector_page(request, tournament):
    """Full-screen board for the hall: a published round's seating by surname until the round
    starts, else the leaderboard. The board fetches the next page (`?page=k`) when its time is
    up, so that every row is back on screen within 30 s (`public.projector`)."""

    def context():
        rounds = public_rounds_in_order(tournament)
        found = standings_context(tournament, rounds)
        seated = round_being_seated(rounds)
        rows = seating_by_surname(seated) if seated else visible_standings(tournament) or []
        layout = projector_layout(len(rows))
        page = (page_number(request.GET.get("page")) - 1) % layout.pages + 1  # past the last page: wrap around
        return {
            **found,
            "seated_round": seated,
            "has_results": not seated and counts_any_game(rows),
            "page": page,
            "layout": layout,
            "rows": rows,
            "columns": layout.page_columns(rows, page),
            "next_url": f"{reverse('public:projector', args=[tournament.slug])}?page={page % layout.pages + 1}",
        }

    template = "public/projector.html#board" if request.htmx else "public/projector.html"
    return shared_page(request, template, context)


CEREMONY_QUESTIONS = ("next", "reset")


def ceremony_question(request):
    """The ceremony step to ask about on the page (`?confirm=next` or `reset`), else None: a step
    is confirmed on the page itself, never in a browser dialog, before the form that does it is shown."""
    asked = request.GET.get("confirm")
    return asked if asked in CEREMONY_QUESTIONS else None


def ceremony_context(request, tournament):
    revealed = ceremony_podium(tournament)
    next_place = CEREMONY_PLACES[len(revealed)] if len(revealed) < len(CEREMONY_PLACES) else None
    can_control = has_role(request.user, tournament, Role.HEAD_REFEREE)
    return {
        "tournament": tournament,
        "podium": revealed,
        "next_place": next_place,
        "hidden_places": CEREMONY_PLACES[len(revealed) :],
        "can_control": can_control,
        "confirm": ceremony_question(request) if can_control else None,
        # Only for the head referee, before a place is revealed: what is not final yet.
        "not_final": unfinished_results(tournament, compute_standings(tournament, verified_only=True))
        if can_control and next_place
        else [],
        # Only for the head referee, before 1st place is revealed: the hall may know the order already.
        "order_public": can_control and next_place is not None and final_order_public(tournament),
    }


@require_safe
@public_page
@in_the_halls_language
def ceremony_page(request, tournament):
    """The projector's podium: only the places revealed so far ever reach the page."""
    template = "public/ceremony.html#stage" if request.htmx else "public/ceremony.html"
    return shared_page(request, template, lambda: ceremony_context(request, tournament))


VISIBILITY_MESSAGES = {
    Tournament.Visibility.LIVE: gettext_lazy("The results are public and follow verified sheets."),
    Tournament.Visibility.FROZEN: gettext_lazy("The public results are frozen."),
    Tournament.Visibility.HIDDEN: gettext_lazy("The results are hidden from the public."),
}


def freeze_label(last_completed, final):
    """The freeze button names what the public results would stay as of: a round, or the final."""
    if final is not None and final.number == last_completed:
        return _("Freeze as of the final")
    return _("Freeze as of round %(round)s") % {"round": last_completed}


def control_context(tournament, outcome=None, confirm=None):
    rows = compute_standings(tournament, verified_only=True)
    step = tournament.ceremony_step
    final = final_round(tournament)
    choices = [
        (Tournament.Visibility.LIVE, _("Show all results (live)")),
        (Tournament.Visibility.FROZEN, freeze_label(last_completed_round(tournament), final)),
        (Tournament.Visibility.HIDDEN, _("Hide the results")),
    ]
    return {
        "frozen_after_final": final is not None and tournament.frozen_round == final.number,
        "order_public": step < len(CEREMONY_PLACES) and final_order_public(tournament),
        "tournament": tournament,
        "choices": choices,
        "podium": [row for row in rows if row.medal],
        "not_final": unfinished_results(tournament, rows),
        "unverified": sheets_in_play_count(tournament),
        "revealed": CEREMONY_PLACES[:step],
        "next_place": CEREMONY_PLACES[step] if step < len(CEREMONY_PLACES) else None,
        "outcome": outcome,
        "confirm": confirm,
    }


def apply_control(request, tournament):
    """Run the posted action; returns (level, message) for the person who clicked."""
    post = request.POST
    if "visibility" in post:
        if post["visibility"] not in Tournament.Visibility.values:
            return messages.ERROR, _("Choose live, frozen or hidden.")
        set_visibility(tournament, post["visibility"], user=request.user, reason=post.get("reason", "")[:500].strip())
        return messages.SUCCESS, VISIBILITY_MESSAGES[post["visibility"]]
    if post.get("ceremony") == "next":
        seen = post.get("seen_step", "")
        before = tournament.ceremony_step
        steps = [str(step) for step in range(len(CEREMONY_PLACES))]
        if seen not in steps or advance_ceremony(tournament, user=request.user, seen_step=int(seen)) == before:
            return messages.ERROR, _(
                "The screen was out of date, so nothing more was revealed. Look again, then click."
            )
        return messages.SUCCESS, _("Place %(place)s is revealed.") % {"place": CEREMONY_PLACES[before]}
    if post.get("ceremony") == "reset":
        reset_ceremony(tournament, user=request.user)
        return messages.SUCCESS, _("The ceremony starts again: no place is revealed.")
    return messages.ERROR, _("Unknown action.")


@require_http_methods(["GET", "HEAD", "POST"])
@staff_required(Role.HEAD_REFEREE)
def results_control(request, tournament):
    """Head referee's controls: results visibility and the ceremony's next click (asked first on the page)."""
    if request.method != "POST":
        template = "public/results_control.html#panel" if request.htmx else "public/results_control.html"
        return render(request, template, control_context(tournament, confirm=ceremony_question(request)))
    if request.htmx and request.htmx.target == "ceremony-stage":  # the ceremony screen: in the hall's language
        return revalidate(ceremony_control(request, tournament))
    level, message = apply_control(request, tournament)
    tournament.refresh_from_db()
    outcome = {"error": level == messages.ERROR, "text": message}
    if request.htmx:
        return render(request, "public/results_control.html#panel", control_context(tournament, outcome))
    messages.add_message(request, level, message)
    return redirect(
        return_path(request, request.POST.get("next"), reverse("public:results_control", args=[tournament.slug]))
    )


@in_the_halls_language
def ceremony_control(request, tournament):
    """A click on the ceremony screen: the step done, and the screen's stage with what happened."""
    level, message = apply_control(request, tournament)
    tournament.refresh_from_db()
    outcome = {"error": level == messages.ERROR, "text": message}
    return render(request, "public/ceremony.html#stage", {**ceremony_context(request, tournament), "outcome": outcome})


def render_help(request, template, context):
    """A help page: a visitor who is not signed in gets no CSRF token (the page posts nothing)."""
    return render(
        request, template, {**context, "pages": HELP_PAGES, **({"csrf_token": ""} if shared_visitor(request) else {})}
    )


@require_safe
def help_index(request):
    """The staff help: one page per role, for anyone (there is nothing secret in it)."""
    return render_help(request, "public/help/index.html", {})


@require_safe
def help_page(request, role):
    """One role's help; its content is the template the printed help uses too."""
    return render_help(request, "public/help/page.html", {"page": BY_SLUG[role]})
