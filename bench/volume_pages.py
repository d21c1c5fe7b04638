"""`bench_volume.py`'s work once Django is set up on the throwaway database: build the services,
check them, measure the pages and print the report (see bench_volume.py)."""

import datetime
import io
import json
import os
import statistics
import time

from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from volume_copies import copy_template, rows_written

from accounts.models import Membership, Role
from organiser.demo import random_tournament
from organiser.interchange import export_tournament, import_tournament
from organiser.services import SeasonData, create_season
from public.versions import drop_triggers, install_triggers
from scoring.models import SeatResult
from scoring.selectors.standings import compute_standings
from tournament.models import AuditEntry, HostOrganisation, Season, Tournament
from tournament.models.hosts import listing_key

PLACINGS = "season-placings"  # the season's kept placings stay in the cache between two requests


def build(orgs, tournaments, players, rounds, *, first=0):
    """Organisations first … first + orgs - 1, each with its finished tournaments and a season of
    them; returns a line saying how long it took, and its parts. A bulk load: the public versions' triggers (a query for
    every row written) are dropped meanwhile and installed again after it, which gives every new
    tournament its version row (`public.versions.install_triggers`, as after a migration)."""
    started = time.perf_counter()
    drop_triggers()
    try:
        parts = _build(orgs, tournaments, players, rounds, first)
    finally:
        installing = time.perf_counter()
        install_triggers()
    seconds = {**parts, "triggers": time.perf_counter() - installing}
    return (
        f"built in {time.perf_counter() - started:.0f} s ("
        + ", ".join(f"{k} {v:.0f} s" for k, v in seconds.items())
        + ")"
    )


def _build(orgs, tournaments, players, rounds, first):
    """The first organisation's tournaments through the import, the others' copied from them
    (`volume_copies`), every season through `create_season`."""
    clock = [time.perf_counter()]

    def lap():
        clock.append(time.perf_counter())
        return clock[-1] - clock[-2]

    template = HostOrganisation.objects.create(name=f"Klub Seniora {first:03}", slug=f"klub-{first:03}")
    assert template.search_key == _host(first).search_key
    ranges = rows_written(lambda: _import_tournaments(template, tournaments, players, rounds))
    parts = {f"import of {tournaments}": lap()}
    hosts = HostOrganisation.objects.bulk_create(_host(h) for h in range(first + 1, first + orgs))
    if hosts:
        copy_template(ranges, template.pk, hosts, first + 1, _renamed(first))
    parts[f"{len(hosts)} copies"] = lap()
    for h, host in enumerate([template, *hosts], start=first):
        slugs = tuple(f"k{h:03}-t{n:02}" for n in range(tournaments))
        season = SeasonData(f"Sezon {h:03}", f"sezon-{h:03}", slugs, (25, 20, 16, 13, 11, 10, 9, 8), None)
        create_season(host, season, user=None)
    parts[f"{orgs} seasons"] = lap()
    return parts


def _host(h):
    """Organisation number h, its search key as `save` gives it (`bulk_create` does not call save)."""
    name, slug = f"Klub Seniora {h:03}", f"klub-{h:03}"
    return HostOrganisation(name=name, slug=slug, search_key=listing_key(name, slug))


def _import_tournaments(host, tournaments, players, rounds):
    h = int(host.slug.rsplit("-", 1)[1])
    for n in range(tournaments):
        data = random_tournament(players, rounds, slug=f"k{h:03}-t{n:02}", seed=h * 1000 + n)
        data["tournament"]["name"] = f"Turniej {n + 1} klubu {h:03}"
        data["tournament"]["date"] = (datetime.date(2025, 1, 4) + datetime.timedelta(days=14 * n)).isoformat()
        import_tournament(data, host=host)


def _renamed(template):
    """The copies' addresses and names: the template organisation's number replaced by theirs."""
    number = "lpad(h::text, 3, '0')"
    return {
        ("tournament.Tournament", "slug"): f"'k' || {number} || substr(\"slug\", 5)",
        ("tournament.Tournament", "name"): f"replace(\"name\", 'klubu {template:03}', 'klubu ' || {number})",
        ("tournament.Tournament", "search_key"): (
            f"replace(replace(\"search_key\", 'klubu {template:03}', 'klubu ' || {number}), "
            f"'k{template:03}-', 'k' || {number} || '-')"
        ),
    }


