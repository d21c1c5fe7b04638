"""State changes of a tournament run by the organiser: players, the draw, the round lifecycle.

Every function that writes runs in one transaction and raises `ActionRefused` (with a
message for the user) when the rules do not allow the change; nothing is written then.
The seating itself comes from the seating engine `engine.seating`.
"""

from __future__ import annotations

import secrets
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Role
from accounts.roles import has_role
from engine import seating
from scoring.models import AuditEntry, Game, ScoreSheet, TieDecision
from scoring.services import ensure_sheet, recompute_scores
from scoring.standings import compute_standings
from scoring.visibility import set_visibility
from tournament.importers import PlayerRow, Problem
from tournament.models import Organisation, Player, Round, Seat, Table, Tournament
from tournament.text import sorted_polish
from tournament.validation import FORBIDDEN_MESSAGE, MAX_NAME, forbidden_character, name_key

RANDOM = "random"
FINAL_METHOD = "final"
METHOD_CHOICES = (RANDOM, *Tournament.SeatingMethod.values)
FINAL_SIZE = 4
SCORING_FIELDS = (
    "joker_penalty", "opening_penalty_mode", "penalty_not_possible", "penalty_possible_not_done",
    "penalty_drawn_last_round", "penalty_first_move", "pool_exhausted_scoring", "big_point_unit",
    "big_point_places",
)


class ActionRefused(Exception):
    """A change the rules do not allow. `problems` lists each reason (with a line or field)."""

    def __init__(self, message, *, problems=(), field=None):
        super().__init__(message)
        self.message = message
        self.problems = list(problems)
        self.field = field


def _log(tournament, user, action, *, before=None, after=None, reason=""):
    AuditEntry.objects.create(
        tournament=tournament, user=user, action=action, before=before, after=after, reason=reason
    )


# ------------------------------------------------------------------ tournament settings

@transaction.atomic
def save_tournament(form, *, user):
    """Save a valid TournamentForm; rescore stored games when a scoring setting changed.

    Returns (tournament, number of seat results whose score changed).
    """
    tournament = form.instance
    creating = tournament.pk is None
    old_visibility = None if creating else Tournament.objects.get(pk=tournament.pk).visibility
    new_visibility = form.cleaned_data.get("visibility", tournament.visibility)
    if not creating:
        tournament.visibility = old_visibility  # changed below, through the audited path
    tournament = form.save()
    if creating:
        _log(tournament, user, "tournament_create", after={"name": tournament.name, "slug": tournament.slug})
        return tournament, 0
    if new_visibility != old_visibility:
        set_visibility(tournament, new_visibility, user=user, reason=_("changed in the tournament settings"))
    rescored = 0
    if any(name in form.changed_data for name in SCORING_FIELDS):
        rescored = recompute_scores(tournament)
        _log(tournament, user, "settings_rescore", after={name: form.cleaned_data[name] for name in SCORING_FIELDS})
    return tournament, rescored


def settings_limits(tournament):
    """What the data already fixes: the largest organisation and the qualifying rounds drawn."""
    largest = (
        Player.objects.filter(tournament=tournament).values("organisation").annotate(n=Count("pk"))
        .aggregate(m=Max("n"))["m"] or 0
    )
    rounds = Round.objects.filter(tournament=tournament, kind=Round.Kind.QUALIFYING).aggregate(m=Max("number"))["m"] or 0
    has_final = Round.objects.filter(tournament=tournament, kind=Round.Kind.FINAL).exists()
    return largest, rounds, has_final


# ------------------------------------------------------------------ rounds: reading

def latest_round(tournament):
    return Round.objects.filter(tournament=tournament).order_by("-number").first()


def last_started_number(tournament):
    """The number of the latest round that has started (0 before round 1 starts)."""
    started = Round.objects.filter(tournament=tournament, state__in=[Round.State.STARTED, Round.State.COMPLETED])
    return started.aggregate(n=Max("number"))["n"] or 0


def eligible_players(tournament, number):
    """Players to seat in round `number`: active, checked in, and joining by then."""
    return Player.objects.filter(tournament=tournament, status=Player.Status.ACTIVE, present=True).filter(
        Q(joins_from_round__isnull=True) | Q(joins_from_round__lte=number)
    )


