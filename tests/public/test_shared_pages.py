"""Public pages in the cache the app servers share (Redis): a page one server rendered is served by
another from one query; FLUSHALL or a dead Redis costs only a new rendering, never an error."""

import logging

import pytest
from django.test import Client

from tests.factories import build_hall
from tests.support.redis import redis_cache, redis_server  # noqa: F401

pytestmark = pytest.mark.django_db

PAGES = ["/t/test/standings/", "/t/test/", "/t/test/round/1/"]


def stored_keys(redis):
    return int(redis.command("DBSIZE").lstrip(":"))


@pytest.mark.parametrize("path", PAGES)
def test_a_page_rendered_on_one_server_is_served_by_another_from_redis(
    redis_cache, path, django_assert_num_queries, django_assert_max_num_queries
):
    build_hall()
    server_a, server_b = Client(), Client()
    first = server_a.get(path)
    assert first.status_code == 200 and stored_keys(redis_cache) > 0
    with django_assert_num_queries(1):  # the public version: the page itself comes from Redis
        again = server_b.get(path)
    assert again.status_code == 200 and again.content == first.content and again["ETag"] == first["ETag"]
    redis_cache.command("FLUSHALL")
    with django_assert_max_num_queries(9):  # rendered anew
        after_flush = server_b.get(path)
    assert after_flush.status_code == 200 and after_flush.content == first.content
    assert stored_keys(redis_cache) > 0  # and stored again


def test_with_redis_dead_the_pages_answer_the_same_and_one_warning_is_logged(redis_cache, caplog):
    build_hall()
    before = {path: Client().get(path) for path in PAGES}
    redis_cache.stop()
    caplog.set_level(logging.WARNING, logger="tournament.shared_cache")
    for path in PAGES:
        for htmx in ({}, {"HTTP_HX_REQUEST": "true"}):
            answer = Client().get(path, **htmx)
            assert answer.status_code == 200, path
        assert answer.content != b"" and Client().get(path).content == before[path].content
    warnings = [r for r in caplog.records if r.name == "tournament.shared_cache"]
    assert len(warnings) == 1 and "cannot be reached" in warnings[0].getMessage()


def test_a_signed_in_page_answers_with_redis_dead(redis_cache, organiser_client):
    build_hall()
    redis_cache.stop()
    assert organiser_client.get("/t/test/standings/").status_code == 200
