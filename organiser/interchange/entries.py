"""The organisations' entries in an interchange file: the optional top-level `entries` list (SPEC §11).

Each entry is ``{"state", "organisation", "surname", "given_names", "birth_year", "contact_name",
"contact_email", "contact_phone", "contact_deleted_at", "consent_text", "consent_at",
"entered_at", "confirm_by", "confirmed_at", "ended_at", "reason", "waiting_place", "player",
"reminded_at", "results_sent_at", "site"}``, in the order they were entered. `player` is the id
of the player the entry became (`players[].id`) or null; `waiting_place` is the place on the
waiting list (1 = next in) of a waiting entry, else null: the list's order is the order of
confirmation, and a file whose places disagree with it is refused.

The file is the staff's (the backup download and the snapshots): it carries the contact details,
which no public output does. An entry's private link (its token) is not in the file: a restored
or copied entry gets a new one, so two tournaments never share a link. Contact details are not
brought back for a tournament held ENTRY_CONTACT_DAYS ago or more (the worker deletes them then):
a restore of a snapshot taken before the deletion writes them blank, marked deleted.
"""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import timezone

from organiser.interchange.checks import (
    TEXT_CONTROLS,
    check_known_keys,
    checked_choice,
    checked_int,
    checked_list,
    checked_name,
    checked_object,
    checked_player,
    checked_text,
    checked_time,
    fail,
    optional_text,
)
from organiser.models import Entry
from tournament.text import match_key

TIMES = ("contact_deleted_at", "consent_at", "entered_at", "confirm_by", "confirmed_at", "ended_at")
MAIL_TIMES = ("reminded_at", "results_sent_at")
CONTACT = ("contact_name", "contact_email", "contact_phone")
ENTRY_KEYS = (
    "state",
    "organisation",
    "surname",
    "given_names",
    "birth_year",
    *CONTACT,
    "consent_text",
    "waiting_place",
    "player",
    "reason",
    "site",
    *TIMES,
    *MAIL_TIMES,
)
REQUIRED_TIMES = ("consent_at", "entered_at", "confirm_by")
STATES = [c for c, _ in Entry.State.choices]
CONFIRMED_STATES = (Entry.State.PLAYER, Entry.State.WAITING)
MAX_PERSON_NAME = 100  # as the entry form
MAX_PHONE = 30


def _utc(moment):
    return moment.astimezone(datetime.UTC).isoformat() if moment else None


def export_entries(tournament, ext):
    """The tournament's entries, in the order entered; `ext` maps a player's pk to its id in the file."""
    entries = list(Entry.objects.filter(tournament=tournament).order_by("created_at", "pk"))
    waiting = sorted((e for e in entries if e.state == Entry.State.WAITING), key=lambda e: (e.confirmed_at, e.pk))
    places = {e.pk: place for place, e in enumerate(waiting, start=1)}
    return [
        {
            "state": e.state,
            "organisation": e.organisation,
            "surname": e.surname,
            "given_names": e.given_names,
            "birth_year": e.birth_year,
            "contact_name": e.contact_name,
            "contact_email": e.contact_email,
            "contact_phone": e.contact_phone,
            "contact_deleted_at": _utc(e.contact_deleted_at),
            "consent_text": e.consent_text,
            "consent_at": _utc(e.consent_at),
            "entered_at": _utc(e.created_at),
            "confirm_by": _utc(e.confirm_by),
            "confirmed_at": _utc(e.confirmed_at),
            "ended_at": _utc(e.ended_at),
            "reason": e.reason,
            "waiting_place": places.get(e.pk),
            "player": ext.get(e.player_id),
            "reminded_at": _utc(e.reminded_at),
            "results_sent_at": _utc(e.results_sent_at),
            "site": e.site,
        }
        for e in entries
    ]


def _times(e, path, state):
    times = {}
    for key in (*TIMES, *MAIL_TIMES):
        value = e.get(key)
        if value is None and key in REQUIRED_TIMES:
            fail(f"{path}.{key}", "is required")
        times[key] = None if value is None else checked_time(value, f"{path}.{key}")
    if state in CONFIRMED_STATES and times["confirmed_at"] is None:
        fail(f"{path}.confirmed_at", f"an entry in state {state} was confirmed: its time is required")
    return times


def _contact(e, path, deleted):
    name = optional_text(e.get("contact_name"), f"{path}.contact_name", MAX_PERSON_NAME)
    email = optional_text(e.get("contact_email"), f"{path}.contact_email", 254)
    if email:
        try:
            validate_email(email)
        except ValidationError:
            fail(f"{path}.contact_email", "must be an e-mail address such as name@example.pl")
    phone = optional_text(e.get("contact_phone"), f"{path}.contact_phone", MAX_PHONE)
    if deleted and (name or email or phone):
        fail(f"{path}.contact_deleted_at", "an entry whose contact details were deleted has none")
    return {"contact_name": name, "contact_email": email, "contact_phone": phone}


