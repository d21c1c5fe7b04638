"""Six halls at once through the proxy, for Locust: `make hosted-test` (bench/hosted_test.py).

Three organisations with two tournaments each, all in round 1: per tournament, a tablet per table
(signed in through its device link) enters its table's four games as the score sheet does
(previews, then the save, with htmx's headers and the CSRF token) and submits the sheet; the head
referee verifies each submitted sheet; the organiser watches the dashboard; phones find their
table and poll the leaderboard. The same requests as bench/hall_scenario.py's hall, faster.

Everyone signs in as at a venue: at a moment of their own spread over the first
`sign_in_spread` seconds of the load (the data's), not all at once.

HOSTED_DATA names the JSON the test wrote (tournaments, tokens, logins); HOSTED_OUT the folder
for what the test compares afterwards, one file per kind and process: every acknowledged save
(`acks`), every failed request (`failures`), every request with its start, time and status
(`requests`), every staff request sent back to the sign-in page after signing in (`signed-out`),
every sheet the head referee saw verified (`verified`).
Locust runs in a process of its own (it patches the standard library with gevent).
"""

import itertools
import json
import os
import random
import re
import time
from pathlib import Path

from locust import HttpUser, constant, events, task
from page_forms import form_fields, version_in

DATA = json.loads(Path(os.environ["HOSTED_DATA"]).read_text())
OUT = Path(os.environ["HOSTED_OUT"])
PACE = DATA["pace"]
SPREAD = DATA["sign_in_spread"]
STARTED = time.time()
SAVE_RETRIES_FOR = 45  # seconds a tablet keeps sending a save with no answer or a 5xx (a database stop)
HTMX_TIMEOUT = 8  # seconds, as the score sheet's htmx.config.timeout
PAGE_TIMEOUT = 30  # a page or a plain form post: the browser waits
SAVED = "data-just-saved"
SIGN_IN = "/accounts/login/"
TOURNAMENTS = DATA["tournaments"]
_tables = itertools.cycle([(t["slug"], table) for table in range(1, DATA["tables"] + 1) for t in TOURNAMENTS])
_staff = {"HeadReferee": itertools.cycle(TOURNAMENTS), "Organiser": itertools.cycle(TOURNAMENTS)}
_files = {}


def record(kind, **fields):
    """One JSON line to this process's file of `kind`."""
    if kind not in _files:
        _files[kind] = open(OUT / f"{kind}-{os.getpid()}.jsonl", "a")
    _files[kind].write(json.dumps(fields) + "\n")
    _files[kind].flush()


@events.request.add_listener
def note_request(request_type, name, response_time, exception, context, response=None, **kwargs):
    now = time.time()
    status = getattr(response, "status_code", 0) or 0
    record("requests", start=now - response_time / 1000, ms=round(response_time, 1), name=name, status=status)
    if exception is not None:
        record(
            "failures", at=now, start=now - response_time / 1000, name=name, status=status, error=str(exception)[:200]
        )


def think(low, high):
    time.sleep(random.uniform(low, high) * PACE)


