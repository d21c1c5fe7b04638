"""Many host organisations on one server: every staff door opens only onto the tournaments of the
organisations a person belongs to. Organisation A's organiser asking for B's tournament, or for
B's players, links, grants, snapshots or produced files by id, gets 404 and changes nothing of B's; a creation,
an import and a restore go into A."""

import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.urls import reverse

from accounts.models import Role, TournamentRole
from accounts.services import create_device_link, make_member
from organiser.backups.snapshots import take_snapshot
from organiser.interchange import dumps, export_tournament, import_tournament
from scoring.models import Card
from tests.factories import settings_data, table, tournament_data
from tests.support.tasks import run_queued_tasks
from tests.support.uploads import named, token_of
from tests.support.urls import url_patterns
from tournament.models import HostOrganisation, Person, Player, ProducedFile, Tournament

pytestmark = pytest.mark.django_db
STAFF_NAMESPACES = ("organiser:", "printing:", "scoring:", "accounts:")
B_NAME = "Puchar Klubu B"


def started(number=1):
    return {"number": number, "state": "started", "tables": [table(1, ["p1", "p2", "p3", "p4"])]}


@pytest.fixture
def two(backup_dir):
    """Host organisations A (tournament `alpha`) and B (`beta`, with a card, a referee, a tablet
    link, a snapshot and a file made by a task), and A's organiser."""
    HostOrganisation.objects.all().delete()  # the one a fresh database starts with
    a = HostOrganisation.objects.create(name="Federacja A", slug="fed-a")
    b = HostOrganisation.objects.create(name="Klub B", slug="klub-b")
    alpha = import_tournament(tournament_data(4, [started()]), host=a, slug="alpha")
    data = tournament_data(4, [started()])
    data["tournament"]["name"] = B_NAME
    beta = import_tournament(data, host=b, slug="beta")
    player = Player.objects.get(tournament=beta, ext_id="p1")
    Card.objects.create(tournament=beta, player=player, colour="warning", reason="untidy")
    grant = TournamentRole.objects.create(
        user=User.objects.create_user("referee-b"), tournament=beta, role=Role.REFEREE
    )
    link, _token = create_device_link(beta, label="Tablet B")
    snapshot = take_snapshot(beta, "round-1")
    made = ProducedFile.objects.create(
        tournament=beta,
        kind=ProducedFile.Kind.SCORE_SHEETS,
        content_key="round 1",
        source_path="/print/beta/round/1/score-sheets.pdf",
        status=ProducedFile.Status.DONE,
        content=b"%PDF-1.7 ",
        file_name="beta-round-1-score-sheets.pdf",
        content_type="application/pdf",
    )
    organiser = User.objects.create_user("organiser-a", password="secret-pass-123")
    make_member(organiser, Role.ORGANISER, a)
    b_values = {
        "slug": "beta",
        "number": 1,
        "round_number": 1,
        "table_number": 1,
        "game_number": 1,
        "pk": player.pk,
        "player_id": player.pk,
        "person_id": player.person_id,
        "link_id": link.pk,
        "grant_id": grant.pk,
        "name": snapshot.name,
        "action": "check-in",
        "file_id": made.pk,
    }
    return {"a": a, "b": b, "alpha": alpha, "beta": beta, "organiser": organiser, "b_values": b_values}


def b_state(beta):
    """Everything of B's tournament a door could change: its data, its grants, its links and its people."""
    beta.refresh_from_db()
    return (
        dumps(export_tournament(beta)),
        beta.host_id,
        list(TournamentRole.objects.filter(tournament=beta).values_list("pk", "user", "role")),
        list(beta.device_links.values_list("pk", "revoked_at")),
        list(Person.objects.filter(host=beta.host_id).values_list("pk", "surname", "club", "merged_into", "players")),
    )


def staff_doors():
    """(name, arguments) of every staff, referee, print, export, backup and help door that names
    a tournament (the public pages are public by design)."""
    for _route, name, params, _pattern in url_patterns():
        if name and name.startswith(STAFF_NAMESPACES) and "slug" in params and not name.startswith("printing:public"):
            yield name, params


