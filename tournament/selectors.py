"""Reads every app shares: a tournament, its players and rounds by what a URL names them, and
where the tournament stands (its latest, current and last completed rounds).

A `…_or_404` raises Http404 when the URL names nothing; the object comes with the tournament
it was looked up in, so reading `.tournament` costs no query.
"""

from __future__ import annotations

import datetime
import uuid
from typing import Any

from django.db.models import Exists, Max, OuterRef, QuerySet
from django.http import Http404

from tournament.clock import RoundClock, clock_of
from tournament.listing import ListPage, counted, host_page, tournament_page
from tournament.models import (
    DEFAULT_ROUND_MINUTES,
    HostOrganisation,
    Person,
    Player,
    ProducedFile,
    Round,
    RoundTime,
    Season,
    Tournament,
)
from tournament.text import slug_from
from tournament.validation import MAX_SLUG, RESERVED_SLUGS


def several_hosts_with_tournaments() -> bool:
    """More than one host organisation has tournaments (the public home page lists them then)."""
    with_tournaments = Tournament.objects.order_by("host_id").values("host_id").distinct()
    return len(with_tournaments[:2]) > 1


def host_or_404(slug: str) -> HostOrganisation:
    host = HostOrganisation.objects.filter(slug=slug).first()
    if host is None:
        raise Http404("no such organisation")
    return host


def tournament_with_slug(slug: str) -> Tournament | None:
    try:
        return Tournament.objects.get(slug=slug)
    except Tournament.DoesNotExist:
        return None


def tournament_or_404(slug: str) -> Tournament:
    tournament = tournament_with_slug(slug)
    if tournament is None:
        raise Http404("no such tournament")
    return tournament


def tournament_with_pk(pk: int) -> Tournament | None:
    """The tournament of a stored id (a background job's), or None when it was deleted meanwhile."""
    return Tournament.objects.filter(pk=pk).first()


def locked_tournament(pk: int) -> Tournament:
    """The tournament's row read again and locked until the transaction ends (one change at a time)."""
    return Tournament.objects.select_for_update().get(pk=pk)


def locked_tournament_with_slug(slug: str) -> Tournament | None:
    """The tournament of `slug`, locked until the transaction ends, or None."""
    return Tournament.objects.select_for_update().filter(slug=slug).first()


def any_tournament() -> bool:
    return Tournament.objects.exists()


def all_host_organisations() -> list[HostOrganisation]:
    return list(HostOrganisation.objects.all())


def host_with_slug(slug: str) -> HostOrganisation | None:
    return HostOrganisation.objects.filter(slug=slug).first()


def slug_taken(slug: str) -> bool:
    return Tournament.objects.filter(slug=slug).exists()


def free_slug(name: str) -> str:
    """The address made from a tournament's name that is neither taken nor reserved.

    "Senioriada Łódź" gives "senioriada-lodz", else "senioriada-lodz-2", "-3"…; "New" gives
    "new-2" ("new" is reserved: /staff/new/ creates a tournament).
    """
    base = slug_from(name)[: MAX_SLUG - 10] or "tournament"
    slug, number = base, 1
    while slug in RESERVED_SLUGS or slug_taken(slug):
        number += 1
        slug = f"{base}-{number}"
    return slug


def player_or_404(tournament: Tournament, *, pk: int | None = None, ext_id: str | None = None) -> Player:
    """The tournament's player with that pk (or import id), with the organisation."""
    lookup = {"pk": pk} if ext_id is None else {"ext_id": ext_id}
    try:
        player = Player.objects.select_related("organisation").get(tournament=tournament, **lookup)
    except Player.DoesNotExist:
        raise Http404("no such player") from None
    player.tournament = tournament
    return player


def round_numbered(tournament: Tournament, number: int) -> Round | None:
    try:
        round_ = Round.objects.get(tournament=tournament, number=number)
    except Round.DoesNotExist:
        return None
    round_.tournament = tournament
    return round_


