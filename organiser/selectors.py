"""What the organiser's screens, exports and the draw read: who may be seated, the seating so
far and its quality report, a round's tables, the dashboard's next step and counts, the players
and organisations, the settings' limits, the last change a backup should hold."""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from collections.abc import Collection, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, Q, QuerySet
from django.http import Http404

from engine import seating
from engine.duplicates import duplicates_of
from scoring.models import ScoreSheet
from scoring.selectors.sheets import SeatedTable
from tournament import clock
from tournament.models import AuditEntry, Organisation, Person, Player, Round, Seat, Table, Tournament
from tournament.names import sorted_by_surname
from tournament.selectors import qualifying_over, round_times
from tournament.text import match_key

# Changes a backup snapshot should follow (see organiser.backups.snapshots).
RESULT_CHANGES = ("verify", "correct_game", "round_complete")


# ---------------------------------------------------------------- the draw


def eligible_players(tournament: Tournament, number: int) -> QuerySet[Player]:
    """Players to seat in round `number`: active, checked in, and joining by then."""
    return Player.objects.filter(tournament=tournament, status=Player.Status.ACTIVE, present=True).filter(
        Q(joins_from_round__isnull=True) | Q(joins_from_round__lte=number)
    )


def eligible_count(tournament: Tournament, number: int) -> int:
    return eligible_players(tournament, number).count()


def not_seated(tournament: Tournament, number: int) -> list[tuple[str, list[Player]]]:
    """The registered players round `number` will not seat, in surname order, by why:
    [(status, players)] for "absent" (active but not checked in), "withdrawn" and "disqualified",
    each only when someone is in it."""
    players = Player.objects.filter(tournament=tournament).exclude(
        Q(status=Player.Status.ACTIVE, present=True)
        & (Q(joins_from_round__isnull=True) | Q(joins_from_round__lte=number))
    )
    groups = defaultdict(list)
    for player in sorted_by_surname(players):
        groups["absent" if player.status == Player.Status.ACTIVE else player.status].append(player)
    return [
        (why, groups[why]) for why in ("absent", Player.Status.WITHDRAWN, Player.Status.DISQUALIFIED) if groups[why]
    ]


def qualifying_seatings(tournament: Tournament, up_to: int | None = None) -> dict[int, list[dict[str, int]]]:
    """{round number: [ {letter: player id}, … table 1 first ]} of the qualifying rounds."""
    seats = Seat.objects.filter(round__tournament=tournament, round__kind=Round.Kind.QUALIFYING)
    if up_to is not None:
        seats = seats.filter(round__number__lte=up_to)
    tables: defaultdict[tuple[int, int], dict[str, int]] = defaultdict(dict)
    for number, table, letter, player_id in seats.values_list(
        "round__number", "table__number", "letter", "player_id"
    ).order_by("round__number", "table__number", "letter"):
        tables[(number, table)][letter] = player_id
    rounds = defaultdict(list)
    for (number, _table), seated in sorted(tables.items()):
        rounds[number].append(seated)
    return dict(rounds)


# ---------------------------------------------------------------- a round


def with_players(tables: list[SeatedTable], players_by_pk: dict[int, Player]) -> list[tuple[Player, int, str]]:
    """Puts each seat's player object into `tables` (from `round_tables`); returns (player, table
    number, seat letter) of everyone seated."""
    seated = []
    for table in tables:
        table.players = [(seat.letter, players_by_pk[seat.player_id]) for seat in table.seats]
        seated += [(player, table.number, letter) for letter, player in table.players]
    return seated


def seating_of(round_: Round) -> list[tuple[Player, int, str]]:
    """(player, table number, seat letter) of everyone seated in the round, in one query."""
    seats = Seat.objects.filter(round=round_).select_related("player", "table")
    return [(seat.player, seat.table.number, seat.letter) for seat in seats]


def unverified_tables(round_: Round) -> list[int]:
    """The numbers of the round's tables whose sheet is not verified."""
    tables = Table.objects.filter(round=round_).exclude(sheet__state=ScoreSheet.State.VERIFIED)
    return list(tables.values_list("number", flat=True))


@dataclass
class Quality:
    """The quality report of a round's seating, with players instead of ids."""

    repeat_pairs: list = field(default_factory=list)  # (player, player, meetings) meeting again in this round
    repeat_pairs_total: int = 0
    worst_pair: int = 0
    three_table_repeats: list = field(default_factory=list)  # players at a 3-table again too early
    unbalanced: list = field(
        default_factory=list
    )  # players whose seat letters are not balanced (engine.seating.letters)


