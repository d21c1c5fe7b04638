"""The worker: runs the tasks queued in the database (snapshots, batch PDFs, restores)."""

from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Run the queued tasks (snapshots, a round's PDFs, the results-site zip, restores) until stopped."

    def handle(self, *args, **options):
        call_command("db_worker", "--queue-name", "*")