def round_or_404(tournament: Tournament, number: int) -> Round:
    round_ = round_numbered(tournament, number)
    if round_ is None:
        raise Http404("no such round")
    return round_


def rounds_in_order(tournament: Tournament) -> list[Round]:
    return list(Round.objects.filter(tournament=tournament).order_by("number"))


def has_round_after(round_: Round) -> bool:
    return Round.objects.filter(tournament_id=round_.tournament_id, number__gt=round_.number).exists()


def latest_round(tournament: Tournament) -> Round | None:
    return Round.objects.filter(tournament=tournament).order_by("-number").first()


def final_round(tournament: Tournament) -> Round | None:
    """The final, once it is seated; else None."""
    return Round.objects.filter(tournament=tournament, kind=Round.Kind.FINAL).first()


def last_started_number(tournament: Tournament) -> int:
    """The number of the latest round that has started (0 before round 1 starts)."""
    started = Round.objects.filter(tournament=tournament, state__in=[Round.State.STARTED, Round.State.COMPLETED])
    return started.aggregate(n=Max("number"))["n"] or 0


def last_completed_round(tournament: Tournament) -> int:
    """The number of the latest completed round (0 before round 1 is completed)."""
    completed = Round.objects.filter(tournament=tournament, state=Round.State.COMPLETED)
    return completed.aggregate(n=Max("number"))["n"] or 0


def current_round(tournament: Tournament) -> Round | None:
    """The round referees work on: the latest started round, else the latest published one."""
    rounds = Round.objects.filter(tournament=tournament)
    return (
        rounds.filter(state=Round.State.STARTED).order_by("-number").first()
        or rounds.filter(state=Round.State.PUBLISHED).order_by("-number").first()
    )


def qualifying_over(tournament: Tournament, latest: Round) -> bool:
    """Whether `latest` (the tournament's latest round) is its last planned qualifying round or
    later (the final comes after it)."""
    return latest.number >= tournament.rounds_planned


def round_times(tournament: Tournament) -> dict[int, RoundTime]:
    """The tournament's timetable lines by round number (a round without one has the defaults)."""
    return {line.number: line for line in RoundTime.objects.filter(tournament=tournament)}


def playing_clock(tournament: Tournament, now: datetime.datetime | None = None) -> RoundClock | None:
    """The clock of the round being played (the latest started one), or None between rounds."""
    round_ = Round.objects.filter(tournament=tournament, state=Round.State.STARTED).order_by("-number").first()
    if round_ is None:
        return None
    line = RoundTime.objects.filter(tournament=tournament, number=round_.number).first()
    return clock_of(round_, line.length_minutes if line else DEFAULT_ROUND_MINUTES, now)


def all_seasons(host: HostOrganisation | None = None, *, limit: int | None = None) -> list[Season]:
    """The seasons (of one host organisation), the newest first; at most `limit` (None: all)."""
    seasons = Season.objects.all() if host is None else Season.objects.filter(host=host)
    return list(seasons.order_by("-created_at", "name")[:limit])


def season_with_slug(slug: str) -> Season | None:
    return Season.objects.select_related("host").filter(slug=slug).first()


def season_or_404(slug: str) -> Season:
    """The season of a public address (with its organisation), else 404."""
    season = season_with_slug(slug)
    if season is None:
        raise Http404("no such season")
    return season


def season_person_or_404(season: Season, uid: str) -> Person:
    """The season's organisation's person of a public id (`Person.uid`), else 404."""
    try:
        key = uuid.UUID(uid)
    except ValueError:
        raise Http404("no such person") from None
    person = Person.objects.filter(host=season.host_id, uid=key).first()
    if person is None:
        raise Http404("no such person")
    return person


# ---------------------------------------------------------------- files made by a task


