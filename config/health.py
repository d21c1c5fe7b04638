"""`/healthz`: whether this app server can serve, for the proxy's health check and for monitors.

200 when one cheap query (`SELECT 1`) answers, 503 otherwise. It reads no session, sets no cookie,
writes nothing to the cache and renders no template: a check every half second costs one query.
"""

from __future__ import annotations

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache

from config.errors import RETRY_AFTER


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        response = HttpResponse("database unreachable\n", status=503, content_type="text/plain")
        response["Retry-After"] = str(RETRY_AFTER)
        return response
    return HttpResponse("ok\n", content_type="text/plain")