def ranking(tournament):
    return [(row.player.ext_id, row.rank) for row in compute_standings(tournament)]


def check(sample_slugs, players):
    """Standings of the sampled tournaments, an export -> import round trip, `season_standings`."""
    for slug in sample_slugs:
        tournament = Tournament.objects.get(slug=slug)
        original = ranking(tournament)
        assert len(original) == players and min(rank for _, rank in original) == 1, slug
        data = json.loads(json.dumps(export_tournament(tournament)))
        copy = import_tournament(data, host=tournament.host, slug=f"{slug}-copy")
        assert ranking(copy) == original, f"{slug}: the round trip changed the standings"
        copy.delete()
    out = io.StringIO()
    call_command("season_standings", "sezon-000", "--json", stdout=out)
    rows = json.loads(out.getvalue())
    assert rows and rows[0]["rank"] == 1 and rows[0]["points"] > 0, rows[:1]
    return f"checked: standings of {len(sample_slugs)} tournaments, their round trips, season_standings"


def check_copy(copy, template):
    """A copied tournament ranks its (copied) players as the imported one it was copied from."""
    ours, theirs = Tournament.objects.get(slug=copy), Tournament.objects.get(slug=template)
    assert ours.host_id != theirs.host_id and ours.uid != theirs.uid, (copy, template)
    assert ranking(ours) == ranking(theirs), f"{copy}: the copy's standings differ from {template}'s"
    for row in (ours, ours.host):
        assert row.search_key == listing_key(row.name, row.slug), (row, row.search_key)
    mine = set(ours.players.values_list("person__host", flat=True))
    assert mine == {ours.host_id}, f"{copy}: its players are not its organisation's people"
    return f"checked: {copy}'s standings are those of {template}, which it copies, with people of its own"


def sizes():
    return (
        f"{Tournament.objects.count()} tournaments, {Season.objects.count()} seasons, "
        f"{SeatResult.objects.count()} seat results, {AuditEntry.objects.count()} audit entries"
    )


def clear_but_placings():
    """Empty the shared cache (locmem here) but for the seasons' kept placings."""
    for key in list(getattr(cache, "_cache", {})):
        if PLACINGS not in key:
            cache.delete(key.split(":", 2)[-1])


def clients():
    superuser = User.objects.get_or_create(username="operator", defaults={"is_superuser": True, "is_staff": True})[0]
    organiser = User.objects.get_or_create(username="organiser-000")[0]
    Membership.objects.get_or_create(
        user=organiser, host=HostOrganisation.objects.get(slug="klub-000"), role=Role.ORGANISER
    )
    signed = {"superuser": Client(), "organiser": Client(), "visitor": Client()}
    signed["superuser"].force_login(superuser)
    signed["organiser"].force_login(organiser)
    return signed


def command(name, *args):
    def run(_client):
        call_command(name, *args, stdout=io.StringIO())

    return run


def get(path):
    def run(client):
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)

    return run


T = "k000-t00"  # the small organisation's first tournament
PAGES = [
    ("superuser's /staff/", "superuser", get("/staff/"), False),
    ("organiser's /staff/", "organiser", get("/staff/"), False),
    ("superuser's /accounts/", "superuser", get("/accounts/"), False),
    ("organiser's /accounts/", "organiser", get("/accounts/"), False),
    ("operator's organisations", "superuser", get("/accounts/operator/organisations/"), False),
    ("public home /", "visitor", get("/"), True),
    ("public home, search", "visitor", get("/?q=klub+001"), True),
    ("organisation page /o/", "visitor", get("/o/klub-000/"), True),
    ("season page /s/ (cold)", "visitor", get("/s/sezon-000/"), True),
    ("season_standings", "visitor", command("season_standings", "sezon-000", "--json"), True),
    ("tournament page /t/", "visitor", get(f"/t/{T}/"), True),
    ("standings page", "visitor", get(f"/t/{T}/standings/"), True),
    ("dashboard", "superuser", get(f"/staff/{T}/"), False),
    ("people page", "superuser", get(f"/staff/{T}/people/"), False),
    ("score sheet", "superuser", get(f"/referee/{T}/round/1/table/1/"), False),
    ("standings command", "visitor", command("standings", T), False),
]


