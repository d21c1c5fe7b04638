"""Players: register (one by one or a whole file), edit, check in, withdraw, reinstate, remove.

Every check runs before anything is written; a clash with a simultaneous change is refused.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from organiser.importers import PlayerRow, Problem
from tournament.audit import log_change
from tournament.errors import ActionRefused
from tournament.models import Organisation, Player, Seat
from tournament.queries import last_started_number
from tournament.validation import FORBIDDEN_MESSAGE, MAX_NAME, forbidden_character, name_key


def quota_reached_message(organisation, registered, quota):
    return ngettext(
        "%(organisation)s already has %(count)s player; the limit is %(quota)s per organisation.",
        "%(organisation)s already has %(count)s players; the limit is %(quota)s per organisation.",
        registered,
    ) % {"organisation": organisation, "count": registered, "quota": quota}


def registration_problems(tournament, entries, *, ignore=None):
    """Problems with registering `entries` (PlayerRows) on top of the tournament's players
    (except `ignore`): empty or long names, duplicates in one organisation, the quota."""
    existing = Player.objects.filter(tournament=tournament).select_related("organisation")
    if ignore is not None:
        existing = existing.exclude(pk=ignore.pk)
    taken = {(name_key(p.organisation.name), name_key(p.name)) for p in existing}
    per_organisation = Counter(name_key(p.organisation.name) for p in existing)
    problems, seen, new_lines, display = [], {}, defaultdict(list), {}
    for entry in entries:
        if not entry.name:
            problems.append(Problem(_("the name is empty."), entry.line, "name"))
        if not entry.organisation:
            problems.append(Problem(_("the organisation is empty."), entry.line, "organisation"))
        if len(entry.name) > MAX_NAME or len(entry.organisation) > MAX_NAME:
            problems.append(Problem(ngettext(
                "a name is longer than %(count)s character.", "a name is longer than %(count)s characters.", MAX_NAME,
            ) % {"count": MAX_NAME}, entry.line))
        hidden = {name: forbidden_character(text) for name, text in (("name", entry.name), ("organisation", entry.organisation))}
        for column, code in hidden.items():
            if code:
                problems.append(Problem(FORBIDDEN_MESSAGE % {"code": code}, entry.line, column))
        if not entry.name or not entry.organisation or any(hidden.values()):
            continue
        organisation, name = name_key(entry.organisation), name_key(entry.name)
        display.setdefault(organisation, entry.organisation)
        if (organisation, name) in taken:
            problems.append(Problem(
                _("%(name)s is already registered for %(organisation)s.") % {"name": entry.name, "organisation": entry.organisation},
                entry.line, "name",
            ))
        elif (organisation, name) in seen:
            problems.append(Problem(
                _("%(name)s appears twice for %(organisation)s (also line %(other)s).")
                % {"name": entry.name, "organisation": entry.organisation, "other": seen[(organisation, name)]},
                entry.line, "name",
            ))
        seen.setdefault((organisation, name), entry.line)
        new_lines[organisation].append(entry.line)
    quota = tournament.players_per_organisation
    for organisation, lines in new_lines.items():
        registered = per_organisation[organisation]
        if registered + len(lines) <= quota:
            continue
        values = {"organisation": display[organisation], "quota": quota, "registered": registered}
        if lines == [None]:
            message = quota_reached_message(display[organisation], registered, quota)
        else:
            values.update(count=len(lines), lines=", ".join(map(str, lines)))
            message = (
                ngettext(
                    "%(organisation)s: %(count)s player on line %(lines)s and %(registered)s already registered; the limit is %(quota)s per organisation.",
                    "%(organisation)s: %(count)s players on lines %(lines)s and %(registered)s already registered; the limit is %(quota)s per organisation.",
                    len(lines),
                )
                if registered else
                ngettext(
                    "%(organisation)s: %(count)s player on line %(lines)s; the limit is %(quota)s per organisation.",
                    "%(organisation)s: %(count)s players on lines %(lines)s; the limit is %(quota)s per organisation.",
                    len(lines),
                )
            ) % values
        problems.append(Problem(message, lines[0], "organisation"))
    return sorted(problems, key=lambda p: p.line or 0)


def _organisation(tournament, name):
    """The tournament's organisation of that name (any case), created when new."""
    for organisation in Organisation.objects.filter(tournament=tournament):
        if name_key(organisation.name) == name_key(name):
            return organisation
    return Organisation.objects.create(tournament=tournament, name=" ".join(name.split()))


def _free_slot(tournament, organisation, ignore=None):
    """The lowest free place 1…quota in the organisation (the database keeps places unique)."""
    others = Player.objects.filter(organisation=organisation).exclude(pk=getattr(ignore, "pk", None))
    used = set(others.values_list("org_slot", flat=True))
    free = [slot for slot in range(1, tournament.players_per_organisation + 1) if slot not in used]
    if not free:
        raise ActionRefused(
            quota_reached_message(organisation.name, len(used), tournament.players_per_organisation), field="organisation",
        )
    return free[0]


def _drop_empty_organisations(tournament):
    Organisation.objects.filter(tournament=tournament, players__isnull=True).delete()