def _entry(e, path, players):
    e = checked_object(e, path)
    check_known_keys(e, path, ENTRY_KEYS)
    state = checked_choice(e.get("state"), f"{path}.state", STATES)
    given_names = e.get("given_names", "")
    birth_year = e.get("birth_year")
    player = e.get("player")
    if player is not None:
        checked_player(player, f"{path}.player", players)
        if state != Entry.State.PLAYER:
            fail(f"{path}.player", f"an entry in state {state} is no player")
    times = _times(e, path, state)
    return {
        "state": state,
        "organisation": checked_name(e.get("organisation"), f"{path}.organisation"),
        "surname": checked_name(e.get("surname"), f"{path}.surname"),
        "given_names": checked_name(given_names, f"{path}.given_names") if given_names else "",
        "birth_year": None
        if birth_year is None
        else checked_int(birth_year, f"{path}.birth_year", 1900, timezone.localdate().year),
        **_contact(e, path, times["contact_deleted_at"] is not None),
        "consent_text": checked_text(
            e.get("consent_text"), f"{path}.consent_text", max_length=5000, allowed_controls=TEXT_CONTROLS
        ),
        "reason": optional_text(e.get("reason"), f"{path}.reason", 5000),
        "site": optional_text(e.get("site"), f"{path}.site", 200),
        "player": player,
        "waiting_place": e.get("waiting_place"),
        **times,
    }


def parse_entries(data, players):
    """The file's entries, checked; `players` are the parsed players (for the `player` references)."""
    entries, became = [], {}
    for i, e in enumerate(checked_list(data, "entries")):
        entry = _entry(e, f"entries[{i}]", players)
        if entry["player"] is not None:
            if entry["player"] in became:
                fail(f"entries[{i}].player", f"player {entry['player']} is also entries[{became[entry['player']]}]")
            became[entry["player"]] = i
        entries.append(entry)
    _check_waiting_places(entries)
    return entries


def _check_waiting_places(entries):
    """The waiting list's places must be its order of confirmation, 1, 2, 3…"""
    waiting = sorted(
        (i for i, e in enumerate(entries) if e["state"] == Entry.State.WAITING),
        key=lambda i: (entries[i]["confirmed_at"], i),
    )
    expected = {i: place for place, i in enumerate(waiting, start=1)}
    for i, e in enumerate(entries):
        place, path = e["waiting_place"], f"entries[{i}].waiting_place"
        if i not in expected:
            if place is not None:
                fail(path, f"only a waiting entry has a place, this one is {e['state']}")
            continue
        checked_int(place, path, 1, len(entries))
        if place != expected[i]:
            fail(path, f"the waiting list in order of confirmation puts this entry at place {expected[i]}, not {place}")


def contacts_kept(tournament, now):
    """False when the tournament was held ENTRY_CONTACT_DAYS ago or more: its contacts are deleted."""
    return tournament.date >= timezone.localdate(now) - datetime.timedelta(days=settings.ENTRY_CONTACT_DAYS)


def load_entries(tournament, entries, players):
    """Write the parsed entries, linked to the imported players (`players`: {id in the file: Player})."""
    now = timezone.now()
    keep = contacts_kept(tournament, now)
    created = Entry.objects.bulk_create(
        Entry(
            tournament=tournament,
            organisation=e["organisation"],
            organisation_key=match_key(e["organisation"]),
            surname=e["surname"],
            given_names=e["given_names"],
            birth_year=e["birth_year"],
            **({key: e[key] for key in CONTACT} if keep else dict.fromkeys(CONTACT, "")),
            contact_deleted_at=e["contact_deleted_at"] or (None if keep else now),
            consent_text=e["consent_text"],
            consent_at=e["consent_at"],
            state=e["state"],
            form_key=secrets.token_urlsafe(24),
            site=e["site"],
            client_key="",
            confirm_by=e["confirm_by"],
            confirmed_at=e["confirmed_at"],
            ended_at=e["ended_at"],
            reason=e["reason"],
            player=players[e["player"]] if e["player"] is not None else None,
            reminded_at=e["reminded_at"],
            results_sent_at=e["results_sent_at"],
        )
        for e in entries
    )
    for entry, e in zip(created, entries):
        entry.created_at = e["entered_at"]  # `auto_now_add` stamped the import's time
    Entry.objects.bulk_update(created, ["created_at"], batch_size=500)