def test_every_staff_door_to_another_organisations_tournament_is_404_and_changes_nothing(client, two):
    client.force_login(two["organiser"])
    before = b_state(two["beta"])
    wrong = []
    for name, params in staff_doors():
        url = reverse(name, kwargs={p: two["b_values"][p] for p in params})
        for method in ("get", "post"):
            status = getattr(client, method)(url).status_code
            if status not in (404, 405):
                wrong.append(f"{method.upper()} {url}: {status}")
    assert not wrong, "\n".join(wrong)
    assert b_state(two["beta"]) == before


def test_another_organisations_objects_by_id_under_ones_own_tournament_are_not_found(client, two):
    client.force_login(two["organiser"])
    before = b_state(two["beta"])
    own_tournament = {**two["b_values"], "slug": "alpha"}  # A's address, B's ids
    for name, params in staff_doors():
        url = reverse(name, kwargs={p: own_tournament[p] for p in params})
        client.post(url)
    assert b_state(two["beta"]) == before
    for name, key in (
        ("organiser:player", "pk"),
        ("scoring:player", "player_id"),
        ("organiser:person", "person_id"),
        ("organiser:produced_file", "file_id"),
        ("organiser:produced_file_download", "file_id"),
    ):
        assert client.get(reverse(name, kwargs={"slug": "alpha", key: own_tournament[key]})).status_code == 404


def test_the_lists_of_tournaments_show_only_ones_own_organisations(client, two):
    client.force_login(two["organiser"])
    for page in ("/staff/", "/accounts/"):
        html = client.get(page).content.decode()
        assert "/staff/alpha/" in html and "beta" not in html and B_NAME not in html, page


# ---------------------------------------------------------------- creating a tournament


def test_one_organisation_is_not_asked_for_and_the_tournament_goes_into_it(client, two):
    client.force_login(two["organiser"])
    assert 'name="host"' not in client.get("/staff/new/").content.decode()
    client.post("/staff/new/", settings_data(name="Puchar A", slug="puchar-a"))
    assert Tournament.objects.get(slug="puchar-a").host == two["a"]


def test_an_organiser_of_several_chooses_and_only_among_their_own(client, two):
    c = HostOrganisation.objects.create(name="Uniwersytet C", slug="utw-c")
    make_member(two["organiser"], Role.ORGANISER, c)
    client.force_login(two["organiser"])
    html = client.get("/staff/new/").content.decode()
    assert 'name="host"' in html and "Federacja A" in html and "Uniwersytet C" in html and "Klub B" not in html
    refused = client.post("/staff/new/", settings_data(name="Puchar", slug="puchar", host=str(two["b"].pk)))
    assert "Choose one of the organisations listed." in refused.content.decode()
    missing = client.post("/staff/new/", settings_data(name="Puchar", slug="puchar"))
    assert "Choose the organisation whose tournament this is." in missing.content.decode()
    assert not Tournament.objects.filter(slug="puchar").exists()
    client.post("/staff/new/", settings_data(name="Puchar", slug="puchar", host=str(c.pk)))
    assert Tournament.objects.get(slug="puchar").host == c


def test_another_organisations_address_is_refused_without_naming_it(client, two):
    client.force_login(two["organiser"])
    html = client.post("/staff/new/", settings_data(name="Puchar", slug="beta")).content.decode()
    assert "Another tournament already has this address" in html
    assert B_NAME not in html and "Klub B" not in html
    made = client.post("/staff/new/", settings_data(name="Beta", slug=""))
    assert made.status_code == 302 and Tournament.objects.get(name="Beta").slug == "beta-2"


# ---------------------------------------------------------------- restoring across organisations


@pytest.mark.django_db(transaction=True)
def test_a_backup_with_another_organisations_address_becomes_a_new_tournament_of_ones_own(client, two):
    data = json.loads(dumps(export_tournament(two["beta"])))
    data["tournament"]["name"] = "Kopia zapasowa"
    before = b_state(two["beta"])
    client.force_login(two["organiser"])
    html = client.post("/staff/new/restore/", {"file": named(json.dumps(data), "b.json")}).content.decode()
    assert "The address beta is taken on this server" in html and "<code>beta-2</code>" in html
    assert B_NAME not in html and "Klub B" not in html and "will be replaced" not in html
    client.post("/staff/new/restore/confirm/", {"token": token_of(html)})
    run_queued_tasks()
    restored = Tournament.objects.get(slug="beta-2")
    assert restored.host == two["a"] and restored.name == "Kopia zapasowa" and restored.players.count() == 4
    assert b_state(two["beta"]) == before