def round_quality(round_: Round, players_by_pk: Mapping[Any, Player]) -> Quality:
    """The engine's quality report for the qualifying rounds up to `round_`, this round's part named."""
    history = qualifying_seatings(round_.tournament, up_to=round_.number)
    rounds = [history[n] for n in sorted(history)]
    report = seating.quality_report(rounds)
    together: set[frozenset[Hashable]] = set()
    for seated in rounds[-1] if rounds else []:
        ids = list(seated.values())
        together.update(frozenset((a, b)) for i, a in enumerate(ids) for b in ids[i + 1 :])
    quality = Quality(repeat_pairs_total=report["repeat_pairs"], worst_pair=report["worst_pair"])
    for entry in report["pairs"]:
        a, b = entry["pair"]
        if frozenset((a, b)) in together:
            quality.repeat_pairs.append((players_by_pk[a], players_by_pk[b], entry["count"]))
    quality.three_table_repeats = sorted_by_surname(
        players_by_pk[entry["player"]] for entry in report["three_table_repeat_seats"] if entry["round"] == len(rounds)
    )
    quality.unbalanced = sorted_by_surname(
        players_by_pk[entry["player"]] for entry in report["players"] if not entry["balanced"]
    )
    return quality


def seating_warnings(round_: Round, seated: list[Player]) -> tuple[list[Player], list[Player]]:
    """For a round that has not started: (players who may play now but are not seated,
    seated players who may no longer play: withdrawn, disqualified or checked out)."""
    if round_.is_locked or round_.is_final:
        return [], []
    eligible = {p.pk: p for p in eligible_players(round_.tournament, round_.number)}
    seated_pks = {p.pk for p in seated}
    left_out = [p for pk, p in eligible.items() if pk not in seated_pks]
    cannot_play = [p for p in seated if p.pk not in eligible]
    return sorted_by_surname(left_out), sorted_by_surname(cannot_play)


def started_rounds(tournament: Tournament) -> list[Round]:
    """The rounds that have started, in order (each knows its tournament)."""
    return list(tournament.rounds.filter(state__in=[Round.State.STARTED, Round.State.COMPLETED]).order_by("number"))


# ---------------------------------------------------------------- the dashboard


def next_step(tournament: Tournament, *, latest: Round | None, waiting_tables: int) -> str:
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


@dataclass(frozen=True)
class FinalReleasePlan:
    """The dashboard's block on the final's results: the plan (`Tournament.final_release`), the
    other choice its button offers, whether the final has started and the public results are hidden."""

    until_ceremony: bool
    other: str
    started: bool
    hidden: bool


def final_release_plan(tournament: Tournament, rounds: list[Round]) -> FinalReleasePlan | None:
    """The plan for the final's results of a tournament with a final (`rounds`: its rounds, read already), else None."""
    if not tournament.final:
        return None
    until_ceremony = tournament.final_release == Tournament.FinalRelease.CEREMONY
    return FinalReleasePlan(
        until_ceremony=until_ceremony,
        other=Tournament.FinalRelease.LIVE if until_ceremony else Tournament.FinalRelease.CEREMONY,
        started=any(round_.is_final and round_.is_locked for round_ in rounds),
        hidden=tournament.visibility == Tournament.Visibility.HIDDEN,
    )


def player_counts(tournament: Tournament) -> tuple[Counter, int]:
    """(players by status, active players checked in), in one query."""
    rows = Player.objects.filter(tournament=tournament).values_list("status", "present")
    statuses: Counter[str] = Counter()
    present = 0
    for status, is_present in rows:
        statuses[status] += 1
        if status == Player.Status.ACTIVE and is_present:
            present += 1
    return statuses, present


# ---------------------------------------------------------------- players and settings


def players_with_organisations(tournament: Tournament) -> list[Player]:
    """The players by start number, each with their organisation."""
    return list(Player.objects.filter(tournament=tournament).select_related("organisation", "person"))


def players_by_surname(tournament: Tournament) -> list[Player]:
    """The players in surname order (Polish alphabetical), each with their organisation."""
    return sorted_by_surname(players_with_organisations(tournament))


def organisation_names(tournament: Tournament) -> QuerySet:
    """The organisations' names (read when the page shows them)."""
    return Organisation.objects.filter(tournament=tournament).values_list("name", flat=True)