class Visitor(HttpUser):
    abstract = True
    wait_time = constant(0)  # each person's pauses are inside its task
    _ids = itertools.count(1)

    def on_start(self):
        self.user_id = f"{type(self).__name__}-{next(self._ids)}"
        self.signed_in = False
        self.arrives = STARTED + random.uniform(0, SPREAD)  # as at a venue: one after another

    def arrive(self):
        """Wait for this person's moment to sign in (the first time only)."""
        time.sleep(max(0.0, self.arrives - time.time()))

    def context(self):
        return {"user": getattr(self, "user_id", None)}

    def answered(self, reply, name, expect):
        """Mark the answer: a 200 (holding `expect`), a 304 or a redirect is a success; a redirect to
        the sign-in page after signing in is a failure, and noted."""
        location = reply.headers.get("Location", "")
        if reply.status_code == 302 and location.startswith(SIGN_IN) and self.signed_in:
            record("signed-out", at=time.time(), name=name, user=self.user_id)
            reply.failure(f"{name}: sent to the sign-in page")
        elif reply.status_code in (302, 304) or reply.status_code == 200 and (expect or "") in reply.text:
            reply.success()
        elif reply.status_code == 200:
            reply.failure(f"{name}: the answer lacks {expect!r}")

    def get(self, path, name, *, htmx=None, **kwargs):
        headers = {"HX-Request": "true", "HX-Target": htmx, "HX-Trigger": htmx} if htmx else {}
        timeout = HTMX_TIMEOUT if htmx else PAGE_TIMEOUT
        with self.client.get(
            path, name=name, headers=headers, timeout=timeout, allow_redirects=False, catch_response=True, **kwargs
        ) as reply:
            self.answered(reply, name, None)
        return reply

    def post(self, path, name, data, *, csrf=None, expect=None):
        headers = {"HX-Request": "true", "X-CSRFToken": csrf} if csrf else {}
        timeout = HTMX_TIMEOUT if csrf else PAGE_TIMEOUT
        with self.client.post(
            path, data=data, name=name, headers=headers, timeout=timeout, allow_redirects=False, catch_response=True
        ) as reply:
            self.answered(reply, name, expect)
        return reply

    def sign_in(self, username, password):
        """The staff sign-in page, then the form sent; tried again by the next task when it failed."""
        page = self.get(SIGN_IN, "staff: sign-in page")
        if page.status_code != 200:
            return
        data = dict(form_fields(page.text, None))
        data.update({"username": username, "password": password})
        reply = self.post(SIGN_IN, "staff: sign in", data)
        self.signed_in = reply.status_code == 302


class Referee(Visitor):
    """A tablet: its device link, then its table's four games, then the sheet submitted."""

    fixed_count = len(TOURNAMENTS) * DATA["tables"]

    def on_start(self):
        super().on_start()
        self.slug, self.table = next(_tables)
        self.sheet = f"/referee/{self.slug}/round/1/table/{self.table}/"
        self.done = self.link_spent = False

    def sign_in_by_link(self):
        link = f"/accounts/device/sign-in/{DATA['tokens'][self.slug][str(self.table)]}/"
        page = self.get(link, "referee: sign-in link")
        if page.status_code == 410:  # spent by a sign-in whose answer was lost: this tablet is out
            self.link_spent = True
        elif page.status_code == 200:
            self.signed_in = self.post(link, "referee: sign in", form_fields(page.text, None)).status_code == 302

    @task
    def work(self):
        if self.link_spent:
            think(20, 40)
            return
        if not self.signed_in:
            self.arrive()
            self.sign_in_by_link()
            think(1, 2)
            return
        if self.done:
            self.get(f"/referee/{self.slug}/", "referee: tables")
            think(20, 40)
            return
        page = self.get(self.sheet, "referee: sheet page")
        if page.status_code != 200:
            think(1, 2)
            return
        csrf = re.search(r'"X-CSRFToken": "([^"]+)"', page.text).group(1)
        reply = page.text
        for number in range(1, 5):
            if re.search(rf'id="g{number}-status"[^>]*>\s*<span class="status status--saved"', page.text):
                continue  # saved before (the page was opened again)
            reply = self.enter_game(page.text, number, csrf, version_in(reply))
            if reply is None:
                return  # not saved: the referee opens the sheet again
        self.submit(reply)

    def enter_game(self, page, number, csrf, version):
        """A preview per choice, then the save, retried as sheet.js retries; the reply's text or None."""
        save = f"{self.sheet}game/{number}/"
        fields = dict(form_fields(page, save))
        fields["version"] = version
        rng = random.Random(f"{self.slug}-{self.table}-{number}")
        winner = "ABCD"[(self.table + number) % 4]
        typed = [("ending", winner)] + [(f"{seat}-tiles", str(rng.randint(0, 70))) for seat in "ABCD" if seat != winner]
        for name, value in typed:
            think(2, 4)
            fields[name] = value
            self.post(f"{save}preview/", "referee: score preview", list(fields.items()), csrf=csrf)
        until = time.time() + SAVE_RETRIES_FOR
        for attempt in itertools.count():
            reply = self.post(save, "referee: save game", list(fields.items()), csrf=csrf, expect=SAVED)
            if reply.status_code == 200 and SAVED in reply.text:
                racks = {
                    seat: [int(fields[f"{seat}-tiles"]), int(fields[f"{seat}-jokers"]), fields[f"{seat}-opening"]]
                    for seat in "ABCD"
                    if seat != winner
                }
                record("acks", slug=self.slug, table=self.table, game=number, winner=winner, racks=racks)
                return reply.text
            if 200 <= reply.status_code < 500 or time.time() > until:
                return None  # refused: said on the tablet, not sent again (or the referee opens the sheet again)
            # No answer or a server error (a 503 while the database is away): sheet.js sends it again.
            time.sleep(min(2**attempt, 8))

    def submit(self, page):
        """'Submit sheet' (a plain form post), then the sheet page again to see it submitted."""
        fields = form_fields(page, f"{self.sheet}submit/")
        if fields:
            think(2, 4)
            self.post(f"{self.sheet}submit/", "referee: submit sheet", fields)
        page = self.get(self.sheet, "referee: sheet page")
        self.done = page.status_code == 200 and ("state--submitted" in page.text or "state--verified" in page.text)


