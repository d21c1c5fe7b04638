"""Players: register (one by one or a whole file), edit, check in, withdraw, reinstate, remove.

Every check runs before anything is written; a clash with a simultaneous change is refused.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.db.models import Max

from organiser.importers import PlayerRow
from organiser.matching import chosen_person, drop_if_unused, matched_person
from tournament.audit import log_change
from tournament.models import Organisation, Person, Player, Seat, Tournament
from tournament.names import split_name
from tournament.refusals import Refused
from tournament.selectors import last_started_number
from tournament.text import match_key
from tournament.validation import MAX_NAME, forbidden_character, name_key

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser


def registration_problems(
    tournament: Tournament, *, entries: Sequence[PlayerRow], ignore: Player | None = None
) -> list[Refused]:
    """Refusals of registering `entries` (PlayerRows) on top of the tournament's players
    (except `ignore`): empty or long names, duplicates in one organisation, the quota. Each
    names the entry's `line` (None for a typed player) and its field."""
    existing = Player.objects.filter(tournament=tournament).select_related("organisation")
    if ignore is not None:
        existing = existing.exclude(pk=ignore.pk)
    taken = {(name_key(p.organisation.name), name_key(p.name)) for p in existing}
    per_organisation = Counter(name_key(p.organisation.name) for p in existing)
    problems: list[Refused] = []
    seen: dict[tuple[str, str], int | None] = {}
    new_lines: defaultdict[str, list[int | None]] = defaultdict(list)
    display: dict[str, str] = {}
    for entry in entries:
        if not entry.surname:
            code = "surname_empty" if entry.given_names else "name_empty"
            problems.append(Refused(code, field="surname", line=entry.line))
        if not entry.organisation:
            problems.append(Refused("organisation_empty", field="organisation", line=entry.line))
        if len(entry.name) > MAX_NAME or len(entry.organisation) > MAX_NAME:
            problems.append(Refused("name_too_long", field="surname", count=MAX_NAME, line=entry.line))
        hidden = {
            field: forbidden_character(text)
            for field, text in (
                ("surname", entry.surname),
                ("given_names", entry.given_names),
                ("organisation", entry.organisation),
            )
        }
        for column, code in hidden.items():
            if code:
                problems.append(Refused("forbidden_character", field=column, code=code, line=entry.line))
        if not entry.surname or not entry.organisation or any(hidden.values()):
            continue
        organisation, name = name_key(entry.organisation), name_key(entry.name)
        display.setdefault(organisation, entry.organisation)
        names = {"name": entry.name, "organisation": entry.organisation}
        if (organisation, name) in taken:
            problems.append(Refused("already_registered", field="surname", line=entry.line, **names))
        elif (organisation, name) in seen:
            problems.append(
                Refused("registered_twice", field="surname", line=entry.line, other=seen[(organisation, name)], **names)
            )
        seen.setdefault((organisation, name), entry.line)
        new_lines[organisation].append(entry.line)
    for organisation, lines in new_lines.items():
        problem = _over_quota(tournament, display[organisation], lines, per_organisation[organisation])
        if problem is not None:
            problems.append(problem)
    return sorted(problems, key=lambda p: p.params["line"] or 0)


def _over_quota(tournament, organisation, lines, registered):
    """The refusal when `lines` (new entries of one organisation) and the `registered` players
    pass the tournament's quota, else None."""
    quota = tournament.players_per_organisation
    if registered + len(lines) <= quota:
        return None
    values = {"organisation": organisation, "quota": quota, "field": "organisation", "line": lines[0]}
    if None in lines:  # typed or chosen, not a file's lines
        return Refused("quota_reached", count=registered, **values)
    code = "quota_lines_registered" if registered else "quota_lines"
    return Refused(code, count=len(lines), lines=", ".join(map(str, lines)), registered=registered, **values)


