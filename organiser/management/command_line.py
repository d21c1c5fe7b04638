"""What the export commands share: the tournament named on the command line, and a file
that cannot be written turned into a clear error (exit status 1, no traceback)."""

from pathlib import Path

from django.core.management.base import CommandError

from tournament.models import Tournament


def tournament_by_slug(slug):
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        raise CommandError(f"no tournament {slug!r}")
    return tournament


def write_file(out, data):
    try:
        Path(out).write_bytes(data)
    except OSError as error:
        raise CommandError(f"cannot write {out}: {error.strerror or error}") from error