def organisation_count(tournament: Tournament) -> int:
    return Organisation.objects.filter(tournament=tournament).count()


def settings_limits(tournament: Tournament) -> tuple[int, int, bool]:
    """What the data already fixes: the largest organisation, the qualifying rounds drawn, a final seated."""
    largest = (
        Player.objects.filter(tournament=tournament)
        .values("organisation")
        .annotate(n=Count("pk"))
        .aggregate(m=Max("n"))["m"]
        or 0
    )
    rounds = (
        Round.objects.filter(tournament=tournament, kind=Round.Kind.QUALIFYING).aggregate(m=Max("number"))["m"] or 0
    )
    has_final = Round.objects.filter(tournament=tournament, kind=Round.Kind.FINAL).exists()
    return largest, rounds, has_final


def last_result_change(tournament: Tournament) -> datetime.datetime | None:
    """When a result last changed (a sheet verified or corrected, a round completed), or None."""
    changes = AuditEntry.objects.filter(tournament=tournament, action__in=RESULT_CHANGES).order_by("-created_at")
    return changes.values_list("created_at", flat=True).first()


@dataclass
class TimetableLine:
    """One round in the day's timetable, as planned and as played."""

    number: int
    label: str
    planned_start: datetime.time | None
    planned_end: datetime.time | None
    length_minutes: int
    round: Round | None
    clock: clock.RoundClock | None
    still_playing: list[Table] = field(default_factory=list)


def day_timetable(
    tournament: Tournament, rounds: list[Round] | None = None, now: datetime.datetime | None = None
) -> list[TimetableLine]:
    """Every round of the day with its planned start and length, its actual start and end, and,
    once a started round's time is up, the tables still playing (no sheet submitted yet).
    `rounds`: the tournament's rounds when the caller has read them already."""
    read = rounds if rounds is not None else Round.objects.filter(tournament=tournament)
    by_number = {round_.number: round_ for round_ in read}
    times = round_times(tournament)
    lines = []
    for number in clock.timetable_numbers(tournament, list(by_number.values())):
        round_, line = by_number.get(number), times.get(number)
        length = clock.length_of(number, times)
        running = clock.clock_of(round_, length, now) if round_ is not None else None
        lines.append(
            TimetableLine(
                number,
                clock.round_label(tournament, number, round_),
                line.planned_start if line else None,
                clock.planned_end(tournament, line, length),
                length,
                round_,
                running,
                tables_still_playing(round_) if round_ is not None and running is not None and running.is_up else [],
            )
        )
    return lines


def tables_still_playing(round_: Round) -> list[Table]:
    """The round's tables whose score sheet is neither submitted nor verified, by number."""
    done = [ScoreSheet.State.SUBMITTED, ScoreSheet.State.VERIFIED]
    return list(Table.objects.filter(round=round_).exclude(sheet__state__in=done).order_by("number"))


# ---------------------------------------------------------------- people


def offered_people(host_id: int | None) -> QuerySet[Person]:
    """The host organisation's people still offered (not merged into another), each with how many
    tournaments they played (`tournament_count`)."""
    return Person.objects.filter(host=host_id, merged_into__isnull=True).annotate(
        tournament_count=Count("players__tournament", distinct=True)
    )


def people_matching(people: QuerySet[Person], search: str) -> QuerySet[Person]:
    """The people whose name holds every word of `search`, in any order ("nowak anna" finds Anna
    Nowak), case and Polish diacritics ignored."""
    for word in match_key(search).split():
        people = people.filter(name_key__contains=word)
    return people


def people_of(host_id: int | None, *, search: str = "", limit: int | None = 200) -> list[Person]:
    """The host organisation's people whose name holds `search` (case and Polish diacritics
    ignored), surnames in Polish order; at most `limit` (None: all)."""
    people = people_matching(offered_people(host_id), search).order_by("surname", "given_names", "pk")
    return sorted_by_surname(people[:limit])


def people_to_add(tournament: Tournament, *, search: str = "", limit: int | None = 50) -> list[Person]:
    """The host organisation's people a search finds who are not players of `tournament` yet."""
    people = people_matching(offered_people(tournament.host_id).exclude(players__tournament=tournament), search)
    return sorted_by_surname(people.order_by("surname", "pk")[:limit])


