"""A tournament's referees and head referees, added and removed by its organiser (no admin needed)."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.forms import StaffMemberForm
from accounts.models import Role
from accounts.roles import staff_required
from accounts.selectors import staff_grants
from accounts.services import add_staff_member, remove_staff_member
from tournament.refusals import Refused


@require_http_methods(["GET", "HEAD", "POST"])
@staff_required(Role.ORGANISER)
def staff_members(request, tournament):
    form = StaffMemberForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        data = form.cleaned_data
        try:
            user, created = add_staff_member(tournament, username=data["username"], role=data["role"],
                                             password=data["password"], added_by=request.user)
        except Refused as refusal:
            form.add_error(refusal.field, refusal.message)
        else:
            role = dict(Role.choices)[data["role"]]
            text = (_("%(name)s can sign in now as %(role)s.") if created
                    else _("%(name)s already had an account (its password is unchanged) and is now %(role)s."))
            messages.success(request, text % {"name": user.get_username(), "role": role})
            return redirect("accounts:staff_members", slug=tournament.slug)
    context = {"tournament": tournament, "form": form, "grants": staff_grants(tournament)}
    return render(request, "accounts/staff_members.html", context)


@require_POST
@staff_required(Role.ORGANISER)
def staff_member_remove(request, tournament, grant_id):
    name = remove_staff_member(tournament, grant_id=grant_id, removed_by=request.user)
    if name is not None:
        messages.success(request, _("%(name)s no longer has a role in this tournament.") % {"name": name})
    return redirect("accounts:staff_members", slug=tournament.slug)