class HeadReferee(Visitor):
    """Signs in, looks at the tables every few seconds and verifies each submitted sheet."""

    fixed_count = len(TOURNAMENTS)

    def on_start(self):
        super().on_start()
        self.slug = next(_staff["HeadReferee"])["slug"]

    @task
    def verify(self):
        if not self.signed_in:
            self.arrive()
            self.sign_in(*DATA["logins"][self.slug]["head_referee"])
            think(1, 2)
            return
        tables = self.get(f"/referee/{self.slug}/", "head: tables")
        for path in re.findall(
            r'state-box--submitted" href="([^"]+)"', tables.text if tables.status_code == 200 else ""
        ):
            think(1, 2)
            page = self.get(path, "head: sheet page")
            fields = form_fields(page.text, f"{path}verify/") if page.status_code == 200 else []
            if fields and self.post(f"{path}verify/", "head: verify sheet", fields).status_code == 302:
                record("verified", slug=self.slug, table=int(path.rstrip("/").rsplit("/", 1)[1]), at=time.time())
        think(3, 5)


class Organiser(Visitor):
    """Signs in and watches the dashboard and its poll."""

    fixed_count = len(TOURNAMENTS)

    def on_start(self):
        super().on_start()
        self.slug = next(_staff["Organiser"])["slug"]

    @task
    def watch(self):
        if not self.signed_in:
            self.arrive()
            self.sign_in(*DATA["logins"][self.slug]["organiser"])
            think(1, 2)
            return
        self.get(f"/staff/{self.slug}/", "organiser: dashboard")
        for _ in range(4):
            think(10, 10)
            self.get(f"/staff/{self.slug}/status/", "organiser: dashboard poll", htmx="round-status")


class Phone(Visitor):
    """A player: the find-my-table page, their own page, then the leaderboard, polled."""

    weight = 1

    def on_start(self):
        super().on_start()
        tournament = random.choice(TOURNAMENTS)
        self.slug, self.player = tournament["slug"], random.choice(tournament["players"])
        self.get(f"/t/{self.slug}/", "phone: find-my-table page")
        think(2, 5)
        self.get(f"/t/{self.slug}/player/{self.player}/", "phone: player page")

    @task
    def poll(self):
        think(30, 30)
        self.get(f"/t/{self.slug}/standings/", "phone: leaderboard poll", htmx="leaderboard")
