"""Staff sign-in, the staff home page and a friendly page for a failed CSRF check."""

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts import first_run
from accounts.roles import organises_a_host
from accounts.selectors import own_organised_hosts, tournaments_of
from tournament.listing import search_of


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs):
        """A fresh install has no organiser: the page leads to the first account's setup."""
        return {**super().get_context_data(**kwargs), "needs_setup": first_run.needs_setup()}


@login_required
def home(request):
    """Where a signed-in staff member lands: the tournaments they may work on, a page at a time
    with a search."""
    search = search_of(request.GET.get("q"))
    page = tournaments_of(request.user, search=search, number=request.GET.get("page"))
    return render(
        request,
        "accounts/home.html",
        {
            "page": page,
            "tournaments": page.object_list,
            "search": search,
            "can_create": organises_a_host(request.user),
            "hosts": own_organised_hosts(request.user),
        },
    )


def csrf_failure(request, reason=""):
    """An expired tablet session lands on the login page, not on a raw 403.

    A tablet's sign-in link carries its token in the path: that page is never put into a
    redirect (a `next=` would spread the token to the login page's address and history).
    """
    token_pages = (
        reverse("accounts:device_sign_in", kwargs={"token": "x"}).rsplit("x", 1)[0],
        reverse("accounts:invitation", kwargs={"invitation_token": "x"}).rsplit("x", 1)[0],
    )
    if request.path.startswith(token_pages):
        context = {"message": _("The page had expired. Open the sign-in link again (scan its code again).")}
        return render(request, "accounts/csrf_failure.html", context, status=403)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('accounts:login')}?next={request.path}")
    context = {"message": _("The page had expired. Please go back, reload it and try again.")}
    return render(request, "accounts/csrf_failure.html", context, status=403)
