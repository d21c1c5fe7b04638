"""The queued tasks run in the test's own process, as the worker would run them."""

from django.core.management import call_command


def run_queued_tasks():
    """Run every task queued so far (and any they queue), then return: `manage.py db_worker --batch`."""
    call_command("db_worker", "--batch", "--no-startup-delay", "--queue-name", "*", verbosity=0)
