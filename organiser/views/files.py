"""A file made by a task (a round's batch PDFs, the results website): its progress page, which
polls itself with htmx (a reload without JavaScript), and the finished file."""

from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.views.decorators.http import require_safe

from accounts.models import Role
from accounts.roles import outranks, staff_required
from tournament.models import ProducedFile
from tournament.navigation import htmx_or_page, produced_file_response
from tournament.selectors import produced_file_or_404
from tournament.services.files import is_stale

Kind = ProducedFile.Kind
Status = ProducedFile.Status


def _file_of(request, tournament, file_id, **options):
    """The tournament's file `file_id` (404 for another's); the results website is the organiser's only."""
    produced = produced_file_or_404(tournament, file_id, **options)
    if produced.kind == Kind.RESULTS_SITE and not outranks(request.role, Role.ORGANISER):
        raise PermissionDenied
    return produced


def _state(produced):
    """queued, running, done or failed: a file whose worker stopped long ago counts as failed."""
    return Status.FAILED if is_stale(produced) else produced.status


@staff_required(Role.HEAD_REFEREE)
@require_safe
def produced_file(request, tournament, file_id):
    produced = _file_of(request, tournament, file_id)
    state = _state(produced)
    organiser = outranks(request.role, Role.ORGANISER)
    context = {
        "tournament": tournament,
        "file": produced,
        "state": state,
        "polling": state in ProducedFile.UNFINISHED,
        "stopped": state == Status.FAILED and produced.status != Status.FAILED,
        "unit": "pages" if produced.kind == Kind.RESULTS_SITE else "tables",
        "back": ("organiser:exports" if produced.kind == Kind.RESULTS_SITE else "printing:index")
        if organiser
        else None,
    }
    return htmx_or_page(
        request,
        lambda: render(request, "organiser/produced_file.html#progress", context),
        lambda: render(request, "organiser/produced_file.html", context),
    )


@staff_required(Role.HEAD_REFEREE)
@require_safe
def produced_file_download(request, tournament, file_id):
    """The finished file; before it is finished, its progress page."""
    produced = _file_of(request, tournament, file_id, with_content=True)
    if produced.status != Status.DONE:
        return redirect("organiser:produced_file", tournament.slug, produced.pk)
    return produced_file_response(produced)
