"""A burst of sign-ins cannot starve the tablets (config/passwords.py): at most one password check
runs at a time per server process, and a tablet's save stays within the hall's budget while ten
staff sign in at once with the production hasher (PBKDF2, 1,000,000 iterations)."""

import statistics
import threading
import time

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher, make_password
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from config.passwords import BoundedPBKDF2PasswordHasher
from tests.factories import build, example_one, sheet_url, started_round, table

PRODUCTION_HASHERS = ["config.passwords.BoundedPBKDF2PasswordHasher"]
SAVE_BUDGET = 0.5  # seconds: the hall's p99 for an interactive request (bench/hall_report.py)
STAFF = 10


def counting(monkeypatch, hashing):
    """Django's PBKDF2 hashing replaced by `hashing`, counted: [the most running at once]."""
    running, most = [0], [0]
    lock = threading.Lock()

    def probe(self, password, salt, iterations=None):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        try:
            return hashing(self, password, salt, iterations)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(PBKDF2PasswordHasher, "encode", probe)
    return most


def test_password_checks_run_one_at_a_time_in_a_process(monkeypatch):
    most = counting(monkeypatch, lambda *args: time.sleep(0.05) or "pbkdf2_sha256$1$salt$hash")
    hasher = BoundedPBKDF2PasswordHasher()
    threads = [threading.Thread(target=hasher.encode, args=("secret", "salt")) for _ in range(STAFF)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert most[0] == 1


def test_the_bounded_hasher_reads_django_s_own_hashes(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    stored = make_password("secret-pass-123")  # as every account has it today
    settings.PASSWORD_HASHERS = PRODUCTION_HASHERS
    user = User(password=stored)
    assert user.check_password("secret-pass-123") and not user.check_password("wrong")
    assert user.password == stored  # nothing rewritten


@pytest.mark.django_db(transaction=True)
def test_a_tablet_s_saves_stay_within_budget_while_ten_staff_sign_in_at_once(settings, referee, monkeypatch):
    build(4, rounds=[started_round(table(1, ["p1", "p2", "p3", "p4"], state="empty"))])
    settings.PASSWORD_HASHERS = PRODUCTION_HASHERS
    stored = make_password("staff-pass-123")  # one real hash, given to every staff account
    most = counting(monkeypatch, PBKDF2PasswordHasher.encode)  # the real hashing, counted
    for n in range(STAFF):
        User.objects.create(username=f"staff-{n}", password=stored)
    tablet = Client()
    tablet.force_login(referee)
    tablet.post(sheet_url("game_save", game_number=1), example_one(version=0), HTTP_HX_REQUEST="true")  # warm
    signed_in, started = [], threading.Barrier(STAFF + 1)

    def sign_in(n):
        try:
            started.wait()
            reply = Client().post("/accounts/login/", {"username": f"staff-{n}", "password": "staff-pass-123"})
            signed_in.append(reply.status_code == 302)
        finally:
            connection.close()

    staff = [threading.Thread(target=sign_in, args=(n,)) for n in range(STAFF)]
    for thread in staff:
        thread.start()
    started.wait()
    took = []
    for number in (2, 3, 4):
        time.sleep(0.3)  # the burst is under way (each check takes about a second)
        began = time.perf_counter()
        reply = tablet.post(
            sheet_url("game_save", game_number=number), example_one(version=number - 1), HTTP_HX_REQUEST="true"
        )
        took.append(time.perf_counter() - began)
        assert reply.status_code == 200 and b"data-just-saved" in reply.content
    for thread in staff:
        thread.join(timeout=120)
    assert signed_in == [True] * STAFF
    assert most[0] == 1  # one check at a time: the other core stays free for the tablets
    assert statistics.median(took) < SAVE_BUDGET, took