def data_version(tournament: Tournament) -> int | None:
    """A number that changes whenever anything a printed list, a score sheet or the results website
    shows of `tournament` changes: the public version its database triggers raise (`public.versions`;
    read through the reverse relation, so no import goes up the stack)."""
    return Tournament.objects.filter(pk=tournament.pk).values_list("public_version__version", flat=True).first()


def finished_file(tournament: Tournament, content_key: str) -> ProducedFile | None:
    """The newest finished file made for exactly this request, with its bytes, or None."""
    done = ProducedFile.objects.filter(tournament=tournament, content_key=content_key, status=ProducedFile.Status.DONE)
    return done.order_by("-finished_at", "-pk").first()


def unfinished_file(tournament: Tournament, content_key: str) -> ProducedFile | None:
    """The file queued or being made for this request (at most one: a constraint), without its bytes."""
    unfinished = ProducedFile.objects.filter(
        tournament=tournament, content_key=content_key, status__in=ProducedFile.UNFINISHED
    )
    return unfinished.defer("content").first()


def produced_file_or_404(tournament: Tournament, pk: int, *, with_content: bool = False) -> ProducedFile:
    """A file of `tournament` by its id (404 for another tournament's); its bytes only when asked."""
    files = ProducedFile.objects.filter(tournament=tournament, pk=pk)
    produced = (files if with_content else files.defer("content")).first()
    if produced is None:
        raise Http404("no such file")
    return produced


def produced_file_by_pk(pk: int) -> ProducedFile | None:
    """The file a task makes, without its bytes."""
    return ProducedFile.objects.defer("content").filter(pk=pk).first()


def older_finished_files(tournament_id: int, kind: str, keep: int) -> list[int]:
    """The ids of a tournament's finished files of `kind` beyond the newest `keep` (failed ones too)."""
    finished = ProducedFile.objects.filter(tournament_id=tournament_id, kind=kind).exclude(
        status__in=ProducedFile.UNFINISHED
    )
    return list(finished.order_by("-finished_at", "-pk").values_list("pk", flat=True)[keep:])


def host_tournaments_by_slug(host: HostOrganisation, slugs: list[str]) -> dict[str, Tournament]:
    """{slug: tournament} of those of `slugs` that are `host`'s own tournaments."""
    return {t.slug: t for t in Tournament.objects.filter(host=host, slug__in=slugs)}


def tournament_and_host_ids(slug: str) -> tuple[int, int] | None:
    """(id, host organisation id) of the tournament at `slug`, or None."""
    return Tournament.objects.filter(slug=slug).values_list("pk", "host_id").first()


def tournament_row(pk: int, **unchanged: Any) -> QuerySet[Tournament]:
    """The tournament `pk` as a queryset for a service's compare-and-set `update()`: only while its
    fields still hold `unchanged`. The caller already holds the tournament through a scoped selector."""
    return Tournament.objects.filter(pk=pk, **unchanged)


def public_tournament_page(host: HostOrganisation | None = None, *, search: str = "", number: Any = 1) -> ListPage:
    """A page of the tournaments the public sees (of `host` alone, when given)."""
    tournaments = Tournament.objects.all() if host is None else Tournament.objects.filter(host=host)
    return tournament_page(tournaments, search=search, number=number)


def hosts_with_tournaments_page(*, search: str = "", number: Any = 1) -> ListPage:
    """A page of the host organisations that have tournaments, each with how many
    (`tournament_count`, counted for the page's organisations only)."""
    hosts = HostOrganisation.objects.filter(Exists(Tournament.objects.filter(host=OuterRef("pk"))))
    page = host_page(hosts, search=search, number=number)
    counted(page.object_list, Tournament.objects.all(), "host", "tournament_count")
    return page


def tournament_uids(pks: list[int]) -> list[uuid.UUID]:
    """The stable ids of the tournaments `pks` (the worker's, which holds them from a scoped query)."""
    return list(Tournament.objects.filter(pk__in=pks).values_list("uid", flat=True))
