"""The operator's pages (the people who run the service, superusers): the host organisations, a
new one added with its organiser's one-time link to set a password (shown once). Others get 404.
Also the page where that link (Django's password-reset token) lets a person set a password."""

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from accounts.forms import LinkMailForm, OrganisationForm
from accounts.link_mail import mail_queued_message, mail_set_password, set_password_user
from accounts.selectors import hosts_page
from accounts.services import create_organisation, set_password_once, set_password_path
from accounts.venue import venue_address
from accounts.views.devices import REFERRER_POLICY
from tournament.listing import search_of
from tournament.refusals import Refused

NEW_ORGANISER_SESSION_KEY = "organisation_new"


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def organisations(request):
    if not (request.user.is_authenticated and request.user.is_active and request.user.is_superuser):
        raise Http404("not an operator")
    form = OrganisationForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        data = form.cleaned_data
        try:
            user = create_organisation(
                name=data["name"], slug=data["slug"], organiser=data["username"], by=request.user
            )
        except Refused as refusal:
            form.add_error(refusal.field, refusal.message)
        else:
            # Kept for the next page view only.
            request.session[NEW_ORGANISER_SESSION_KEY] = {
                "name": data["name"],
                "user": user.get_username(),
                "path": set_password_path(user),
            }
            return redirect("accounts:operator_organisations")
    created = request.session.pop(NEW_ORGANISER_SESSION_KEY, None)
    if created:
        created["link"] = venue_address(request).url(created["path"])
    search = search_of(request.GET.get("q"))
    page = hosts_page(search=search, number=request.GET.get("page"))
    context = {"form": form, "page": page, "hosts": page.object_list, "search": search, "created": created}
    response = render(request, "accounts/operator_organisations.html", context)
    response["Referrer-Policy"] = REFERRER_POLICY
    return response


@never_cache
@require_POST
def set_password_send(request):
    """ "Send by e-mail" beside a new organiser's set-password link: into the outbox, the link shown again."""
    if not (request.user.is_authenticated and request.user.is_active and request.user.is_superuser):
        raise Http404("not an operator")
    form = LinkMailForm(request.POST)
    path = request.POST.get("link", "")
    user = set_password_user(path)
    if user is None:
        messages.error(request, Refused("invitation_unusable").message)
        return redirect("accounts:operator_organisations")
    if form.is_valid():
        address = form.cleaned_data["email"]
        link = venue_address(request).url(path)
        try:
            mail_set_password(path=path, link=link, to=address, user=request.user)
        except Refused as refusal:
            messages.error(request, refusal.message)
        else:
            messages.success(request, mail_queued_message(address))
    else:
        messages.error(request, form.errors.get("email", [_("Enter an e-mail address such as name@example.pl.")])[0])
    request.session[NEW_ORGANISER_SESSION_KEY] = {
        "name": request.POST.get("name", "")[:200],
        "user": user.get_username(),
        "path": path,
    }
    return redirect("accounts:operator_organisations")


class SetPasswordView(auth_views.PasswordResetConfirmView):
    """A one-time link's page where a new organiser (or anyone the operator sends one) sets a password."""

    template_name = "accounts/set_password.html"
    success_url = reverse_lazy("accounts:login")

    def form_valid(self, form):
        """The password is set once: a link posted by several browsers at once sets it for the
        first; the others get the page of a used link."""
        if not set_password_once(
            form.user, checked_hash=self.user.password, password=form.cleaned_data["new_password1"]
        ):
            self.validlink = False  # the page of a used link
            return self.render_to_response(self.get_context_data(form=form), status=410)
        self.request.session.pop(auth_views.INTERNAL_RESET_SESSION_TOKEN, None)
        messages.success(self.request, _("Your password is set. Sign in with it."))
        return HttpResponseRedirect(self.get_success_url())
