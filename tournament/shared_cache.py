"""The cache the app servers share (settings.CACHES: Redis on a service, memory on a laptop).

Everything kept there can be made again (public pages, PDFs, a venue check), so losing the cache
costs only speed. After a restart or FLUSHALL the next request renders anew and stores it again.
While the cache cannot be reached (connection refused, a timeout), every call here answers as a
miss would (`get` gives None, `add` succeeds, `set` and `delete` do nothing), a warning is logged
at most once a minute, and the cache is left alone for RETRY_SECONDS, so that an unreachable Redis
does not cost every request its connection timeout. Pages and PDFs are then rendered by each
request, never a 500.

A value is stored only when its bytes and text total at most MAX_VALUE_BYTES (10 MiB: a round's
batch of score sheets is well under it); a larger one is made again each time. Values are pickled.

`once` makes a value once per key: with `wait_seconds` (for what is slow to make, the PDFs), the
first request takes a short lock (`add`, which Redis does atomically for every server) and the
others wait for its result, polling, up to `wait_seconds`; if the lock's holder dies or gives up,
the lock expires or goes and the waiters make the value themselves.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache import caches
from redis.exceptions import RedisError

T = TypeVar("T")

MAX_VALUE_BYTES = 10 * 1024 * 1024
RETRY_SECONDS = 5  # after a failure, the cache is not asked again for this long
WARN_EVERY_SECONDS = 60
POLL_SECONDS = 0.1  # how often a waiter looks for the value another server is making
UNREACHABLE = (RedisError, OSError)

log = logging.getLogger(__name__)
_outage = {"retry_at": -math.inf, "warned_at": -math.inf}


def _call(operation: str, answer_when_unreachable: Any, *args: Any) -> Any:
    now = time.monotonic()
    if now < _outage["retry_at"]:
        return answer_when_unreachable
    try:
        return getattr(caches["default"], operation)(*args)
    except UNREACHABLE as error:
        _outage["retry_at"] = now + RETRY_SECONDS
        if now - _outage["warned_at"] >= WARN_EVERY_SECONDS:
            _outage["warned_at"] = now
            log.warning("The shared cache cannot be reached (%s): pages and PDFs are made without it", error)
        return answer_when_unreachable


def forget_outage() -> None:
    """Ask the cache again at once (after a test has started it again)."""
    _outage.update(retry_at=-math.inf, warned_at=-math.inf)


def size(value: Any) -> int:
    """The bytes and characters of text in a value of bytes, text, tuples, lists and dicts."""
    if isinstance(value, bytes | str):
        return len(value)
    if isinstance(value, tuple | list):
        return sum(size(item) for item in value)
    if isinstance(value, dict):
        return sum(size(key) + size(item) for key, item in value.items())
    return 0


def get(key: str) -> Any:
    return _call("get", None, key)


def set(key: str, value: Any, timeout: float) -> None:
    if size(value) <= MAX_VALUE_BYTES:
        _call("set", None, key, value, timeout)


def get_many(keys: list[str]) -> dict[str, Any]:
    """{key: value} of the keys found, in one round trip ({} while the cache is unreachable)."""
    return dict(_call("get_many", {}, keys)) if keys else {}


def set_many(values: dict[str, Any], timeout: float) -> None:
    kept = {key: value for key, value in values.items() if size(value) <= MAX_VALUE_BYTES}
    if kept:
        _call("set_many", None, kept, timeout)


def add(key: str, value: Any, timeout: float) -> bool:
    """Store unless the key is there; True when stored (or the cache is unreachable)."""
    return bool(_call("add", True, key, value, timeout))


def delete(key: str) -> None:
    _call("delete", None, key)


def clear() -> None:
    _call("clear", None)


def once(key: str, make: Callable[[], T], timeout: float, *, wait_seconds: float = 0) -> T:
    """The value stored under `key`, else `make()`'s, stored for `timeout` seconds.

    With `wait_seconds`, while another request (on any server) makes it, wait for its result."""
    found = get(key)
    if found is not None:
        return found[0]
    lock = f"{key}:making"
    leading = not wait_seconds or add(lock, True, wait_seconds)
    if not leading:
        found = _wait_for(key, lock, wait_seconds)
        if found is not None:
            return found[0]
    try:
        if wait_seconds and leading:
            found = get(key)  # made by another request between the first look and the lock
            if found is not None:
                return found[0]
        value = make()
        set(key, (value,), timeout)  # in a tuple, so that a made None is stored too
    finally:
        if wait_seconds and leading:
            delete(lock)
    return value


def _wait_for(key: str, lock: str, seconds: float) -> tuple[Any] | None:
    """The stored value once it is there; None when the lock goes without it, or after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        found = get(key)
        if found is not None or get(lock) is None:
            return found
    return None