def _organisation(tournament, name):
    """The tournament's organisation of that name (any case), created when new."""
    for organisation in Organisation.objects.filter(tournament=tournament):
        if name_key(organisation.name) == name_key(name):
            return organisation
    return Organisation.objects.create(tournament=tournament, name=" ".join(name.split()))


def _free_slot(tournament, organisation, ignore=None):
    """The lowest free place 1…quota in the organisation (the database keeps places unique)."""
    others = Player.objects.filter(organisation=organisation)
    if ignore is not None:
        others = others.exclude(pk=ignore.pk)
    used = set(others.values_list("org_slot", flat=True))
    free = [slot for slot in range(1, tournament.players_per_organisation + 1) if slot not in used]
    if not free:
        raise Refused(
            "quota_reached",
            field="organisation",
            organisation=organisation.name,
            count=len(used),
            quota=tournament.players_per_organisation,
        )
    return free[0]


def _drop_empty_organisations(tournament):
    Organisation.objects.filter(tournament=tournament, players__isnull=True).delete()


def _register(tournament, entries, people, arrival=None):
    """Create players after the checks passed; the start number and id continue the list.
    `people`: the person each entry is; `arrival`: their `present` and `joins_from_round`
    (default: not checked in)."""
    arrival = arrival or {}
    last = Player.objects.filter(tournament=tournament).aggregate(n=Max("start_number"))["n"] or 0
    taken_ids = set(Player.objects.filter(tournament=tournament).values_list("ext_id", flat=True))
    created = []
    for number, (entry, person) in enumerate(zip(entries, people, strict=True), start=last + 1):
        organisation = _organisation(tournament, entry.organisation)
        ext_id = f"p{number}"
        while ext_id in taken_ids:
            ext_id += "x"
        taken_ids.add(ext_id)
        created.append(
            Player.objects.create(
                tournament=tournament,
                organisation=organisation,
                surname=entry.surname,
                given_names=entry.given_names,
                start_number=number,
                ext_id=ext_id,
                org_slot=_free_slot(tournament, organisation),
                person=person,
                **arrival,
            )
        )
    return created


def _in_transaction(action):
    """Run `action` in a transaction; a clash with a simultaneous change is refused."""
    try:
        with transaction.atomic():
            return action()
    except IntegrityError:
        raise Refused("player_list_clash") from None


def _refuse_first(problems):
    """Refuse a typed player with the first problem (next to its field), listing them all."""
    first = problems[0]
    raise Refused(first.code, field=first.field, problems=problems, **first.params)


def typed_entry(*, surname: str | None, given_names: str, name: str | None, organisation: str) -> PlayerRow:
    """A typed player: the two parts of the name, or (`name`) a whole name split as a
    registration list writes it ("Anna Nowak")."""
    if surname is None:
        given_names, surname = split_name(name or "", comma=False)
    return PlayerRow(" ".join(given_names.split()), " ".join(surname.split()), " ".join(organisation.split()))


def add_player(
    tournament: Tournament,
    *,
    surname: str | None = None,
    given_names: str = "",
    name: str | None = None,
    organisation: str,
    present: bool | None = None,
    person: str | None = None,
    user: AbstractBaseUser | None,
) -> Player:
    """Register one player typed into the form; refused (next to the field) on any problem.
    `person`: who they are ("new", a person's pk, None: decide; see `people.chosen_person`).

    `present`: whether the player is here. By default a player added once round 1 has started
    is (they play from the next round: they came to play), one added before is not (the desk
    checks everyone in on the day)."""
    entry = typed_entry(surname=surname, given_names=given_names, name=name, organisation=organisation)

    def action():
        problems = registration_problems(tournament, entries=[entry])
        if problems:
            _refuse_first(problems)
        started = last_started_number(tournament)
        here = bool(started) if present is None else present
        arrival = {"present": here, "joins_from_round": started + 1 if here and started else None}
        return _register(tournament, [entry], [chosen_person(tournament, entry, person)], arrival)[0]

    return _in_transaction(action)