def qualifying_seatings(tournament, up_to=None):
    """{round number: [ {letter: player id}, … table 1 first ]} of the qualifying rounds."""
    seats = Seat.objects.filter(round__tournament=tournament, round__kind=Round.Kind.QUALIFYING)
    if up_to is not None:
        seats = seats.filter(round__number__lte=up_to)
    tables = defaultdict(dict)
    for number, table, letter, player_id in seats.values_list(
        "round__number", "table__number", "letter", "player_id"
    ).order_by("round__number", "table__number", "letter"):
        tables[(number, table)][letter] = player_id
    rounds = defaultdict(list)
    for (number, _table), seated in sorted(tables.items()):
        rounds[number].append(seated)
    return dict(rounds)


def table_counts(count):
    """(4-tables, 3-tables) for `count` players who can be seated."""
    sizes = seating.table_sizes(count)
    return sizes.count(4), sizes.count(3)


def check_field_size(count):
    """Raise ActionRefused when `count` players cannot be seated at tables of 3 and 4."""
    try:
        seating.table_sizes(count)
    except seating.SeatingError as error:
        if error.code == "five_players":
            message = _(
                "5 players cannot be seated: tables are for 3 or 4 players. "
                "Check in one more player or withdraw one."
            )
        else:
            message = _("At least 3 active, checked-in players are needed to seat a round; there are %(count)s.") % {
                "count": count
            }
        raise ActionRefused(message) from None


# ------------------------------------------------------------------ rounds: the draw

def _store_tables(round_, tables):
    """Create tables, seats and an empty score sheet per table from the engine's seating."""
    created = Table.objects.bulk_create(Table(round=round_, number=i) for i in range(1, len(tables) + 1))
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, player_id=player_id, letter=letter)
        for table, seated in zip(created, tables)
        for letter, player_id in seated.items()
    )
    for table in created:
        ensure_sheet(table)


def next_round_number(tournament):
    """The number of the round to draw next; raises ActionRefused when none may be drawn."""
    latest = latest_round(tournament)
    if latest is not None and latest.is_final:
        raise ActionRefused(_("The final has been seated: there are no more rounds to draw."))
    if latest is not None and latest.state != Round.State.COMPLETED:
        raise ActionRefused(
            _("Round %(number)s is not complete yet. Draw the next round once every sheet is verified and the round is completed.")
            % {"number": latest.number}
        )
    number = latest.number + 1 if latest else 1
    if number > tournament.rounds_planned:
        if tournament.final:
            raise ActionRefused(_("All %(count)s qualifying rounds have been played: seat the final.") % {"count": tournament.rounds_planned})
        raise ActionRefused(_("All %(count)s qualifying rounds have been played.") % {"count": tournament.rounds_planned})
    return number


def draw_round(tournament, *, method=None, seed=None, user):
    """Draw the next qualifying round as a draft and return it.

    Round 1 is a random draw; later rounds use `method` (default: the tournament's
    seating method). "manual" starts from the engine's mixed draw for the organiser to edit
    by swaps. The seed is recorded so the draw can be repeated.
    """
    try:
        with transaction.atomic():
            return _draw_round(tournament, method=method, seed=seed, user=user)
    except IntegrityError:
        raise ActionRefused(_("Someone else drew this round at the same moment. Reload the page.")) from None


def _draw_round(tournament, *, method, seed, user):
    number = next_round_number(tournament)
    method = method or (RANDOM if number == 1 else tournament.seating_method)
    if method not in METHOD_CHOICES:
        raise ActionRefused(_("Unknown seating method."))
    if number == 1 and method != Tournament.SeatingMethod.MANUAL:
        method = RANDOM  # nothing to mix or rank before the first round
    players = list(eligible_players(tournament, number).values_list("pk", "organisation_id"))
    check_field_size(len(players))
    seed = (str(seed).strip() if seed is not None else "")[:64] or str(secrets.randbelow(10**9))
    engine_method = Tournament.SeatingMethod.MIXED if method == Tournament.SeatingMethod.MANUAL else method
    history = qualifying_seatings(tournament)
    standings = None
    if engine_method == Tournament.SeatingMethod.SWISS:
        standings = [row.player.pk for row in compute_standings(tournament)]
    organisations = dict(players) if tournament.players_per_organisation > 1 else None
    tables = seating.draw_round(
        [pk for pk, _org in players], [history[n] for n in sorted(history)], seed=seed, method=str(engine_method),
        standings=standings, organisations=organisations, remaining_rounds=tournament.rounds_planned - number,
    )
    round_ = Round.objects.create(tournament=tournament, number=number, seed=seed, method=str(method))
    _store_tables(round_, tables)
    _log(tournament, user, "round_draw", after={"round": number, "method": str(method), "seed": seed, "players": len(players)})
    return round_


def qualifying_over(tournament, latest):
    """Whether `latest` (the tournament's latest round) is its last planned qualifying round or
    later (the final comes after it)."""
    return latest.number >= tournament.rounds_planned


