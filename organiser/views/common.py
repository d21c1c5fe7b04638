"""What the organiser's views share: redirects after a POST (htmx too), the posted data, the
staff URLs and the seating methods' names."""

from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext_lazy
from django_htmx.http import HttpResponseClientRedirect

from organiser import services

METHOD_LABELS = {
    services.RANDOM: gettext_lazy("random draw"),
    "mixed": gettext_lazy("mixed"),
    "swiss": gettext_lazy("Swiss"),
    "manual": gettext_lazy("manual"),
    services.FINAL_METHOD: gettext_lazy("top 4 of the standings"),
}


def with_method_labels(rounds):
    for round_ in rounds:
        round_.method_label = METHOD_LABELS.get(round_.method, round_.method)
    return rounds


def redirect_after_post(request, url):
    """Redirect after a successful POST; an htmx request gets a client-side redirect."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def posted_data(request):
    """The POST data of a POST request (even when empty), else None for an unbound form."""
    return request.POST if request.method == "POST" else None


def staff_url(name, tournament, *args):
    return reverse(f"organiser:{name}", args=[tournament.slug, *args])


def confirmed(request, action):
    """Whether a POST that asks first carries its answer (`confirm` naming the action): the page
    asks on itself, never in a browser dialog, and the server changes nothing without the answer."""
    return request.POST.get("confirm") == action


def question(request, actions):
    """The action the page asks about now (`?confirm=<action>`), else None."""
    asked = request.GET.get("confirm")
    return asked if asked in actions else None
