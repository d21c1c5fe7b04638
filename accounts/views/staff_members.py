"""A tournament's referees and head referees, added and removed by its organiser (no admin needed).

The page only makes new accounts. Removing one asks first, on the page (`?remove=<grant>`, a
second step with "Yes, remove" and "Cancel", no script), and the answer offers an undo that
gives the same account the same role back (`?removed=<signed note>`, see accounts.services).
"""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.forms import StaffMemberForm, StaffRemovalForm
from accounts.models import Role
from accounts.roles import staff_required
from accounts.selectors import staff_grants
from accounts.services import add_staff_member, remove_staff_member, removed_grant, restore_staff_member
from tournament.refusals import Refused


@require_http_methods(["GET", "HEAD", "POST"])
@staff_required(Role.ORGANISER)
def staff_members(request, tournament):
    form = StaffMemberForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        data = form.cleaned_data
        try:
            user = add_staff_member(
                tournament,
                username=data["username"],
                role=data["role"],
                password=data["password"],
                added_by=request.user,
            )
        except Refused as refusal:
            form.add_error(refusal.field, refusal.message)
        else:
            messages.success(
                request,
                _("%(name)s can sign in now as %(role)s.")
                % {"name": user.get_username(), "role": dict(Role.choices)[data["role"]]},
            )
            return redirect("accounts:staff_members", slug=tournament.slug)
    grants = staff_grants(tournament)
    asked = request.GET.get("remove", "")
    undo = request.GET.get("removed", "")
    removed = removed_grant(tournament, undo) if undo else None
    context = {
        "tournament": tournament,
        "form": form,
        "grants": grants,
        "asking": next((grant for grant in grants if str(grant.pk) == asked), None),
        "removal_form": StaffRemovalForm(),
        "undo": undo,
        "removed": removed and {**removed, "role_label": dict(Role.choices)[removed["role"]]},
    }
    return render(request, "accounts/staff_members.html", context)


@require_POST
@staff_required(Role.ORGANISER)
def staff_member_remove(request, tournament, grant_id):
    page = reverse("accounts:staff_members", args=[tournament.slug])
    form = StaffRemovalForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        removed = remove_staff_member(tournament, grant_id=grant_id, removed_by=request.user, reason=reason)
    except Refused as refusal:
        messages.error(request, refusal.message)
        return redirect(page)
    if removed is None:
        return redirect(page)
    name, undo = removed
    messages.success(request, _("%(name)s no longer has a role in this tournament.") % {"name": name})
    return redirect(f"{page}?{urlencode({'removed': undo})}")


@require_POST
@staff_required(Role.ORGANISER)
def staff_member_restore(request, tournament):
    try:
        name = restore_staff_member(tournament, undo=request.POST.get("undo", ""), restored_by=request.user)
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        if name is not None:
            messages.success(request, _("%(name)s has their role in this tournament back.") % {"name": name})
    return redirect("accounts:staff_members", slug=tournament.slug)