def final_cut_tie(rows):
    """The standings rows tied across the last seat of the final table (the whole tied group,
    whatever their status), or an empty list."""
    active = [row for row in rows if row.player.status == Player.Status.ACTIVE]
    if len(active) > FINAL_SIZE and active[FINAL_SIZE].rank == active[FINAL_SIZE - 1].rank:
        return [row for row in rows if row.rank == active[FINAL_SIZE - 1].rank]
    return []


def final_candidates(tournament):
    """The standings rows of the players who would sit at the final table, best first.

    Raises ActionRefused when a tie decides who plays in the final and nobody has decided it.
    """
    rows = compute_standings(tournament)
    active = [row for row in rows if row.player.status == Player.Status.ACTIVE]
    if len(active) < 3:
        raise ActionRefused(_("At least 3 active players are needed for the final."))
    tied = final_cut_tie(rows)
    if tied:
        raise ActionRefused(
            _("Place %(place)s is tied (%(names)s): the head referee must record a decision before the final is seated.")
            % {"place": FINAL_SIZE, "names": ", ".join(row.player.name for row in tied)}
        )
    return active[:FINAL_SIZE]


def ties_to_decide(tournament):
    """The ties the head referee must decide now (SPEC §4), each a list of tied standings rows.

    Once the last qualifying round is completed: while the final is to be seated, a tie across
    its last seat; when the results are final, a tie at a medal place. Before that, none: the
    places may still change, and a decision taken early would order a later tie unasked.
    """
    latest = latest_round(tournament)
    if latest is None or latest.state != Round.State.COMPLETED or not qualifying_over(tournament, latest):
        return []
    rows = compute_standings(tournament)
    if tournament.final and not latest.is_final:
        tied = final_cut_tie(rows)
        return [tied] if tied else []
    medal_ties = defaultdict(list)
    for row in rows:
        if row.unresolved_tie:
            medal_ties[row.rank].append(row)
    return list(medal_ties.values())


@transaction.atomic
def decide_tie(tournament, order, reason, *, user):
    """Record the head referee's order of tied players, best first (lot or play-off, SPEC §4).

    `order` lists the player ids (from the import file) of exactly one tie to decide now.
    """
    if not has_role(user, tournament, Role.HEAD_REFEREE):
        raise ActionRefused(_("Only the head referee can decide a tie."))
    reason = reason.strip()
    if not reason:
        raise ActionRefused(_("Say how the tie was decided, e.g. a lot drawn by the head referee."), field="reason")
    Tournament.objects.select_for_update().get(pk=tournament.pk)  # one decision at a time
    tie = next(
        (rows for rows in ties_to_decide(tournament) if sorted(row.player.ext_id for row in rows) == sorted(order)),
        None,
    )
    if tie is None:
        raise ActionRefused(_("These players are no longer tied on a place to decide. Reload the page."))
    names = {row.player.ext_id: row.player.name for row in tie}
    decision = TieDecision.objects.create(tournament=tournament, order=list(order), reason=reason, decided_by=user)
    _log(tournament, user, "tie_decision", reason=reason,
         before={"place": tie[0].rank_label}, after={"order": list(order), "names": [names[i] for i in order]})
    return decision


@transaction.atomic
def seat_final(tournament, *, user):
    """Seat the top active players of the standings at the final table: A = 1st, B = 2nd, …"""
    if not tournament.final:
        raise ActionRefused(_("This tournament has no final (see the settings)."))
    latest = latest_round(tournament)
    if latest is not None and latest.is_final:
        raise ActionRefused(_("The final has already been seated."))
    if latest is None or not qualifying_over(tournament, latest) or latest.state != Round.State.COMPLETED:
        raise ActionRefused(
            _("The final is seated after the last qualifying round (round %(number)s) is completed.")
            % {"number": tournament.rounds_planned}
        )
    finalists = final_candidates(tournament)
    round_ = Round.objects.create(
        tournament=tournament, number=latest.number + 1, kind=Round.Kind.FINAL, method=FINAL_METHOD
    )
    _store_tables(round_, [dict(zip("ABCD", (row.player.pk for row in finalists)))])
    _log(tournament, user, "final_seated", after={"players": [row.player.ext_id for row in finalists]})
    return round_


# ------------------------------------------------------------------ rounds: the lifecycle

