"""Entries from the organisations (SPEC §11), each step in one transaction, audited, with its
e-mail written to the outbox in the same transaction (`tournament.services.mail`).

An entry waits for its contact's confirmation (48 h); confirmed, it is a player (registered as
every other player is, `players.register_entry`) while the active players are fewer than the
capacity, else it waits on the waiting list in order of confirmation. A withdrawal or a refusal
frees a place: the first waiting entry is promoted and told. The worker's round (`entries_round`)
expires unconfirmed entries, sends the reminders and the results link, and blanks contact details
ENTRY_CONTACT_DAYS after the tournament.
"""

from __future__ import annotations

import datetime
import hashlib
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from organiser import entry_selectors as selectors
from organiser.backups.scrub import forget_contacts
from organiser.models import Entry
from organiser.services.players import register_entry, remove_player
from tournament.audit import log_change
from tournament.models import Tournament
from tournament.refusals import Refused
from tournament.selectors import locked_tournament, round_times, tournament_row
from tournament.services.mail import queue_mail
from tournament.text import match_key

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

CONFIRM_WITHIN = datetime.timedelta(hours=48)
REMIND_DAYS = 3  # the reminder goes this many days before the tournament
RESULTS_WITHIN_DAYS = 7  # the results link goes to tournaments held at most this many days ago


@dataclass(frozen=True)
class EntryData:
    organisation: str
    surname: str
    given_names: str
    birth_year: int | None
    contact_name: str
    contact_email: str
    contact_phone: str
    consent_text: str


def client_key(address: str) -> str:
    """The hourly limit counts by a hash of the client's address, never the address itself."""
    return hashlib.sha256(f"{settings.SECRET_KEY}:{address}".encode()).hexdigest()


def entries_refusal(tournament: Tournament, now: datetime.datetime) -> Refused | None:
    """Why the tournament takes no entry now, or None when it does (a query only when its date is ahead)."""
    if tournament.entries_until is None:
        return Refused("entries_closed")
    if now < tournament.entries_until and selectors.round_one_drawn(tournament):
        return Refused("entries_drawn")
    if now >= tournament.entries_until:
        return Refused("entries_ended", until=timezone.localtime(tournament.entries_until).strftime("%d.%m.%Y %H:%M"))
    return None


def entries_open(tournament: Tournament, now: datetime.datetime | None = None) -> bool:
    return entries_refusal(tournament, now or timezone.now()) is None


def _logged(entry: Entry) -> dict[str, Any]:
    """What the audit log keeps of an entry: never its contact details."""
    return {"entry": entry.pk, "organisation": entry.organisation, "name": entry.name, "state": entry.state}


def entry_links(entry: Entry) -> dict[str, str]:
    base = entry.site.rstrip("/")
    slug = entry.tournament.slug
    return {
        "confirm": base + reverse("public:entry_confirm", args=[slug, entry.token]),
        "entry": base + reverse("public:entry_detail", args=[slug, entry.token]),
        "tournament": base + reverse("public:tournament", args=[slug]),
        "standings": base + reverse("public:standings", args=[slug]),
    }


def _mail(entry: Entry, kind: str, **context: Any) -> None:
    if not entry.contact_email:
        return
    tournament = entry.tournament
    queue_mail(
        to=entry.contact_email,
        kind=kind,
        template=f"entry_{kind}",
        context={"entry": entry, "tournament": tournament, "links": entry_links(entry), **context},
        language=tournament.public_language,
        tournament=tournament,
    )


def submit_entry(
    tournament: Tournament,
    data: EntryData,
    *,
    form_key: str,
    client: str,
    site: str,
    now: datetime.datetime | None = None,
) -> Entry:
    """Take one entry from the public form; the same form sent twice gives the one entry. Refused
    when entries are closed, the organisation's places are taken, or the address sent too many."""
    now = now or timezone.now()
    try:
        return _submit(tournament, data, form_key=form_key, client=client, site=site, now=now)
    except IntegrityError:  # the same form at the same moment (a double tap racing): its entry
        earlier = selectors.entry_by_form_key(tournament, form_key)
        if earlier is None:
            raise
        return earlier


