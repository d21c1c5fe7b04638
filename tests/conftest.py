import os

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import translation

from accounts.services import make_member
from engine.tests.examples import load_profile
from tests.support.isolation import error_log_at

DATABASE_FIXTURES = {"db", "transactional_db", "live_server"}
load_profile()  # make test: a quarter of each property test's examples; make test-full: all


def pytest_addoption(parser):
    parser.addoption(
        "--full",
        action="store_true",
        help="also run the heavy end-to-end walks marked full (make test leaves them out; make test-full runs them)",
    )


def leaves_out_the_full_tests(config):
    """The walks marked full run with --full, with a -m expression that names them (make test-full's
    `-m full`), or when the run names their file (pytest tests/system/test_e2e_tournament.py)."""
    return not config.getoption("--full") and "full" not in (config.option.markexpr or "")


def named_in_the_arguments(config, item):
    """The test's file is named on the command line (a folder is not enough)."""
    here = config.invocation_params.dir
    return any(item.path == (here / argument.split("::")[0]).resolve() for argument in config.args)


def keep_xdist_groups_together(config, items):
    """`--dist loadgroup` sends the tests of one xdist_group (a module's shared server) to one worker
    by the suffix "@group" that pytest-xdist 3.8 adds to their node ids, through an attribute that
    pytest 9 no longer reads: each test of the group then ran on any worker and started the module's
    server again. The suffix goes on where this pytest keeps the node id (a no-op once xdist does it)."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        mark = item.get_closest_marker("xdist_group")
        group = mark and (mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
        if group and not item.nodeid.endswith(f"@{group}"):
            suffixed = f"{item.nodeid}@{group}"
            if hasattr(item, "_id"):
                from _pytest.nodeid import coerce_node_id

                item._id = coerce_node_id(suffixed)
            else:
                item._nodeid = suffixed


def pytest_collection_modifyitems(config, items):
    """The tests that run servers and processes of their own (marked server or own_database) and
    use no test database go first, so that the suite's workers end together on short tests instead of
    one waiting for the other's last benchmark. pytest-django has already put the database tests
    before the transactional ones (a transactional test leaves the database empty); this keeps that
    order, and the tests that run on no test database may run at any point. The walks marked full
    are left out (deselected) but with --full, `-m full` or their file named (make test-full runs
    them). The tests marked postgresql are left out (deselected, not skipped) of a run on SQLite: .ci/run's PostgreSQL run
    has them."""

    def runs_its_own_processes(item):
        marked = item.get_closest_marker("server") or item.get_closest_marker("own_database")
        return (
            bool(marked) and not item.get_closest_marker("django_db") and not DATABASE_FIXTURES & set(item.fixturenames)
        )

    keep_xdist_groups_together(config, items)
    items.sort(key=lambda item: not runs_its_own_processes(item))
    if leaves_out_the_full_tests(config):
        left_out = [
            item for item in items if item.get_closest_marker("full") and not named_in_the_arguments(config, item)
        ]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [item for item in items if not item.get_closest_marker("full") or item not in left_out]
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        left_out = [item for item in items if item.get_closest_marker("postgresql")]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [item for item in items if not item.get_closest_marker("postgresql")]


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """On PostgreSQL, the test database's tables are kept out of autovacuum. Each test's rows are
    rolled back, so a vacuum between two tests records every table as empty over its pages
    (`reltuples` 0); the planner, trusting that, joins tables it takes for one row each by nested
    loops over sequential scans, and a bulk update joining four tables of a test's tournament ran
    2 to 10 s on a busy machine (the statement timeout). Unvacuumed, it estimates rows from a
    table's size, as on a server whose autovacuum sees its data."""
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
            for (table,) in cursor.fetchall():
                cursor.execute(f'ALTER TABLE "{table}" SET (autovacuum_enabled = false)')


@pytest.fixture(autouse=True)
def english(settings):
    """Tests assert messages in English (the msgids); Polish stays the product's default."""
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def no_venue_check(settings):
    """A saved venue address is not asked over the network whether it answers: tests that check
    it turn it on (tests/accounts/test_venue_check.py)."""
    settings.VENUE_CHECK_TIMEOUT = 0


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """A test's accounts are hashed in microseconds: the production hasher takes 0.3 s a password
    on purpose, which hundreds of test accounts and sign-ins would pay for nothing."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_public_lists():
    """The public lists' kept pages (public.freshness.listing_page) are one test's: a test's data
    rolled back sends no signal, so each test starts a list generation of its own."""
    from public.freshness import LIST_GENERATION_KEY
    from tournament import shared_cache

    shared_cache.delete(LIST_GENERATION_KEY)


@pytest.fixture(autouse=True)
def own_data_folder(settings, tmp_path_factory):
    """Each test its own data folder (VAR_DIR), snapshot folder and error log, so that no test
    sees what another wrote, whatever the order and however many workers run the suite."""
    folder = tmp_path_factory.mktemp("var")
    settings.VAR_DIR = folder
    settings.BACKUP_DIR = folder / "backups"
    settings.ERROR_LOG = folder / "log" / "errors.log"
    with error_log_at(settings.ERROR_LOG):
        yield folder


@pytest.fixture
def backup_dir(settings, tmp_path):
    """Automatic snapshots on (queued as tasks; `run_queued_tasks` writes them) into the test's own folder."""
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_SNAPSHOTS = "on"
    return settings.BACKUP_DIR


def _user(username, group=None, **kwargs):
    user = User.objects.create_user(username=username, password="secret-pass-123", **kwargs)
    if group:
        make_member(user, group)
    return user


@pytest.fixture
def organiser(db):
    return _user("organiser", "organiser")


@pytest.fixture
def head_referee(db):
    return _user("head", "head_referee")


@pytest.fixture
def referee(db):
    return _user("referee", "referee")


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def head_referee_client(client, head_referee):
    client.force_login(head_referee)
    return client


@pytest.fixture
def referee_client(client, referee):
    client.force_login(referee)
    return client


pytest_plugins = ["tests.support.browser"]
