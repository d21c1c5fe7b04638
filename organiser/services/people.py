"""People who come back: an organiser merges two records of one person (undoable) and corrects a
person's name for every later tournament. Who a registration is: `organiser.matching`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from organiser.selectors import last_merge
from tournament.audit import log_change
from tournament.models import Person, Player, Round
from tournament.refusals import Refused
from tournament.validation import name_key

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser


def _required(reason: str) -> str:
    reason = " ".join(reason.split())
    if not reason:
        raise Refused("reason_required", field="reason")
    return reason


def _record(person: Person) -> dict:
    return {"uid": str(person.uid), "name": person.name, "club": person.club, "birth_year": person.birth_year}


@transaction.atomic
def merge_people(merged: Person, survivor: Person, *, reason: str, user: AbstractBaseUser | None) -> list[Player]:
    """One person recorded twice: `merged`'s players become `survivor`'s and `merged` points to
    it (no longer offered). Refused when both played in one tournament. Returns the moved players."""
    reason = _required(reason)
    locked = {p.pk: p for p in Person.objects.select_for_update().filter(pk__in=[merged.pk, survivor.pk])}
    if merged.pk == survivor.pk:
        raise Refused("person_merge_self", field="survivor")
    merged, survivor = locked[merged.pk], locked[survivor.pk]
    if merged.host_id != survivor.host_id:
        raise Refused("person_not_offered", field="survivor")
    for person in (merged, survivor):
        if person.merged_into_id is not None:
            raise Refused("person_merged", field="survivor", name=person.name)
    both = Player.objects.filter(person=survivor, tournament__players__person=merged).select_related("tournament")
    clash = both.first()
    if clash is not None:
        raise Refused(
            "person_merge_same_tournament",
            field="survivor",
            name=merged.name,
            other=survivor.name,
            tournament=clash.tournament.name,
        )
    moved = list(merged.players.order_by("pk"))
    Player.objects.filter(pk__in=[p.pk for p in moved]).update(person=survivor)
    merged.merged_into = survivor
    merged.save(update_fields=["merged_into"])
    log_change(
        None,
        user,
        "person_merge",
        host=merged.host,
        before={**_record(merged), "players": [p.pk for p in moved]},
        after={"merged_into": _record(survivor)},
        reason=reason,
    )
    return moved


@transaction.atomic
def merge_person_into(
    merged: Person, survivor_pk: int, *, reason: str, user: AbstractBaseUser | None
) -> tuple[Person, list[Player]]:
    """ "The same person as…" from a person's page: `survivor_pk` may be anyone of `merged`'s
    organisation, offered in the page's list or not; another organisation's person is refused.
    Returns the survivor and the moved players."""
    survivor = Person.objects.filter(host=merged.host_id, pk=survivor_pk).first()
    if survivor is None:
        raise Refused("person_merge_elsewhere", field="survivor")
    return survivor, merge_people(merged, survivor, reason=reason, user=user)


@transaction.atomic
def undo_merge(merged: Person, *, reason: str, user: AbstractBaseUser | None) -> list[Player]:
    """Undo `merged`'s merge: the players it had go back to it, and it is offered again."""
    reason = _required(reason)
    merged = Person.objects.select_for_update().get(pk=merged.pk)
    entry = last_merge(merged)
    if merged.merged_into_id is None or entry is None:
        raise Refused("person_not_merged", name=merged.name)
    survivor = Person.objects.get(pk=merged.merged_into_id)
    moved = (entry.before or {}).get("players", [])
    back = list(Player.objects.filter(pk__in=moved, person=survivor).order_by("pk"))
    Player.objects.filter(pk__in=[p.pk for p in back]).update(person=merged)
    merged.merged_into = None
    merged.save(update_fields=["merged_into"])
    log_change(
        None,
        user,
        "person_merge_undo",
        host=merged.host,
        before={"merged_into": _record(survivor)},
        after={**_record(merged), "players": [p.pk for p in back]},
        reason=reason,
    )
    return back


@transaction.atomic
def correct_person(
    person: Person, *, surname: str, given_names: str, club: str, birth_year: int | None, user: AbstractBaseUser | None
) -> list[Player]:
    """Correct a person's name, club or year of birth for every later registration. Their players
    in tournaments with no round drawn yet take the new name; a tournament that has drawn keeps
    the name it printed. Returns the renamed players."""
    person = Person.objects.select_for_update().get(pk=person.pk)
    if person.merged_into_id is not None:
        raise Refused("person_merged", name=person.name)
    before = _record(person)
    person.surname, person.given_names, person.club, person.birth_year = surname, given_names, club, birth_year
    person.save(update_fields=["surname", "given_names", "club", "birth_year"])
    drawn = Round.objects.values("tournament")
    renamed = list(person.players.exclude(tournament__in=drawn).exclude(name=person.name).select_related("tournament"))
    for player in renamed:
        namesake = Player.objects.filter(organisation=player.organisation_id).exclude(pk=player.pk)
        if any(name_key(other.name) == name_key(person.name) for other in namesake):
            raise Refused("person_name_taken", field="surname", name=person.name, tournament=player.tournament.name)
        player.surname, player.given_names = person.surname, person.given_names
        player.save(update_fields=["surname", "given_names"])
    if before != _record(person):
        log_change(None, user, "person_edit", host=person.host, before=before, after=_record(person))
    return renamed
