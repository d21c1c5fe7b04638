"""The cache the app servers share: made once across servers, bounded values, and an unreachable
Redis costs only speed (a miss, one warning a minute, never an exception)."""

import logging
import threading
import time

from tests.support.redis import redis_cache, redis_server  # noqa: F401
from tournament import shared_cache


def counted(value, seconds=0.0):
    """A maker of `value` that takes `seconds` and counts its calls."""
    calls = []

    def make():
        calls.append(threading.get_ident())
        time.sleep(seconds)
        return value

    return make, calls


def test_a_value_is_made_once_and_then_read_back(redis_cache):
    make, calls = counted(None)
    assert shared_cache.once("test:none", make, 60) is None
    assert shared_cache.once("test:none", make, 60) is None  # a made None is stored too
    assert len(calls) == 1 and redis_cache.command("EXISTS", ":1:test:none") == ":1"


def test_requests_at_once_wait_for_the_one_making_it(redis_cache):
    make, calls = counted(b"%PDF- one rendering", seconds=0.5)
    results = []

    def ask():
        results.append(shared_cache.once("test:pdf", make, 60, wait_seconds=5))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [b"%PDF- one rendering"] * 4 and len(calls) == 1
    assert redis_cache.command("EXISTS", ":1:test:pdf:making") == ":0"  # the lock is given back


def test_when_the_one_making_it_dies_the_others_make_it_after_the_lock_expires(redis_cache):
    shared_cache.add("test:pdf:making", True, 1)  # taken by a server killed since: expires in 1 s
    make, calls = counted(b"%PDF- made here")
    started = time.monotonic()
    assert shared_cache.once("test:pdf", make, 60, wait_seconds=1) == b"%PDF- made here"
    assert len(calls) == 1 and 0.9 <= time.monotonic() - started < 3
    assert shared_cache.get("test:pdf") == (b"%PDF- made here",)


def test_values_over_the_limit_are_not_stored(redis_cache):
    shared_cache.set("test:big", b"x" * (shared_cache.MAX_VALUE_BYTES + 1), 60)
    shared_cache.set("test:page", (b"x" * shared_cache.MAX_VALUE_BYTES, {}), 60)
    assert shared_cache.get("test:big") is None and shared_cache.get("test:page") is not None


def test_an_unreachable_cache_answers_as_a_miss_and_warns_once(redis_cache, caplog, monkeypatch):
    shared_cache.set("test:kept", "kept", 60)
    redis_cache.stop()
    caplog.set_level(logging.WARNING, logger="tournament.shared_cache")
    make, calls = counted("made")
    assert shared_cache.once("test:kept", make, 60, wait_seconds=5) == "made"
    assert shared_cache.once("test:kept", make, 60) == "made"
    assert shared_cache.add("test:lock", True, 5) is True
    shared_cache.delete("test:kept")
    shared_cache.clear()
    assert len(calls) == 2
    assert [r.getMessage()[:40] for r in caplog.records] == ["The shared cache cannot be reached (Erro"]
    later = time.monotonic() + shared_cache.RETRY_SECONDS + 1  # asked again after a while: still down
    monkeypatch.setattr(shared_cache.time, "monotonic", lambda: later)
    assert shared_cache.get("test:kept") is None and len(caplog.records) == 1  # one warning a minute


def test_sizes_count_bytes_and_text_inside_tuples_and_dicts():
    assert shared_cache.size((b"abc", {"ETag": "xy"})) == 3 + 4 + 2
    assert shared_cache.size(42) == 0
