"""Backups without a terminal: the backups page (download, automatic snapshots, restore), and
restoring a tournament that does not exist here yet (from the list of tournaments).

Restoring is two steps: an upload (or a chosen snapshot) is checked and previewed, then the
organiser confirms, naming the tournament a restore would replace.
"""

import re
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from accounts.models import Role
from accounts.roles import organises_a_host, staff_required
from accounts.selectors import hosts_to_offer, organised_hosts_named
from organiser.backups import files, restore
from organiser.forms import BackupUploadForm, RestoreConfirmForm
from organiser.interchange import dumps, export_tournament
from organiser.selectors import last_result_change
from organiser.views.common import redirect_after_post
from tournament.refusals import Refused

FORM_OVERHEAD = 64 * 1024  # a multipart request's bytes besides the file
TRIGGER_RE = re.compile(r"^(verify|correction)-r(\d+)-t(\d+)$|^round-(\d+)$")
STALE_AFTER = 60  # seconds a snapshot may take after the change that triggered it


def trigger_label(trigger):
    match = TRIGGER_RE.match(trigger)
    if match and match.group(1) == "verify":
        return _("sheet verified: round %(round)s, table %(table)s") % {
            "round": match.group(2),
            "table": match.group(3),
        }
    if match and match.group(1):
        return _("correction: round %(round)s, table %(table)s") % {"round": match.group(2), "table": match.group(3)}
    if match:
        return _("round %(round)s completed") % {"round": match.group(4)}
    return {"before-restore": _("before a restore"), "restore": _("restored from a file")}.get(trigger, trigger)


def _warnings(tournament, snapshots):
    """Why the newest snapshot may not hold the latest results: a failed write, or none written."""
    found = []
    failure = files.last_failure(tournament)
    if failure:
        found.append(
            _("The automatic snapshot of %(when)s failed: %(error)s. Download a backup now and free some disk space.")
            % {"when": timezone.localtime(failure["when"]).strftime("%H:%M:%S"), "error": failure["error"]}
        )
    last_change = last_result_change(tournament)
    newest = snapshots[0].taken_at if snapshots else None
    if (
        not failure
        and last_change
        and (newest is None or newest < last_change)
        and (timezone.now() - last_change).total_seconds() > STALE_AFTER
    ):
        found.append(_("No automatic snapshot holds the latest verified results. Download a backup now."))
    return found


def _page(request, tournament, form=None):
    snapshots = files.snapshots(tournament)
    for snapshot in snapshots:
        snapshot.label = trigger_label(snapshot.trigger)
    return render(
        request,
        "organiser/backups.html",
        {
            "tournament": tournament,
            "snapshots": snapshots,
            "keep": files.KEEP,
            "file_copies": not files.hosted(),
            "form": form or BackupUploadForm(),
            "warnings": _warnings(tournament, snapshots),
        },
    )


class CsrfRejected(Exception):
    def __init__(self, response):
        super().__init__("CSRF check failed")
        self.response = response


def refused_form(message):
    """An upload form showing `message` next to its file field."""
    form = BackupUploadForm({})
    form.is_valid()
    form.errors["file"] = form.error_class([message])
    return form


def _received(request):
    """(form, text) of an upload whose size is checked before its body is read; on a problem the
    form carries it (next to the field) and text is None. The CSRF check follows the size check:
    a request failing it raises CsrfRejected with the usual answer."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > restore.MAX_UPLOAD + FORM_OVERHEAD:
        return refused_form(restore.too_large().message), None
    rejection = CsrfViewMiddleware(lambda r: None).process_view(request, None, (), {})
    if rejection is not None:
        raise CsrfRejected(rejection)
    form = BackupUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return form, None
    upload = form.cleaned_data["file"]
    try:
        if upload.size > restore.MAX_UPLOAD:
            raise restore.too_large()
        return form, restore.json_text(upload.read(restore.MAX_UPLOAD + 1))
    except Refused as refusal:
        form.add_error("file", refusal.message)
        return form, None


def _host_choice(user):
    """The confirmation form's choice of organisation: a list, or the address or name typed."""
    return {"hosts": hosts_to_offer(user), "find_host": partial(organised_hosts_named, user)}


def _preview(request, text, *, expected=None):
    """(the preview of a backup's text with its confirmation form, None), or (None, the problem)."""
    try:
        _data, plan = restore.checked(text)
    except Refused as refusal:
        return None, refusal.message
    shown = restore.preview(plan, user=request.user)
    if expected is not None and shown.file_slug != expected.slug:
        return None, _(
            "This is a backup of another tournament, “%(name)s” (%(slug)s). Restore it from the list of tournaments."
        ) % {"name": shown.name, "slug": shown.file_slug}
    token = restore.stage(text, user=request.user, scope=restore.scope_of(shown.replaces))
    confirm = RestoreConfirmForm(initial={"token": token}, replaces=shown.replaces, **_host_choice(request.user))
    return render(
        request, "organiser/backup_preview.html", {"preview": shown, "form": confirm, "tournament": expected}
    ), None


