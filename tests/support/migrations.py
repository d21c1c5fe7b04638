"""Migrating the test database to chosen migrations and back, for the tests of a data migration."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets):
    """Migrate to `targets` ((app, migration) pairs; (app, None) unapplies all of an app's); the
    apps' models as they are there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state([target for target in targets if target[1] is not None]).apps


def latest():
    """Every app's last migration."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()
