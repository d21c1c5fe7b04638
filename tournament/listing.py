"""The service's lists, bounded: tournaments and host organisations a page at a time, with a
search and a sensible order, whatever the number of organisations and tournaments.

A list shows PAGE_SIZE rows a page (`ListPage`: the page's rows and one more, which says whether
a next page exists; no count of the whole list, whose cost would grow with the service); its search
keeps the rows whose name or short address holds every word typed, in any order, case and Polish
diacritics ignored ("lodz" finds "Łódź": the rows' `search_key`); tournaments come upcoming first
(the nearest first), then the past ones, the most recent first. A list of one organisation's
tournaments reads that organisation's rows only (the index on host and date).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import Case, Count, F, Q, QuerySet, Value, When
from django.utils import timezone

from tournament.models import HostOrganisation, Tournament
from tournament.text import match_key

PAGE_SIZE = 20
MAX_PAGE = 10_000  # a page number beyond any list (an offset the database can take)
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
    """`tournaments` in the lists' order (as `in_listing_order`), a slice read in the order of the
    index on date: the slice's upcoming ones by date, then (when it reaches past them) its past ones
    by date descending, each a bounded query (LIMIT). One query sorting every row by an expression
    would sort the service's 5,000 tournaments for each page of 20."""

    def __init__(self, tournaments: QuerySet[Tournament], today: datetime.date | None = None) -> None:
        today = today or timezone.localdate()
        self.rows = tournaments
        self.upcoming = tournaments.filter(date__gte=today).order_by("date", "name", "pk")
        self.past = tournaments.filter(date__lt=today).order_by("-date", "name", "pk")

    def count(self) -> int:
        return self.rows.count()

    def __getitem__(self, wanted: slice) -> list[Tournament]:
        start, stop = wanted.start or 0, wanted.stop
        if stop is None or start >= stop:
            raise ValueError("a page of the list is a bounded, non-empty slice")
        rows = list(self.upcoming[start:stop])
        if len(rows) == stop - start:
            return rows
        # The upcoming ones end before `stop`: how many there are, to know where the past ones start.
        upcoming = start + len(rows) if rows or not start else self.upcoming.order_by()[:start].count()
        return rows + list(self.past[max(0, start - upcoming) : stop - upcoming])


class ListPage:
    """Page `number` of a list: its rows (`object_list`) and whether pages come before and after,
    with the parts of Django's `Page` the pager uses. It knows no total: "Page 3", never "of 250"."""

    def __init__(self, rows: list[Any], number: int, has_next: bool) -> None:
        self.object_list = rows
        self.number = number
        self.more = has_next

    def __iter__(self) -> Iterator[Any]:
        return iter(self.object_list)

    def __len__(self) -> int:
        return len(self.object_list)

    def has_next(self) -> bool:
        return self.more

    def has_previous(self) -> bool:
        return self.number > 1

    def has_other_pages(self) -> bool:
        return self.more or self.number > 1

    def next_page_number(self) -> int:
        return self.number + 1

    def previous_page_number(self) -> int:
        return self.number - 1

    def sole(self) -> Any | None:
        """The list's only row when it has exactly one (a chooser goes straight to it), else None."""
        return self.object_list[0] if len(self.object_list) == 1 and not self.has_other_pages() else None


def _page_number(number: Any) -> int:
    try:
        return max(1, int(str(number)))
    except ValueError:
        return 1


def page_of(rows: QuerySet[Any] | UpcomingThenPast, number: Any) -> ListPage:
    """Page `number` of the rows (the first for nonsense), read with one row more: one query
    (two across upcoming and past tournaments). A number past the list's end counts the rows (the
    only count, for that rare link) and gives the last page."""
    wanted = min(_page_number(number), MAX_PAGE)
    start = (wanted - 1) * PAGE_SIZE
    found = list(rows[start : start + PAGE_SIZE + 1])
    if not found and wanted > 1:
        return page_of(rows, max(1, -(-rows.count() // PAGE_SIZE)))
    return ListPage(found[:PAGE_SIZE], wanted, len(found) > PAGE_SIZE)


def tournament_page(tournaments: QuerySet[Tournament], *, search: str = "", number: Any = 1) -> ListPage:
    """A page of `tournaments` (with their organisation) in the lists' order, searched."""
    return page_of(UpcomingThenPast(searched(tournaments.select_related("host"), search)), number)


def newest_first_page(tournaments: QuerySet[Tournament], *, search: str = "", number: Any = 1) -> ListPage:
    """A page of `tournaments`, the newest first, searched (a season's choice: it gathers past ones)."""
    return page_of(searched(tournaments, search).order_by("-date", "name", "pk"), number)


def host_page(hosts: QuerySet[HostOrganisation], *, search: str = "", number: Any = 1) -> ListPage:
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
