"""A host organisation's team, for its organisers: who holds which role for all its tournaments
and who for chosen tournaments; a member's role changed or taken away (with a reason, undone
from the answer, `?changed=<signed note>`); invitations made (the link shown once), revoked and
accepted (`/accounts/invitation/<token>/`).
"""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from accounts.forms import ALL_TOURNAMENTS, InvitationForm, LinkMailForm, NewAccountForm, TeamChangeForm
from accounts.link_mail import mail_invitation, mail_queued_message
from accounts.models import Role
from accounts.selectors import (
    chosen_grants,
    host_tournament_or_none,
    host_tournaments,
    invitation_by_token,
    invitation_stands,
    open_invitations,
    organised_host_or_404,
    team_hosts_page,
    team_log,
    team_members,
)
from accounts.team import (
    accept_invitation,
    accept_with_new_account,
    change_member,
    create_invitation,
    restore_member,
    revoke_invitation,
    undone_change,
)
from accounts.venue import venue_address
from accounts.views.devices import REFERRER_POLICY
from tournament.listing import search_of
from tournament.refusals import Refused

NEW_INVITATION_SESSION_KEY = "invitation_new"
ROLE_LABELS = dict(Role.choices)
LOG_LABELS = {
    "organisation_created": gettext_lazy("organisation added"),
    "team_role_changed": gettext_lazy("role changed"),
    "team_member_removed": gettext_lazy("removed from the team"),
    "team_member_restored": gettext_lazy("earlier role given back"),
    "invitation_created": gettext_lazy("invitation made"),
    "invitation_revoked": gettext_lazy("invitation revoked"),
    "invitation_accepted": gettext_lazy("invitation accepted"),
    # the organisation's people (organiser/services/people.py)
    "person_edit": gettext_lazy("person's name, club or year of birth corrected"),
    "person_merge": gettext_lazy("two records of one person merged"),
    "person_merge_undo": gettext_lazy("merge of two records undone"),
}


def _log_lines(host):
    """The team's latest changes in words: when, who, what, about whom, why."""
    lines = []
    for entry in team_log(host):
        about = entry.after or entry.before or {}
        lines.append(
            {
                "entry": entry,
                "what": LOG_LABELS.get(entry.action, entry.action),
                "whom": about.get("user") or (entry.before or {}).get("name", ""),
                "role": ROLE_LABELS.get(about.get("role"), ""),
            }
        )
    return lines


@require_http_methods(["GET", "HEAD"])
@login_required
def team_home(request):
    """The team page of the organisation the user organises; with several, a choice (a page at a
    time, with a search)."""
    search = search_of(request.GET.get("q"))
    page = team_hosts_page(request.user, search=search, number=request.GET.get("page"))
    if not page.object_list and not search:
        raise Http404("no organisation")
    if page.sole() and not search:
        return redirect("accounts:team", host=page.sole().slug)
    context = {"page": page, "hosts": page.object_list, "search": search}
    return render(request, "accounts/team_chooser.html", context)


@never_cache
@require_http_methods(["GET", "HEAD"])
@login_required
def team(request, host):
    host = organised_host_or_404(request.user, host)
    tournaments = host_tournaments(host)
    undo = request.GET.get("changed", "")
    changed = undone_change(host, undo) if undo else None
    members = team_members(host)
    asked = request.GET.get("member", "")
    shown = request.session.pop(NEW_INVITATION_SESSION_KEY, None)
    new_link = None
    if shown and shown.get("host") == host.pk:
        new_link = venue_address(request).url(
            reverse("accounts:invitation", kwargs={"invitation_token": shown["token"]})
        )
    context = {
        "host": host,
        "members": members,
        "grants": chosen_grants(host),
        "invitations": open_invitations(host),
        "asking": next((member for member in members if str(member.pk) == asked), None),
        "change_form": TeamChangeForm(),
        "invitation_form": InvitationForm(tournaments=tournaments),
        "undo": undo,
        "changed": changed and {**changed, "role_label": ROLE_LABELS[changed["role"]]},
        "new_link": new_link,
        "new_token": shown["token"] if new_link else "",
        "log": _log_lines(host),
    }
    response = render(request, "accounts/team.html", context)
    response["Referrer-Policy"] = REFERRER_POLICY
    return response