def _upload_or_preview(request, expected=None):
    """(a response to answer with, None) or (None, the upload form with its problem)."""
    try:
        form, text = _received(request)
    except CsrfRejected as rejected:
        return rejected.response, None
    if text is None:
        return None, form
    response, problem = _preview(request, text, expected=expected)
    return response, (refused_form(problem) if problem else None)


@csrf_exempt  # checked in `_received`, after the upload's size
@staff_required(Role.ORGANISER)
def backups(request, tournament):
    """The backups page; a POST uploads a backup of this tournament to restore (then a preview)."""
    if request.method != "POST":
        return _page(request, tournament)
    response, form = _upload_or_preview(request, expected=tournament)
    return response or _page(request, tournament, form)


@staff_required(Role.ORGANISER)
def backup_download(request, tournament):
    """The tournament's backup as it is now (the JSON export)."""
    response = HttpResponse(dumps(export_tournament(tournament)), content_type="application/json; charset=utf-8")
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-{stamp}.json"'
    return response


@staff_required(Role.ORGANISER)
def snapshot_download(request, tournament, name):
    snapshot = files.snapshot_named(tournament, name)
    if snapshot is None:
        raise Http404
    response = HttpResponse(bytes(snapshot.content), content_type="application/gzip")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-{name}"'
    return response


@require_POST
@staff_required(Role.ORGANISER)
def snapshot_restore(request, tournament, name):
    """Preview one of the automatic snapshots before restoring it."""
    snapshot = files.snapshot_named(tournament, name)
    if snapshot is None:
        raise Http404
    try:
        response, problem = _preview(request, restore.json_text(bytes(snapshot.content)), expected=tournament)
    except Refused as refusal:
        response, problem = None, refusal.message
    return response or _page(request, tournament, refused_form(problem))


@csrf_exempt  # checked in `_received`, after the upload's size
@login_required
def restore_new(request):
    """Restore a tournament from a backup file on the list of tournaments (any slug)."""
    if not organises_a_host(request.user):
        raise PermissionDenied
    response, form = _upload_or_preview(request) if request.method == "POST" else (None, BackupUploadForm())
    return response or render(request, "organiser/restore_new.html", {"form": form})


def _confirmed_already(request, token):
    messages.info(request, Refused("restore_already_confirmed").message)
    return redirect_after_post(request, reverse("organiser:restore_progress", args=[token]))


@require_POST
@login_required
def restore_confirm(request):
    """Queue the restore of the previewed backup once the organiser confirms (naming a tournament it
    replaces); then its progress page."""
    token = request.POST.get("token", "")
    try:
        _data, plan = restore.checked(restore.staged_text(token, user=request.user))
    except Refused as refusal:
        if refusal.code == "restore_already_confirmed":  # a second tap, maybe on another server
            return _confirmed_already(request, token)
        messages.error(request, refusal.message)
        return redirect_after_post(request, "/staff/")
    shown = restore.preview(plan, user=request.user)
    if not (shown.replaces or organises_a_host(request.user)):  # `preview` names only what the user organises
        raise PermissionDenied
    form = RestoreConfirmForm(request.POST, replaces=shown.replaces, **_host_choice(request.user))
    if form.is_valid():
        try:
            restore.confirm(token, user=request.user, replace=shown.replaces, host=form.chosen_host(), slug=shown.slug)
        except Refused as refusal:
            if refusal.code == "restore_already_confirmed":
                return _confirmed_already(request, token)
            form.add_error(None, refusal.message)
        else:
            return redirect_after_post(request, reverse("organiser:restore_progress", args=[token]))
    return render(
        request, "organiser/backup_preview.html", {"preview": shown, "form": form, "tournament": shown.replaces}
    )


@require_safe
@login_required
def restore_progress(request, token):
    """A confirmed restore: being restored (the page reloads itself), restored, or why not."""
    staged = restore.staged_row(token, user=request.user)
    if staged is None or staged.status == staged.Status.STAGED:
        raise Http404
    return render(
        request,
        "organiser/restore_progress.html",
        {
            "staged": staged,
            "refusal": restore.refusal_message(staged) if staged.status == staged.Status.FAILED else "",
            "tournament": staged.tournament,
        },
    )