def _move_state(round_, allowed, new_state, refusal, **extra):
    """Compare-and-swap the round's state, so two clicks cannot both succeed."""
    changed = Round.objects.filter(pk=round_.pk, state__in=allowed).update(state=new_state, **extra)
    if not changed:
        round_.refresh_from_db()
        raise ActionRefused(refusal % {"round": round_, "state": round_.get_state_display()})
    round_.refresh_from_db()


@transaction.atomic
def publish_round(round_, *, user):
    """Make a draft's seating public."""
    _move_state(round_, [Round.State.DRAFT], Round.State.PUBLISHED, _("%(round)s cannot be published: it is %(state)s."))
    _log(round_.tournament, user, "round_publish", after={"round": round_.number})
    return round_


@transaction.atomic
def start_round(round_, *, user):
    """Lock the seating and let play begin; freeze public results for the last round if set."""
    _move_state(
        round_, [Round.State.DRAFT, Round.State.PUBLISHED], Round.State.STARTED,
        _("%(round)s cannot be started: it is %(state)s."), started_at=timezone.now(),
    )
    tournament = round_.tournament
    _log(tournament, user, "round_start", after={"round": round_.number})
    last = round_.is_final or round_.number == tournament.rounds_planned
    if tournament.auto_freeze and last and tournament.visibility == Tournament.Visibility.LIVE:
        set_visibility(tournament, Tournament.Visibility.FROZEN, user=user, reason=_("the last round started"))
    return round_


def unverified_tables(round_):
    return list(
        Table.objects.filter(round=round_).exclude(sheet__state=ScoreSheet.State.VERIFIED).values_list("number", flat=True)
    )


@transaction.atomic
def complete_round(round_, *, user):
    """Close a started round once every score sheet is verified."""
    if round_.state == Round.State.STARTED:
        waiting = unverified_tables(round_)
        if waiting:
            raise ActionRefused(
                _("%(round)s cannot be completed: the sheets of tables %(tables)s are not verified yet.")
                % {"round": round_, "tables": ", ".join(map(str, waiting))}
            )
    _move_state(
        round_, [Round.State.STARTED], Round.State.COMPLETED, _("%(round)s cannot be completed: it is %(state)s."),
        completed_at=timezone.now(),
    )
    _log(round_.tournament, user, "round_complete", after={"round": round_.number})
    return round_


@transaction.atomic
def discard_round(round_, *, user):
    """Delete a round that has not started (to draw it again)."""
    if round_.is_locked:
        raise ActionRefused(_("%(round)s has started: its seating can no longer be discarded.") % {"round": round_})
    if Game.objects.filter(sheet__table__round=round_).exists():
        raise ActionRefused(_("%(round)s already has results entered: it cannot be discarded.") % {"round": round_})
    _log(round_.tournament, user, "round_discard", before={"round": round_.number, "seed": round_.seed, "method": round_.method})
    round_.delete()


@transaction.atomic
def swap_players(round_, player_a, player_b, *, user, reason=""):
    """Exchange the seats of two players in one round.

    Before the round starts any organiser may swap; once it has started only the head
    referee (or an organiser) may, with a reason; a completed round never changes.
    Every swap is written to the audit log.
    """
    round_ = Round.objects.select_related("tournament").get(pk=round_.pk)
    tournament = round_.tournament
    reason = (reason or "").strip()
    if round_.state == Round.State.COMPLETED:
        raise ActionRefused(_("%(round)s is completed: its seating can no longer change.") % {"round": round_})
    if round_.is_locked:
        if not has_role(user, tournament, Role.HEAD_REFEREE):
            raise ActionRefused(_("%(round)s has started: only the head referee may change its seating.") % {"round": round_})
        if not reason:
            raise ActionRefused(
                _("%(round)s has started: give the reason for changing its seating.") % {"round": round_}, field="reason"
            )
    elif not has_role(user, tournament, Role.ORGANISER):
        raise ActionRefused(_("Only the organiser may change a seating before the round starts."))
    if player_a.pk == player_b.pk:
        raise ActionRefused(_("Choose two different players."), field="player_b")
    seats = {s.player_id: s for s in Seat.objects.filter(round=round_, player__in=[player_a, player_b]).select_related("table")}
    for player, field_name in ((player_a, "player_a"), (player_b, "player_b")):
        if player.pk not in seats:
            raise ActionRefused(
                _("%(player)s is not seated in %(round)s.") % {"player": player.name, "round": round_}, field=field_name
            )
    seat_a, seat_b = seats[player_a.pk], seats[player_b.pk]

    def where(seat):
        return {"table": seat.table.number, "seat": seat.letter}

    before = {player_a.ext_id: where(seat_a), player_b.ext_id: where(seat_b)}
    Seat.objects.filter(pk__in=[seat_a.pk, seat_b.pk]).delete()
    Seat.objects.bulk_create([
        Seat(table=seat_a.table, round=round_, player=player_b, letter=seat_a.letter),
        Seat(table=seat_b.table, round=round_, player=player_a, letter=seat_b.letter),
    ])
    after = {player_a.ext_id: where(seat_b), player_b.ext_id: where(seat_a)}
    _log(tournament, user, "swap_seats", before=before, after=after, reason=reason)