def person_candidates(host_id: int, name: str, *, tournament: Tournament | None = None) -> list[Person]:
    """The people of host organisation `host_id` a registration of `name` could be: the same name
    with case, spacing and Polish diacritics ignored, not merged into another, and not already a
    player of `tournament`; surnames first, with `tournament_count`."""
    people = Person.objects.filter(host=host_id, name_key=match_key(name), merged_into__isnull=True).annotate(
        tournament_count=Count("players__tournament", distinct=True)
    )
    if tournament is not None:
        people = people.exclude(players__tournament=tournament)
    return sorted_by_surname(people)


def person_or_404(host_id: int | None, pk: int) -> Person:
    """One of the host organisation's people (merged records too); another organisation's: 404."""
    person = Person.objects.filter(host=host_id, pk=pk).select_related("merged_into").first()
    if person is None:
        raise Http404("no such person")
    return person


def person_players(person: Person) -> list[Player]:
    """The players a person has been, with their tournaments, the earliest tournament first."""
    return list(person.players.select_related("tournament", "organisation").order_by("tournament__date", "pk"))


def merged_records(person: Person) -> list[Person]:
    """The records merged into `person` (the merge of each can be undone)."""
    return sorted_by_surname(person.merged_records.all())


def namesakes(players: list[Player]) -> set[int]:
    """The pks of `players` whose name another person of their host organisation also has: a
    registration that may be an earlier person (merge them on the people page if so)."""
    keys = {p.person.name_key for p in players if p.person is not None}
    people = Person.objects.filter(name_key__in=keys, merged_into__isnull=True)
    hosts = {p.person.host_id for p in players if p.person is not None}
    counts = Counter(people.filter(host__in=hosts).values_list("host", "name_key"))
    return {p.pk for p in players if p.person is not None and counts[(p.person.host_id, p.person.name_key)] > 1}


@dataclass(frozen=True)
class Recognised:
    """A player registered as a person the organisation knows from other tournaments (issue 48.2):
    "Lucja Wojcik → Łucja Wójcik, UTW Kraków, 1 earlier tournament"."""

    player: Player
    person_name: str  # the person's spelling
    club: str
    earlier: int  # the person's other tournaments

    @property
    def differs(self) -> bool:
        """Whether the player was typed otherwise than the person is spelled (a tap can fix it)."""
        return self.player.name != self.person_name


def recognised_players(tournament: Tournament, pks: Collection[int] | None = None) -> list[Recognised]:
    """The players of `tournament` (of `pks` only, when given) whose person played in another of
    the organisation's tournaments, surnames in order: one query."""
    players = Player.objects.filter(tournament=tournament, person__isnull=False)
    if pks is not None:
        players = players.filter(pk__in=list(pks))
    players = players.select_related("person").annotate(
        earlier=Count("person__players__tournament", filter=~Q(person__players__tournament=tournament), distinct=True)
    )
    found = [
        Recognised(player, person.name, person.club, player.earlier)
        for player in players.filter(earlier__gt=0)
        if (person := player.person) is not None
    ]
    return sorted_by_surname(found, lambda recognised: recognised.player)


MAX_COMPARED = 2000  # people of one organisation compared (the oldest records first): ~0.2 s of Python at most


@dataclass(frozen=True)
class Alike:
    """Another record a person may be (issue 48.3): its pk and its name, surname first."""

    pk: int
    name: str


def likely_duplicates(host_id: int | None) -> dict[int, list[Alike]]:
    """{person pk: the other records of the host organisation it may be} (the same words in
    another order, or one letter off: `engine.duplicates`), for people not merged into another.
    One query of at most MAX_COMPARED rows, compared in Python: cheap whatever the page shows.
    Only a flag: merging stays the organiser's choice on the person's page."""
    rows = (
        Person.objects.filter(host=host_id, merged_into__isnull=True)
        .order_by("pk")
        .values_list("pk", "surname", "given_names")[:MAX_COMPARED]
    )
    names, labels = {}, {}
    for pk, surname, given_names in rows:
        names[pk] = f"{given_names} {surname}"
        labels[pk] = f"{surname} {given_names}".strip()
    return {pk: [Alike(other, labels[other]) for other in others] for pk, others in duplicates_of(names).items()}


def last_merge(person: Person) -> AuditEntry | None:
    """The audit entry of `person`'s latest merge into another record (it lists the players moved)."""
    return (
        AuditEntry.objects.filter(host=person.host_id, action="person_merge", before__uid=str(person.uid))
        .order_by("-pk")
        .first()
    )