def measure(signed, runs):
    """{page: (median seconds, queries)} of every page."""
    figures = {}
    for name, who, call, public in PAGES:
        client = signed[who]
        times = []
        for attempt in range(runs + 1):  # the first: a warm-up, not counted
            if public:
                clear_but_placings()
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                call(client)
                seconds = time.perf_counter() - started
            if attempt:
                times.append(seconds)
        figures[name] = (statistics.median(times), len(queries))
    return figures


def report(small, large, budget):
    """One line per page and the summary; True when every budget holds (budget None: the times are
    printed, only the queries are held)."""
    ok, worst, most = True, (0.0, ""), (0, "")
    for name in small:
        (t0, q0), (t1, q1) = small[name], large[name]
        ratio = t1 / t0
        holds = (budget is None or ratio <= budget) and q0 == q1
        ok &= holds
        worst, most = max(worst, (ratio, name)), max(most, (q1, name))
        print(
            f"  {name:<28} small {t0 * 1000:7.1f} ms {q0:3} queries | large {t1 * 1000:7.1f} ms {q1:3} queries"
            f" | {ratio:4.2f}x {'PASS' if holds else 'FAIL'}"
        )
    print(
        f"volume: {len(small)} pages, worst ratio {worst[0]:.2f}× ({worst[1]}), most queries {most[0]} ({most[1]}); "
        f"budgets {'' if budget is None else f'<= {budget}x and '}the same queries: {'PASS' if ok else 'FAIL'}"
    )
    return ok


def explain_organisers_list():
    """The plans of a page of the organiser's and of the superuser's tournament list (the past
    ones, by date: `tournament.listing.UpcomingThenPast`): index scans, never a scan of every
    tournament of the service."""
    from accounts.selectors import _open_to
    from tournament.listing import PAGE_SIZE, UpcomingThenPast

    ok = True
    for name in ("organiser-000", "operator"):
        user = User.objects.get(username=name)
        plan = UpcomingThenPast(_open_to(user, organiser=True).select_related("host")).past[:PAGE_SIZE].explain()
        scans_all = "Seq Scan on tournament_tournament" in plan
        print(f"  plan of {name}'s list: {'a scan of every tournament' if scans_all else 'index scans'}")
        ok &= not scans_all
    return ok


def settle():
    """The database's work after a build done before measuring (vacuum, statistics, a checkpoint, the
    written pages on the disk), so that no autovacuum of the new rows and no write-back of them
    shares the processors and the disk with the pages being timed."""
    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE)")
        cursor.execute("CHECKPOINT")
    os.sync()


def run_benchmark(size, small_size, budget):
    print(
        f"bench-volume: {connection.vendor}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; "
        f"{size.players} players x {size.rounds} rounds a tournament"
    )
    built = build(*small_size, size.players, size.rounds)
    print(f"  small: {small_size[0]} organisations x {small_size[1]} tournaments {built}")
    print(f"  {check(['k000-t00', 'k001-t02'], size.players)}")
    signed = clients()
    settle()
    small = measure(signed, size.runs)
    built = build(size.orgs, size.tournaments, size.players, size.rounds, first=small_size[0])
    print(f"  large: {size.orgs} more organisations x {size.tournaments} tournaments {built}")
    print(f"  {sizes()}")
    first, last = small_size[0], small_size[0] + size.orgs - 1
    print(f"  {check([f'k{last:03}-t00', f'k{first:03}-t{size.tournaments - 1:02}'], size.players)}")
    print(f"  {check_copy(f'k{last:03}-t{size.tournaments - 1:02}', f'k{first:03}-t{size.tournaments - 1:02}')}")
    call_command("season_standings", "sezon-000", "--json", stdout=io.StringIO())  # its placings kept again
    settle()
    large = measure(signed, size.runs)
    plan_ok = explain_organisers_list()
    return report(small, large, budget) and (plan_ok or size.orgs < 100)