@require_POST
@login_required
def team_member(request, host, membership_id):
    host = organised_host_or_404(request.user, host)
    page = reverse("accounts:team", args=[host.slug])
    form = TeamChangeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the new role and write the reason."))
        return redirect(f"{page}?{urlencode({'member': membership_id})}#member-{membership_id}")
    try:
        changed = change_member(
            host,
            membership_id=membership_id,
            role=form.cleaned_data["role"],
            reason=form.cleaned_data["reason"],
            changed_by=request.user,
        )
    except Refused as refusal:
        messages.error(request, refusal.message)
        return redirect(page)
    if changed is None:
        return redirect(page)
    name, undo = changed
    messages.success(request, _("%(name)s: the change is saved.") % {"name": name})
    return redirect(f"{page}?{urlencode({'changed': undo})}")


@require_POST
@login_required
def team_restore(request, host):
    host = organised_host_or_404(request.user, host)
    try:
        name = restore_member(host, undo=request.POST.get("undo", ""), restored_by=request.user)
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        if name is not None:
            messages.success(request, _("%(name)s has their earlier role in the team back.") % {"name": name})
    return redirect("accounts:team", host=host.slug)


@require_POST
@login_required
def invitation_send(request, host):
    """ "Send by e-mail" beside a new invitation's link: into the outbox, and the link shown again."""
    host = organised_host_or_404(request.user, host)
    form = LinkMailForm(request.POST)
    token = request.POST.get("link", "")
    if form.is_valid():
        link = venue_address(request).url(reverse("accounts:invitation", kwargs={"invitation_token": token}))
        try:
            mail_invitation(host, token=token, link=link, to=form.cleaned_data["email"], user=request.user)
        except Refused as refusal:
            messages.error(request, refusal.message)
            return redirect("accounts:team", host=host.slug)
        messages.success(request, mail_queued_message(form.cleaned_data["email"]))
    else:
        messages.error(request, form.errors.get("email", [_("Enter an e-mail address such as name@example.pl.")])[0])
    request.session[NEW_INVITATION_SESSION_KEY] = {"host": host.pk, "token": token}
    return redirect(f"{reverse('accounts:team', args=[host.slug])}#new-invitation")


@require_POST
@login_required
def invite(request, host):
    host = organised_host_or_404(request.user, host)
    form = InvitationForm(request.POST, tournaments=host_tournaments(host))
    if not form.is_valid():
        messages.error(request, _("Choose the role and the tournaments."))
        return redirect("accounts:team", host=host.slug)
    chosen = form.cleaned_data["tournament"]
    tournament = None if chosen == ALL_TOURNAMENTS else host_tournament_or_none(host, chosen)
    invitation, token = create_invitation(
        host, role=form.cleaned_data["role"], tournament=tournament, created_by=request.user
    )
    # Kept for the next page view only: the token itself is never stored.
    request.session[NEW_INVITATION_SESSION_KEY] = {"host": host.pk, "token": token}
    return redirect(f"{reverse('accounts:team', args=[host.slug])}#new-invitation")


@require_POST
@login_required
def invitation_revoke(request, host, invitation_id):
    host = organised_host_or_404(request.user, host)
    if revoke_invitation(host, invitation_id=invitation_id, revoked_by=request.user):
        messages.success(request, _("The invitation is revoked: its link no longer works."))
    return redirect("accounts:team", host=host.slug)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def invitation(request, invitation_token):
    """The page an invitation's link opens: a new account, or (signed in) join with one's own."""
    token = invitation_token
    found = invitation_by_token(token)
    now = timezone.now()
    if found is None or not found.is_usable(now) or not invitation_stands(found):
        context = {"invitation": found, "expired": found is not None and found.expires_at <= now}
        response = render(request, "accounts/invitation_unusable.html", context, status=410)
        response["Referrer-Policy"] = REFERRER_POLICY
        return response
    signed_in = request.user.is_authenticated
    form = NewAccountForm(request.POST if request.method == "POST" and not signed_in else None)
    if request.method == "POST":
        try:
            if signed_in:
                user = request.user
                accept_invitation(token, user=user)
            elif form.is_valid():
                user = accept_with_new_account(
                    token, username=form.cleaned_data["username"], password=form.cleaned_data["password"]
                )
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            else:
                user = None
        except Refused as refusal:
            if refusal.field is None:
                return redirect("accounts:invitation", invitation_token=token)
            form.add_error(refusal.field, refusal.message)
        else:
            if user is not None:
                messages.success(request, _("Welcome to the team of %(host)s.") % {"host": found.host.name})
                return redirect("accounts:home")
    context = {"invitation": found, "form": form, "role_label": ROLE_LABELS[found.role]}
    response = render(request, "accounts/invitation.html", context)
    response["Referrer-Policy"] = REFERRER_POLICY
    return response