def _submit(tournament, data, *, form_key, client, site, now):
    with transaction.atomic():
        tournament = locked_tournament(tournament.pk)
        earlier = selectors.entry_by_form_key(tournament, form_key)
        if earlier is not None:
            return earlier
        refusal = entries_refusal(tournament, now)
        if refusal is not None:
            raise refusal
        key = client_key(client)
        if selectors.entries_from_address(key, now - datetime.timedelta(hours=1)) >= settings.ENTRIES_PER_ADDRESS_HOUR:
            raise Refused("entry_rate_limited")
        taken = selectors.organisation_places_taken(tournament, data.organisation, now)
        if taken >= tournament.players_per_organisation:
            raise Refused(
                "entry_organisation_taken",
                field="organisation",
                organisation=data.organisation,
                count=taken,
                quota=tournament.players_per_organisation,
            )
        entry = Entry.objects.create(
            tournament=tournament,
            organisation=data.organisation,
            organisation_key=match_key(data.organisation),
            surname=data.surname,
            given_names=data.given_names,
            birth_year=data.birth_year,
            contact_name=data.contact_name,
            contact_email=data.contact_email,
            contact_phone=data.contact_phone,
            consent_text=data.consent_text,
            consent_at=now,
            form_key=form_key,
            client_key=key,
            site=site,
            confirm_by=now + CONFIRM_WITHIN,
        )
        log_change(tournament, None, "entry_submit", after=_logged(entry))
        _mail(entry, "confirm")
        return entry


def _place(entry: Entry, *, user: AbstractBaseUser | None, promoted: bool) -> None:
    """Make the confirmed entry a player when the capacity allows, else put it on the waiting list."""
    tournament = entry.tournament
    capacity = tournament.capacity
    if capacity is None or selectors.active_player_count(tournament) < capacity:
        entry.player = register_entry(
            tournament, surname=entry.surname, given_names=entry.given_names, organisation=entry.organisation, user=user
        )
        entry.state = Entry.State.PLAYER
        entry.save(update_fields=["player", "state"])
        log_change(tournament, user, "entry_promoted" if promoted else "entry_player", after=_logged(entry))
        _mail(entry, "promoted" if promoted else "player")
    else:
        entry.state = Entry.State.WAITING
        entry.save(update_fields=["state"])
        place = selectors.waiting_place(entry)
        log_change(tournament, user, "entry_waiting", after={**_logged(entry), "place": place})
        _mail(entry, "waiting", place=place)


