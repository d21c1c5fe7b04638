"""Doing things at the same moment: each call in a thread (and a database connection) of its own."""

import threading
from concurrent.futures import ThreadPoolExecutor

from django.db import connection


def at_once(call, count):
    """`call(i)` for each i in range(count), each in its own thread, all released at the same
    moment; their answers in order (an exception in a call is raised here)."""
    barrier = threading.Barrier(count)

    def one(index):
        try:
            barrier.wait(timeout=30)
            return call(index)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(one, range(count)))