def import_players(tournament: Tournament, *, rows: Sequence[PlayerRow], user: AbstractBaseUser | None) -> list[Player]:
    """Register every row of a player file, or none when any row has a problem. Each row is the
    person it certainly is, else a new person (`selectors.namesakes` finds the unsure ones)."""

    def action():
        problems = registration_problems(tournament, entries=rows)
        if problems:
            raise Refused("nothing_imported", problems=problems)
        people: list[Person] = []
        for row in rows:
            people.append(matched_person(tournament, row, taken={person.pk for person in people}))
        created = _register(tournament, rows, people)
        log_change(tournament, user, "players_import", after={"players": len(created)})
        return created

    return _in_transaction(action)


def register_entry(
    tournament: Tournament, *, surname: str, given_names: str, organisation: str, user: AbstractBaseUser | None
) -> Player:
    """Register the player of a confirmed entry (SPEC §11) as a file's line is: the same checks,
    the person they certainly are or a new one, never asking. `organisation` is written as the
    tournament's organisation of the same name when there is one (Polish letters aside)."""
    for existing in Organisation.objects.filter(tournament=tournament):
        if match_key(existing.name) == match_key(organisation):
            organisation = existing.name
            break
    entry = typed_entry(surname=surname, given_names=given_names, name=None, organisation=organisation)

    def action():
        problems = registration_problems(tournament, entries=[entry])
        if problems:
            _refuse_first(problems)
        return _register(tournament, [entry], [matched_person(tournament, entry)])[0]

    return _in_transaction(action)


def edit_player(
    player: Player,
    *,
    surname: str | None = None,
    given_names: str = "",
    name: str | None = None,
    organisation: str,
    person: str | None = None,
    user: AbstractBaseUser | None,
) -> Player:
    """Rename a player or move them to another organisation (a free place in its quota). A new
    name (not only its case or diacritics) is matched to a person again, as `add_player` does."""
    tournament = player.tournament
    entry = typed_entry(surname=surname, given_names=given_names, name=name, organisation=organisation)

    def action():
        problems = registration_problems(tournament, entries=[entry], ignore=player)
        if problems:
            _refuse_first(problems)
        new_organisation = _organisation(tournament, entry.organisation)
        if new_organisation.pk != player.organisation_id:
            player.org_slot = _free_slot(tournament, new_organisation, ignore=player)
            player.organisation = new_organisation
        player.surname, player.given_names = entry.surname, entry.given_names
        earlier = player.person
        if earlier is None or earlier.name_key != match_key(entry.name):
            player.person = chosen_person(tournament, entry, person)
        player.save(update_fields=["surname", "given_names", "name", "organisation", "org_slot", "person"])
        if player.person != earlier:
            drop_if_unused(earlier)
        _drop_empty_organisations(tournament)
        return player

    return _in_transaction(action)


def _refuse_if_seated_in_a_draw(player):
    seat = Seat.objects.filter(player=player).select_related("round").first()
    if seat is not None:
        raise Refused("seated_in_draft", player=player.name, round=seat.round)


@transaction.atomic
def remove_player(player: Player, *, user: AbstractBaseUser | None) -> None:
    """Delete a player registered by mistake (and the person only they were); only before round 1
    starts (later: withdraw)."""
    tournament = player.tournament
    if last_started_number(tournament):
        raise Refused("remove_after_start")
    _refuse_if_seated_in_a_draw(player)
    log_change(tournament, user, "player_remove", before={"id": player.ext_id, "name": player.name})
    person = player.person
    player.delete()
    drop_if_unused(person)  # a person made by this mistaken registration alone
    _drop_empty_organisations(tournament)


@transaction.atomic
def set_present(player: Player, *, present: bool, user: AbstractBaseUser | None) -> Player:
    """Check a player in (or out). After round 1 has started a player who arrives joins from
    the next round; a player who has already played cannot be checked out (withdraw instead)."""
    started = last_started_number(player.tournament)
    if not present and Seat.objects.filter(player=player, round__number__lte=started).exists():
        raise Refused("already_played", player=player.name)
    if present and player.status != Player.Status.ACTIVE:
        raise Refused("player_not_active", player=player.name)
    player.present = present
    player.joins_from_round = started + 1 if present and started else None
    player.save(update_fields=["present", "joins_from_round"])
    return player


