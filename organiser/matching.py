"""Who a registration is: the host organisation's person a player typed, imported or read from a
JSON file is, found by name (case, spacing and Polish diacritics ignored) or by the file's
stable id; a new person when none is certain. Outside `services` so that the interchange's
import, below the services' package, uses it too.

Matching (`selectors.person_candidates`): the same full name among the host organisation's people
not merged into another and not yet players of the tournament. One candidate is that person; of
several, the only one from the same club is; else the registration is unsure: the players' form
asks, a file makes a new person (the players' page marks namesakes, to merge if they are one).
Never a person of another organisation.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Collection, Sequence

from organiser.importers import PlayerRow
from organiser.selectors import person_candidates
from tournament.models import Person, Tournament
from tournament.refusals import Refused
from tournament.text import match_key

NEW_PERSON = "new"


def certain_person(candidates: list[Person], club: str) -> Person | None:
    """The one candidate, or of several the only one from `club` (case and diacritics aside)."""
    if len(candidates) == 1:
        return candidates[0]
    same_club = [person for person in candidates if match_key(person.club) == match_key(club)]
    return same_club[0] if len(same_club) == 1 else None


def new_person(host_id: int, entry: PlayerRow) -> Person:
    """A person of the host organisation from a registration (its organisation as their club)."""
    person = _unsaved_person(host_id, entry)
    person.save()
    return person


def _unsaved_person(host_id, entry, *, uid=None):
    """A new person not saved yet, with its name key (a bulk insert does not call `save`)."""
    person = Person(host_id=host_id, surname=entry.surname, given_names=entry.given_names, club=entry.organisation)
    person.name_key = match_key(person.name)
    if uid is not None:
        person.uid = uid
    return person


def chosen_person(tournament: Tournament, entry: PlayerRow, choice: str | None = None) -> Person:
    """The person a player typed into the form is: `choice` is "new", a candidate's pk, or None to
    decide (refused with `candidates` when unsure, so the form asks)."""
    host_id = tournament.host_id
    candidates = person_candidates(host_id, entry.name, tournament=tournament)
    if choice == NEW_PERSON or not candidates:
        return new_person(host_id, entry)
    if choice:
        offered = [person for person in candidates if str(person.pk) == choice]
        if not offered:
            raise Refused("person_not_offered", field="person", candidates=candidates)
        return offered[0]
    person = certain_person(candidates, entry.organisation)
    if person is None:
        raise Refused("person_unsure", field="person", name=entry.name, candidates=candidates)
    return person


def matched_person(tournament: Tournament, entry: PlayerRow, *, taken: Collection[int] = ()) -> Person:
    """The person a file's line is, without asking: the certain match (not among `taken`, the
    people of the file's earlier lines), else a new person."""
    candidates = [
        person
        for person in person_candidates(tournament.host_id, entry.name, tournament=tournament)
        if person.pk not in taken
    ]
    person = certain_person(candidates, entry.organisation) if candidates else None
    return person or new_person(tournament.host_id, entry)


def drop_if_unused(person: Person | None) -> None:
    """Delete a person no player is and no record was merged into (a registration renamed away)."""
    if person is not None and not person.players.exists() and not person.merged_records.exists():
        person.delete()


def _surviving(person: Person) -> Person:
    while person.merged_into_id is not None:
        person = Person.objects.get(pk=person.merged_into_id)
    return person


def people_of_file(tournament: Tournament, lines: Sequence[tuple[PlayerRow, uuid.UUID | None]]) -> list[Person]:
    """The person of each player of an imported file (its row and its `players[].person`), in
    three queries however long the file: the `uid` when it is one of the host organisation's
    people (the survivor of a merge), a new person with that uid when unknown here, a new person
    with a new uid when it is another organisation's; without a uid, by name as `matched_person`
    (a file never asks). Two of the file's players are never one person."""
    host_id = tournament.host_id
    known: dict[uuid.UUID | None, Person] = {
        person.uid: person for person in Person.objects.filter(uid__in=[uid for _row, uid in lines if uid])
    }
    namesakes: defaultdict[str, list[Person]] = defaultdict(list)
    keys = {match_key(row.name) for row, _uid in lines}
    for person in Person.objects.filter(host=host_id, name_key__in=keys, merged_into__isnull=True):
        namesakes[person.name_key].append(person)
    people: list[Person] = []
    taken: set[int] = set()
    for row, uid in lines:
        person = _person_of_line(host_id, row, uid, known.get(uid), namesakes[match_key(row.name)], taken)
        if person.pk is not None:
            taken.add(person.pk)
        people.append(person)
    Person.objects.bulk_create([person for person in people if person.pk is None])
    return people


def _person_of_line(host_id, row, uid, known, namesakes, taken):
    """One line of `people_of_file`: `known` is the person of its `uid` (None: unknown here or
    no uid), `taken` the people of the file's earlier lines."""
    if known is not None:
        person = _surviving(known) if known.host_id == host_id else None  # never another organisation's
        # two of the file's people merged here into one: the second becomes a new person
        return person if person is not None and person.pk not in taken else _unsaved_person(host_id, row)
    candidates = [person for person in namesakes if person.pk not in taken]
    person = certain_person(candidates, row.organisation) if uid is None and candidates else None
    return person or _unsaved_person(host_id, row, uid=uid)
