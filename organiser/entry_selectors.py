"""What the entries (SPEC §11) read: the entries of a tournament, an organisation's places, the
waiting list, the players counted against the capacity, the entries the worker's round looks at."""

from __future__ import annotations

import datetime

from django.db.models import Q, QuerySet

from organiser.models import Entry
from tournament.models import OutgoingMail, Player, Round, Tournament
from tournament.text import match_key


def entry_by_token(tournament: Tournament, token: str) -> Entry | None:
    """The entry of its own link, in this tournament only (another tournament's link is none)."""
    return Entry.objects.filter(tournament=tournament, token=token).select_related("tournament").first()


def entry_by_form_key(tournament: Tournament, form_key: str) -> Entry | None:
    return Entry.objects.filter(tournament=tournament, form_key=form_key).first()


def locked_entry(pk: int) -> Entry:
    return Entry.objects.select_for_update(of=("self",)).select_related("tournament", "player").get(pk=pk)


def entry_of_tournament(tournament: Tournament, pk: int) -> Entry | None:
    return Entry.objects.filter(tournament=tournament, pk=pk).select_related("player").first()


def entries_of(tournament: Tournament) -> list[Entry]:
    """Every entry of the tournament, oldest first, with its player (one query)."""
    return list(Entry.objects.filter(tournament=tournament).select_related("player").order_by("created_at", "pk"))


def organisation_places_taken(tournament: Tournament, organisation: str, now: datetime.datetime) -> int:
    """How many of the organisation's places (`players_per_organisation`) are taken: its players
    (the organiser's and the entries') and its entries waiting for confirmation or on the waiting
    list; the organisation's name compared as the people matching compares names."""
    key = match_key(organisation)
    players = sum(
        1
        for name in Player.objects.filter(tournament=tournament).values_list("organisation__name", flat=True)
        if match_key(name) == key
    )
    waiting = (
        Entry.objects.filter(tournament=tournament, organisation_key=key)
        .filter(Q(state=Entry.State.WAITING) | Q(state=Entry.State.PENDING, confirm_by__gt=now))
        .count()
    )
    return players + waiting


def entries_from_address(client_key: str, since: datetime.datetime) -> int:
    return Entry.objects.filter(client_key=client_key, created_at__gte=since).count()


def active_player_count(tournament: Tournament) -> int:
    """The players counted against the capacity: every player not withdrawn or disqualified."""
    return Player.objects.filter(tournament=tournament, status=Player.Status.ACTIVE).count()


def waiting_list(tournament: Tournament) -> QuerySet[Entry]:
    """The waiting list in order of confirmation."""
    return Entry.objects.filter(tournament=tournament, state=Entry.State.WAITING).order_by("confirmed_at", "pk")


def waiting_place(entry: Entry) -> int:
    """The entry's place on the waiting list (1 = next in)."""
    return (
        Entry.objects.filter(tournament_id=entry.tournament_id, state=Entry.State.WAITING)
        .filter(Q(confirmed_at__lt=entry.confirmed_at) | Q(confirmed_at=entry.confirmed_at, pk__lt=entry.pk))
        .count()
        + 1
    )


def round_one_drawn(tournament: Tournament) -> bool:
    return Round.objects.filter(tournament=tournament).exists()


def unconfirmed_past(now: datetime.datetime) -> list[int]:
    return list(Entry.objects.filter(state=Entry.State.PENDING, confirm_by__lte=now).values_list("pk", flat=True))


def entries_with_old_contacts(before: datetime.date) -> QuerySet[Entry]:
    """Entries of tournaments held before `before` that still hold contact details."""
    return Entry.objects.filter(tournament__date__lt=before, contact_deleted_at__isnull=True)


def _players_not_yet(sent: str, **held: datetime.date) -> list[Entry]:
    """Entries that are players, with their contact kept, whose `sent` time is not set yet."""
    return list(
        Entry.objects.filter(
            state=Entry.State.PLAYER, contact_deleted_at__isnull=True, **{f"{sent}__isnull": True}, **held
        ).select_related("tournament")
    )


def players_to_remind(first_day: datetime.date, last_day: datetime.date) -> list[Entry]:
    """Entries that are players of a tournament held between the two days and not reminded yet."""
    return _players_not_yet("reminded_at", tournament__date__gte=first_day, tournament__date__lte=last_day)


def players_for_results(held_before: datetime.date, held_after: datetime.date) -> list[Entry]:
    """Entries that are players of a tournament over (held before `held_before`, on or after
    `held_after`) whose contact has not had the results link."""
    return _players_not_yet("results_sent_at", tournament__date__lt=held_before, tournament__date__gte=held_after)


def waiting_mail(tournament: Tournament) -> dict[str, int]:
    """How many of the tournament's messages wait, were sent, failed (the entries page's note)."""
    counts = {state: 0 for state in OutgoingMail.State.values}
    for state in OutgoingMail.objects.filter(tournament=tournament).values_list("state", flat=True):
        counts[state] += 1
    return counts


def old_mail(before: datetime.date) -> QuerySet[OutgoingMail]:
    """Messages of tournaments held before `before` (they hold addresses), but one being sent."""
    return OutgoingMail.objects.filter(tournament__date__lt=before).exclude(state=OutgoingMail.State.SENDING)


def open_for_entries(tournaments: list[Tournament], now: datetime.datetime) -> set[str]:
    """The slugs of those of `tournaments` taking entries now (one query, none when none could)."""
    candidates = [t.pk for t in tournaments if t.entries_until is not None and t.entries_until > now]
    if not candidates:
        return set()
    return set(Tournament.objects.filter(pk__in=candidates, rounds__isnull=True).values_list("slug", flat=True))
