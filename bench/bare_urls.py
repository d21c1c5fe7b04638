"""The application's URL map plus `/bench/ping`: a bare Django view to compare the leaderboard with."""

from django.http import HttpResponse
from django.urls import path

from config.urls import urlpatterns as app_urlpatterns


def ping(request):
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [path("bench/ping", ping), *app_urlpatterns]