@pytest.mark.django_db(transaction=True)
def test_an_organiser_of_several_chooses_the_organisation_a_new_restore_goes_into(client, two):
    c = HostOrganisation.objects.create(name="Uniwersytet C", slug="utw-c")
    make_member(two["organiser"], Role.ORGANISER, c)
    client.force_login(two["organiser"])
    data = tournament_data(4)
    data["tournament"]["slug"] = "gamma"
    html = client.post("/staff/new/restore/", {"file": named(json.dumps(data), "g.json")}).content.decode()
    assert 'name="host"' in html and "Uniwersytet C" in html and "Klub B" not in html
    token = token_of(html)
    missing = client.post("/staff/new/restore/confirm/", {"token": token}).content.decode()
    assert "Choose the organisation whose tournament this is." in missing and not Tournament.objects.filter(
        slug="gamma"
    )
    client.post("/staff/new/restore/confirm/", {"token": token, "host": str(two["b"].pk)})
    run_queued_tasks()
    assert not Tournament.objects.filter(slug="gamma").exists()
    client.post("/staff/new/restore/confirm/", {"token": token, "host": str(c.pk)})
    run_queued_tasks()
    assert Tournament.objects.get(slug="gamma").host == c


def test_a_backup_of_another_organisations_tournament_on_ones_own_backups_page_names_only_the_file(client, two):
    client.force_login(two["organiser"])
    data = json.loads(dumps(export_tournament(two["beta"])))
    data["tournament"]["name"] = "Kopia zapasowa"
    html = client.post("/staff/alpha/backups/", {"file": named(json.dumps(data), "b.json")}).content.decode()
    assert "This is a backup of another tournament, “Kopia zapasowa” (beta)." in html and B_NAME not in html


# ---------------------------------------------------------------- the commands


def write_backup(tmp_path, slug):
    data = tournament_data(4)
    data["tournament"]["slug"] = slug
    path = tmp_path / f"{slug}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_import_tournament_goes_into_the_organisation_named(two, tmp_path):
    out = io.StringIO()
    call_command("import_tournament", write_backup(tmp_path, "z-pliku"), "--organisation", "klub-b", stdout=out)
    assert Tournament.objects.get(slug="z-pliku").host == two["b"]
    assert "Imported z-pliku into klub-b" in out.getvalue()


def test_import_tournament_names_the_choices_when_the_organisation_is_missing_or_unknown(two, tmp_path):
    with pytest.raises(
        CommandError, match=r"several host organisations: name one with --organisation \(fed-a, klub-b\)"
    ):
        call_command("import_tournament", write_backup(tmp_path, "z-pliku"))
    with pytest.raises(CommandError, match=r"no host organisation 'nowa'; the organisations are: fed-a, klub-b"):
        call_command("import_tournament", write_backup(tmp_path, "z-pliku"), "--organisation", "nowa")
    assert not Tournament.objects.filter(slug="z-pliku").exists()


def test_import_tournament_on_a_server_of_one_organisation_needs_no_option(db, tmp_path):
    HostOrganisation.objects.all().delete()
    only = HostOrganisation.objects.create(name="Jedyna", slug="jedyna")
    call_command("import_tournament", write_backup(tmp_path, "z-pliku"), stdout=io.StringIO())
    assert Tournament.objects.get(slug="z-pliku").host == only


def test_load_demo_goes_into_the_organisation_named(two, settings, tmp_path):
    settings.VAR_DIR = tmp_path
    with pytest.raises(CommandError, match="name one with --organisation"):
        call_command("load_demo", stdout=io.StringIO())
    call_command("load_demo", "--organisation", "fed-a", stdout=io.StringIO())
    demo = Tournament.objects.exclude(slug__in=["alpha", "beta"]).get()
    assert demo.host == two["a"]
    assert User.objects.get(username="organizator").memberships.get().host == two["a"]