def _register(tournament, entries):
    """Create players after the checks passed; the start number and id continue the list."""
    last = Player.objects.filter(tournament=tournament).aggregate(n=Max("start_number"))["n"] or 0
    taken_ids = set(Player.objects.filter(tournament=tournament).values_list("ext_id", flat=True))
    created = []
    for number, entry in enumerate(entries, start=last + 1):
        organisation = _organisation(tournament, entry.organisation)
        ext_id = f"p{number}"
        while ext_id in taken_ids:
            ext_id += "x"
        taken_ids.add(ext_id)
        created.append(Player.objects.create(
            tournament=tournament, organisation=organisation, name=" ".join(entry.name.split()), start_number=number,
            ext_id=ext_id, org_slot=_free_slot(tournament, organisation),
        ))
    return created


def _in_transaction(action):
    """Run `action` in a transaction; a clash with a simultaneous change becomes ActionRefused."""
    try:
        with transaction.atomic():
            return action()
    except IntegrityError:
        raise ActionRefused(_("Someone else changed the player list at the same moment. Please try again.")) from None


def add_player(tournament, name, organisation, *, user):
    entry = PlayerRow(name.strip(), organisation.strip())

    def action():
        problems = registration_problems(tournament, [entry])
        if problems:
            raise ActionRefused(problems[0].message, problems=problems, field=problems[0].field)
        return _register(tournament, [entry])[0]

    return _in_transaction(action)


def import_players(tournament, rows, *, user):
    """Register every row of a player file, or none when any row has a problem."""
    def action():
        problems = registration_problems(tournament, rows)
        if problems:
            raise ActionRefused(_("Nothing was imported."), problems=problems)
        created = _register(tournament, rows)
        log_change(tournament, user, "players_import", after={"players": len(created)})
        return created

    return _in_transaction(action)


def edit_player(player, name, organisation, *, user):
    tournament = player.tournament
    entry = PlayerRow(name.strip(), organisation.strip())

    def action():
        problems = registration_problems(tournament, [entry], ignore=player)
        if problems:
            raise ActionRefused(problems[0].message, problems=problems, field=problems[0].field)
        new_organisation = _organisation(tournament, entry.organisation)
        if new_organisation.pk != player.organisation_id:
            player.org_slot = _free_slot(tournament, new_organisation, ignore=player)
            player.organisation = new_organisation
        player.name = " ".join(entry.name.split())
        player.save(update_fields=["name", "organisation", "org_slot"])
        _drop_empty_organisations(tournament)
        return player

    return _in_transaction(action)


def _refuse_if_seated_in_a_draw(player):
    seat = Seat.objects.filter(player=player).select_related("round").first()
    if seat is not None:
        raise ActionRefused(
            _("%(player)s is seated in %(round)s, which is drawn but not started. Discard that draw first.")
            % {"player": player.name, "round": seat.round}
        )


@transaction.atomic
def remove_player(player, *, user):
    """Delete a player registered by mistake; only before round 1 starts (later: withdraw)."""
    tournament = player.tournament
    if last_started_number(tournament):
        raise ActionRefused(_("The tournament has started: withdraw the player instead of removing them."))
    _refuse_if_seated_in_a_draw(player)
    log_change(tournament, user, "player_remove", before={"id": player.ext_id, "name": player.name})
    player.delete()
    _drop_empty_organisations(tournament)


@transaction.atomic
def set_present(player, present, *, user):
    """Check a player in (or out). After round 1 has started a player who arrives joins from
    the next round; a player who has already played cannot be checked out (withdraw instead)."""
    started = last_started_number(player.tournament)
    if not present and Seat.objects.filter(player=player, round__number__lte=started).exists():
        raise ActionRefused(_("%(player)s has already played: withdraw them instead.") % {"player": player.name})
    if present and player.status != Player.Status.ACTIVE:
        raise ActionRefused(_("%(player)s is not active.") % {"player": player.name})
    player.present = present
    player.joins_from_round = started + 1 if present and started else None
    player.save(update_fields=["present", "joins_from_round"])
    return player


@transaction.atomic
def check_in_everyone(tournament, *, user):
    """Check in every active player before round 1 starts; returns how many were checked in."""
    if last_started_number(tournament):
        raise ActionRefused(_("Round 1 has started: check in late arrivals one by one."))
    return Player.objects.filter(tournament=tournament, status=Player.Status.ACTIVE, present=False).update(present=True)


def _change_status(player, before, after, refusal, action, user):
    if player.status != before:
        raise ActionRefused(refusal % {"player": player.name})
    player.status = after
    player.save(update_fields=["status"])
    log_change(player.tournament, user, action, before={"id": player.ext_id, "status": before}, after={"status": after})
    return player


@transaction.atomic
def withdraw_player(player, *, user):
    """The player stops playing: not seated again, results kept, still ranked."""
    return _change_status(
        player, Player.Status.ACTIVE, Player.Status.WITHDRAWN, _("%(player)s is not active."), "player_withdraw", user
    )


@transaction.atomic
def reinstate_player(player, *, user):
    """Undo a withdrawal: the player is seated again from the next draw."""
    return _change_status(
        player, Player.Status.WITHDRAWN, Player.Status.ACTIVE, _("%(player)s is not withdrawn."), "player_reinstate", user
    )
