"""The app's URLs plus three views that fail, for tests/config/test_unavailable.py."""

from django.db import OperationalError, connection
from django.urls import path

from config.urls import urlpatterns as app_urlpatterns


def database_away(request):
    raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")


def app_wrong(request):
    raise ValueError("a bug of the app")


def stuck_statement(request):
    with connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = 50")  # a request's bound, made small for the test
        cursor.execute("SELECT pg_sleep(2)")


urlpatterns = [
    path("test/database-away/", database_away),
    path("test/app-wrong/", app_wrong),
    path("test/stuck-statement/", stuck_statement),
    *app_urlpatterns,
]
handler500 = "config.errors.server_error"