@transaction.atomic
def check_in_everyone(tournament: Tournament, *, user: AbstractBaseUser | None) -> int:
    """Check in every active player before round 1 starts; returns how many were checked in."""
    if last_started_number(tournament):
        raise Refused("check_in_after_start")
    return Player.objects.filter(tournament=tournament, status=Player.Status.ACTIVE, present=False).update(present=True)


def _change_status(player, before, after, refusal, action, user):
    if player.status != before:
        raise Refused(refusal, player=player.name)
    player.status = after
    player.save(update_fields=["status"])
    log_change(player.tournament, user, action, before={"id": player.ext_id, "status": before}, after={"status": after})
    return player


@transaction.atomic
def withdraw_player(player: Player, *, user: AbstractBaseUser | None) -> Player:
    """The player stops playing: not seated again, results kept, still ranked."""
    return _change_status(
        player, Player.Status.ACTIVE, Player.Status.WITHDRAWN, "player_not_active", "player_withdraw", user
    )


@transaction.atomic
def reinstate_player(player: Player, *, user: AbstractBaseUser | None) -> Player:
    """Undo a withdrawal: the player is seated again from the next draw."""
    return _change_status(
        player, Player.Status.WITHDRAWN, Player.Status.ACTIVE, "player_not_withdrawn", "player_reinstate", user
    )


def add_people(tournament: Tournament, *, people: Sequence[Person], user: AbstractBaseUser | None) -> list[Player]:
    """Register people from the host organisation's earlier tournaments, each with their club as
    organisation (the quota holds); all of them, or none when any has a problem."""
    if not people:
        raise Refused("people_none_chosen", field="people")

    def action():
        for person in people:
            if person.host_id != tournament.host_id or person.merged_into_id is not None:
                raise Refused("person_not_offered", field="people")
            if person.players.filter(tournament=tournament).exists():
                raise Refused("person_already_playing", field="people", name=person.name)
        entries = [PlayerRow(person.given_names, person.surname, person.club) for person in people]
        problems = registration_problems(tournament, entries=entries)
        if problems:
            raise Refused("nothing_added", field="people", problems=problems)
        started = last_started_number(tournament)
        arrival = {"present": bool(started), "joins_from_round": started + 1 if started else None}
        created = _register(tournament, entries, people, arrival)
        log_change(tournament, user, "players_add_people", after={"players": [p.ext_id for p in created]})
        return created

    return _in_transaction(action)


def use_person_spelling(player: Player, *, user: AbstractBaseUser | None) -> Player:
    """The player takes the spelling of the person they were recognised as (issue 48.2: typed
    "Lucja Wojcik", known as "Łucja Wójcik"), so this tournament's standings and diplomas print
    the name the season prints. Audited like a name correction; a second tap changes nothing."""

    def action():
        locked = (
            Player.objects.select_for_update(of=("self",)).select_related("person", "organisation").get(pk=player.pk)
        )
        person = locked.person
        if person is None or person.merged_into_id is not None:
            raise Refused("person_not_offered")
        if (locked.surname, locked.given_names) == (person.surname, person.given_names):
            return locked
        entry = PlayerRow(person.given_names, person.surname, locked.organisation.name)
        problems = registration_problems(locked.tournament, entries=[entry], ignore=locked)
        if problems:
            _refuse_first(problems)
        before = locked.name
        locked.surname, locked.given_names = person.surname, person.given_names
        locked.save(update_fields=["surname", "given_names", "name"])
        log_change(
            locked.tournament,
            user,
            "player_spelling",
            before={"player": locked.ext_id, "name": before},
            after={"player": locked.ext_id, "name": locked.name},
            reason="the spelling of the person known from earlier tournaments",
        )
        return locked

    return _in_transaction(action)