# ------------------------------------------------------------------ rounds: views' data

def next_step(tournament, latest, waiting_tables):
    """What the organiser does next, as a code the dashboard turns into words and a button.

    `latest`: the latest round or None; `waiting_tables`: its tables not verified yet.
    """
    if latest is None:
        return "draw_first"
    if latest.state == Round.State.DRAFT:
        return "publish"
    if latest.state == Round.State.PUBLISHED:
        return "start"
    if latest.state == Round.State.STARTED:
        return "play" if waiting_tables else "complete"
    if latest.is_final:
        return "finished"
    if not qualifying_over(tournament, latest):
        return "draw"
    return "final" if tournament.final else "finished"


@dataclass
class Quality:
    """The quality report of a round's seating, with players instead of ids."""

    repeat_pairs: list = field(default_factory=list)  # (player, player, meetings) meeting again in this round
    repeat_pairs_total: int = 0
    worst_pair: int = 0
    three_table_repeats: list = field(default_factory=list)  # players at a 3-table again too early
    unbalanced: list = field(default_factory=list)  # players whose seat letters are not balanced (engine.seating.letters)


def round_quality(round_, players_by_pk):
    """The engine's quality report for the qualifying rounds up to `round_`, this round's part named."""
    history = qualifying_seatings(round_.tournament, up_to=round_.number)
    rounds = [history[n] for n in sorted(history)]
    report = seating.quality_report(rounds)
    together = set()
    for seated in rounds[-1] if rounds else []:
        ids = list(seated.values())
        together.update(frozenset((a, b)) for i, a in enumerate(ids) for b in ids[i + 1 :])
    quality = Quality(repeat_pairs_total=report["repeat_pairs"], worst_pair=report["worst_pair"])
    for entry in report["pairs"]:
        a, b = entry["pair"]
        if frozenset((a, b)) in together:
            quality.repeat_pairs.append((players_by_pk[a], players_by_pk[b], entry["count"]))
    quality.three_table_repeats = [
        players_by_pk[entry["player"]] for entry in report["three_table_repeat_seats"] if entry["round"] == len(rounds)
    ]
    quality.unbalanced = sorted_polish(
        (players_by_pk[entry["player"]] for entry in report["players"] if not entry["balanced"]), key=lambda p: p.name
    )
    return quality


def seating_warnings(round_, seated_players):
    """For a round that has not started: (players who may play now but are not seated,
    seated players who may no longer play: withdrawn, disqualified or checked out)."""
    if round_.is_locked or round_.is_final:
        return [], []
    eligible = {p.pk: p for p in eligible_players(round_.tournament, round_.number)}
    seated = {p.pk for p in seated_players}
    left_out = [p for pk, p in eligible.items() if pk not in seated]
    cannot_play = [p for p in seated_players if p.pk not in eligible]
    return sorted_polish(left_out, key=lambda p: p.name), sorted_polish(cannot_play, key=lambda p: p.name)


# ------------------------------------------------------------------ players

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
            problems.append(Problem(_("a name is longer than %(count)s characters.") % {"count": MAX_NAME}, entry.line))
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
            message = _("%(organisation)s already has %(registered)s players; the limit is %(quota)s per organisation.")
        else:
            values.update(count=len(lines), lines=", ".join(map(str, lines)))
            message = (
                _("%(organisation)s: %(count)s players on lines %(lines)s and %(registered)s already registered; the limit is %(quota)s per organisation.")
                if registered else
                _("%(organisation)s: %(count)s players on lines %(lines)s; the limit is %(quota)s per organisation.")
            )
        problems.append(Problem(message % values, lines[0], "organisation"))
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
            _("%(organisation)s already has %(registered)s players; the limit is %(quota)s per organisation.")
            % {"organisation": organisation.name, "registered": len(used), "quota": tournament.players_per_organisation},
            field="organisation",
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
        _log(tournament, user, "players_import", after={"players": len(created)})
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
    _log(tournament, user, "player_remove", before={"id": player.ext_id, "name": player.name})
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
    _log(player.tournament, user, action, before={"id": player.ext_id, "status": before}, after={"status": after})
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
