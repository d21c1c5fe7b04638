"""The service's lists, bounded: tournaments and host organisations a page at a time, with a
search and a sensible order, whatever the number of organisations and tournaments.

A list shows PAGE_SIZE rows (Django's `Paginator`: a count and a page, two queries); its search
keeps the rows whose name or short address holds every word typed, in any order, case and Polish
diacritics ignored ("lodz" finds "Łódź": the rows' `search_key`); tournaments come upcoming first
(the nearest first), then the past ones, the most recent first. A list of one organisation's
tournaments reads that organisation's rows only (the index on host and date).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any, cast

from django.core.paginator import Page, Paginator
from django.db.models import Case, Count, F, Q, QuerySet, Value, When
from django.utils import timezone

from tournament.models import HostOrganisation, Tournament
from tournament.text import match_key

PAGE_SIZE = 20
MAX_SEARCH_WORDS = 8
MAX_SEARCH_LENGTH = 100


def search_of(query: Any) -> str:
    """The search a request typed (`?q=`), trimmed to a sensible length."""
    return " ".join(str(query or "").split())[:MAX_SEARCH_LENGTH]


def searched(rows: QuerySet[Any], search: str) -> QuerySet[Any]:
    """The rows whose name or short address holds every word of `search`."""
    for word in match_key(search).split()[:MAX_SEARCH_WORDS]:
        rows = rows.filter(search_key__contains=word)
    return rows


def in_listing_order(tournaments: QuerySet[Tournament], today: datetime.date | None = None) -> QuerySet[Tournament]:
    """Upcoming tournaments first, the nearest first; then the past ones, the most recent first."""
    upcoming = Q(date__gte=today or timezone.localdate())
    return tournaments.alias(
        past=Case(When(upcoming, then=Value(0)), default=Value(1)), coming=Case(When(upcoming, then=F("date")))
    ).order_by("past", F("coming").asc(nulls_last=True), "-date", "name", "pk")


class UpcomingThenPast:
    """`tournaments` in the lists' order (as `in_listing_order`) for a Paginator, a page read in the
    order of the index on date: the count of all and of the upcoming ones (one query), then the
    page's upcoming ones by date and its past ones by date descending, each a bounded slice (one
    query, two for the page where the upcoming end). One query sorting every row by an expression
    would sort the service's 5,000 tournaments for each page of 20."""

    def __init__(self, tournaments: QuerySet[Tournament], today: datetime.date | None = None) -> None:
        today = today or timezone.localdate()
        self.rows = tournaments
        self.today = today
        self.upcoming = tournaments.filter(date__gte=today).order_by("date", "name", "pk")
        self.past = tournaments.filter(date__lt=today).order_by("-date", "name", "pk")
        self.counts: dict[str, int] | None = None

    def count(self) -> int:
        if self.counts is None:
            self.counts = self.rows.order_by().aggregate(
                total=Count("pk"), upcoming=Count("pk", filter=Q(date__gte=self.today))
            )
        return self.counts["total"]

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, wanted: slice) -> list[Tournament]:
        start, stop = wanted.start or 0, wanted.stop
        if stop is None:
            raise ValueError("a page of the list is a bounded slice")
        if start >= stop:
            return []
        self.count()
        assert self.counts is not None
        upcoming = self.counts["upcoming"]
        rows = list(self.upcoming[start:stop]) if start < upcoming else []
        if stop > upcoming:
            rows += list(self.past[max(0, start - upcoming) : stop - upcoming])
        return rows


def page_of(rows: QuerySet[Any] | UpcomingThenPast, number: Any) -> Page:
    """Page `number` of the rows (the last one for a number past it, the first for nonsense),
    its rows read into a list."""
    page = Paginator(cast(Any, rows), PAGE_SIZE).get_page(number)  # it reads count() and one slice
    page.object_list = list(page.object_list)
    return page


def tournament_page(tournaments: QuerySet[Tournament], *, search: str = "", number: Any = 1) -> Page:
    """A page of `tournaments` (with their organisation) in the lists' order, searched."""
    return page_of(UpcomingThenPast(searched(tournaments.select_related("host"), search)), number)


def newest_first_page(tournaments: QuerySet[Tournament], *, search: str = "", number: Any = 1) -> Page:
    """A page of `tournaments`, the newest first, searched (a season's choice: it gathers past ones)."""
    return page_of(searched(tournaments, search).order_by("-date", "name", "pk"), number)


def host_page(hosts: QuerySet[HostOrganisation], *, search: str = "", number: Any = 1) -> Page:
    """A page of host organisations, by name, searched."""
    return page_of(searched(hosts, search).order_by("name", "pk"), number)


def counted(hosts: Iterable[HostOrganisation], rows: QuerySet[Any], field: str, name: str) -> None:
    """Give each of `hosts` (a page's) the attribute `name`: how many of `rows` are its (`field`
    holding the host's id), in one query over these hosts' rows only."""
    hosts = list(hosts)
    mine = rows.filter(**{f"{field}__in": [host.pk for host in hosts]}).values(field)
    counts = dict(mine.annotate(n=Count("pk")).values_list(field, "n"))
    for host in hosts:
        setattr(host, name, counts.get(host.pk, 0))