def confirm_entry(entry: Entry, *, now: datetime.datetime | None = None) -> Entry:
    """The contact's confirmation from the e-mail's link; a second click changes nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        locked_tournament(entry.tournament_id)
        entry = selectors.locked_entry(entry.pk)
        if entry.state != Entry.State.PENDING:
            return entry
        if now >= entry.confirm_by:
            _expire(entry, now)
            raise Refused("entry_expired")
        if selectors.round_one_drawn(entry.tournament):
            raise Refused("entries_drawn")
        entry.confirmed_at = now
        entry.save(update_fields=["confirmed_at"])
        log_change(entry.tournament, None, "entry_confirm", after=_logged(entry))
        _place(entry, user=None, promoted=False)
        return entry


def _expire(entry: Entry, now: datetime.datetime) -> None:
    entry.state, entry.ended_at = Entry.State.EXPIRED, now
    entry.save(update_fields=["state", "ended_at"])
    log_change(entry.tournament, None, "entry_expire", after=_logged(entry))


def promote_waiting(tournament: Tournament, *, user: AbstractBaseUser | None) -> list[Entry]:
    """Promote waiting entries, first confirmed first, while the capacity allows (in the caller's transaction)."""
    promoted = []
    for waiting in selectors.waiting_list(tournament).select_related("tournament"):
        if tournament.capacity is not None and selectors.active_player_count(tournament) >= tournament.capacity:
            break
        _place(waiting, user=user, promoted=True)
        promoted.append(waiting)
    return promoted


def _end(entry: Entry, state: str, *, user: AbstractBaseUser | None, reason: str, now: datetime.datetime) -> None:
    before = _logged(entry)
    if entry.state == Entry.State.PLAYER and entry.player is not None:
        if selectors.round_one_drawn(entry.tournament):
            raise Refused("entry_withdraw_after_draw")
        player, entry.player = entry.player, None
        entry.save(update_fields=["player"])
        remove_player(player, user=user)
    entry.state, entry.ended_at, entry.reason = state, now, reason
    entry.save(update_fields=["state", "ended_at", "reason"])
    log_change(entry.tournament, user, f"entry_{state}", before=before, after=_logged(entry), reason=reason)


def withdraw_entry(entry: Entry, *, now: datetime.datetime | None = None) -> Entry:
    """The contact withdraws the entry from its own link; the first waiting entry takes the place."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked_tournament(entry.tournament_id)
        entry = selectors.locked_entry(entry.pk)
        if entry.state not in Entry.HOLDING:
            return entry
        _end(entry, Entry.State.WITHDRAWN, user=None, reason="", now=now)
        promote_waiting(tournament, user=None)
        return entry


def refuse_entry(
    entry: Entry, *, reason: str, user: AbstractBaseUser | None, now: datetime.datetime | None = None
) -> Entry:
    """The organiser refuses (or removes) an entry with a reason, which is e-mailed; the first
    waiting entry takes a freed place."""
    now = now or timezone.now()
    reason = " ".join(reason.split())
    if not reason:
        raise Refused("entry_reason_required", field="reason")
    with transaction.atomic():
        tournament = locked_tournament(entry.tournament_id)
        entry = selectors.locked_entry(entry.pk)
        if entry.state not in Entry.HOLDING:
            raise Refused("entry_not_holding", state=entry.get_state_display())
        _end(entry, Entry.State.REFUSED, user=user, reason=reason, now=now)
        _mail(entry, "refused", reason=reason)
        promote_waiting(tournament, user=user)
        return entry


def close_entries(
    tournament: Tournament, *, user: AbstractBaseUser | None, now: datetime.datetime | None = None
) -> None:
    """Close the entries now (before the date set)."""
    now = now or timezone.now()
    with transaction.atomic():
        stored = locked_tournament(tournament.pk)
        before = stored.entries_until
        if before is None or before <= now:
            return
        tournament_row(stored.pk).update(entries_until=now)
        tournament.entries_until = now
        log_change(
            stored,
            user,
            "entries_close",
            before={"entries_until": before.isoformat()},
            after={"entries_until": now.isoformat()},
        )


def _first_start(tournament: Tournament) -> str:
    first = round_times(tournament).get(1)
    return first.planned_start.strftime("%H:%M") if first is not None and first.planned_start else ""


def entries_round(now: datetime.datetime | None = None) -> dict[str, int]:
    """The worker's round: expire unconfirmed entries, send reminders and results links, blank old
    contact details. Each entry in its own transaction; returns how many of each."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    done = {"expired": 0, "reminded": 0, "results": 0, "contacts_deleted": 0}
    for pk in selectors.unconfirmed_past(now):
        with transaction.atomic():
            entry = selectors.locked_entry(pk)
            if entry.state == Entry.State.PENDING:
                _expire(entry, now)
                done["expired"] += 1
    for entry in selectors.players_to_remind(today, today + datetime.timedelta(days=REMIND_DAYS)):
        with transaction.atomic():
            if type(entry).objects.filter(pk=entry.pk, reminded_at__isnull=True).update(reminded_at=now):
                _mail(entry, "reminder", first_start=_first_start(entry.tournament))
                done["reminded"] += 1
    for entry in selectors.players_for_results(today, today - datetime.timedelta(days=RESULTS_WITHIN_DAYS)):
        with transaction.atomic():
            if type(entry).objects.filter(pk=entry.pk, results_sent_at__isnull=True).update(results_sent_at=now):
                _mail(entry, "results")
                done["results"] += 1
    done["contacts_deleted"] = delete_old_contacts(now)
    return done


def delete_old_contacts(now: datetime.datetime | None = None) -> int:
    """Blank the contact details of entries whose tournament was held ENTRY_CONTACT_DAYS ago or more,
    in the tournament's snapshots too."""
    now = now or timezone.now()
    before = timezone.localdate(now) - datetime.timedelta(days=settings.ENTRY_CONTACT_DAYS)
    with transaction.atomic():
        old = selectors.entries_with_old_contacts(before)
        per_tournament = Counter(old.values_list("tournament_id", flat=True))
        count = old.update(contact_name="", contact_email="", contact_phone="", contact_deleted_at=now)
        selectors.old_mail(before).delete()
        forget_contacts(per_tournament, now)  # the snapshots taken before hold them too
        for tournament_id, entries in sorted(per_tournament.items()):
            log_change(
                Tournament(pk=tournament_id),
                None,
                "entry_contacts_deleted",
                after={"entries": entries, "days_after": settings.ENTRY_CONTACT_DAYS},
            )
    return count
