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
from typing import Any

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


def page_of(rows: QuerySet[Any], number: Any) -> Page:
    """Page `number` of the rows (the last one for a number past it, the first for nonsense),
    its rows read into a list."""
    page = Paginator(rows, PAGE_SIZE).get_page(number)
    page.object_list = list(page.object_list)
    return page


def tournament_page(tournaments: QuerySet[Tournament], *, search: str = "", number: Any = 1) -> Page:
    """A page of `tournaments` (with their organisation) in the lists' order, searched."""
    return page_of(in_listing_order(searched(tournaments.select_related("host"), search)), number)


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
