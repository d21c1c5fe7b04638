"""The hall, for Locust: tablets, the head referee, the organiser, phones, a projector, a checker.

Run by bench/bench_hall.py as its own process (`locust -f bench/hall_scenario.py --headless …`,
never inside Django's or pytest's process: Locust patches the standard library with gevent).
HALL_DATA names the JSON the bench wrote (device-link tokens, logins, tables, players, the
standings before the round); HALL_OUT the folder where every acknowledged save, every freshness
figure and every failed request is written, one file per Locust process, for the bench to
compare with the database afterwards.

Every request is the one the page makes: the score sheet's htmx posts carry the form as the
browser serialises it (read from the page itself), `HX-Request`, `HX-Current-URL` and the CSRF
token of the page's `hx-headers`; polls carry `If-None-Match` with the ETag of the last answer.
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

DATA = json.loads(Path(os.environ["HALL_DATA"]).read_text())
OUT = Path(os.environ["HALL_OUT"])
SLUG, ROUND, PACE = DATA["slug"], DATA["round"], DATA["pace"]
TIMEOUT = 8  # seconds, as the score sheet's htmx.config.timeout; a slower answer is an error
SAVED = "data-just-saved"
KIND = "X-Hall-Kind"  # the request's kind, for gunicorn's access log (server time per kind)
VERIFIED = []  # (table, when the head referee tapped Verify), for the checker: same process
_tables = itertools.count(1)
_files = {}


def record(kind, **fields):
    """One JSON line to this process's file of `kind` (acks, freshness, failures)."""
    if kind not in _files:
        _files[kind] = open(OUT / f"{kind}-{os.getpid()}.jsonl", "a")
    _files[kind].write(json.dumps(fields) + "\n")
    _files[kind].flush()


_last_success = {}


@events.request.add_listener
def note_request(request_type, name, response_time, exception, context, **kwargs):
    """Every failed request (when, which, why, whose), and each user's last good answer."""
    if exception is not None:
        record("failures", at=time.time(), name=name, error=str(exception)[:200], user=context.get("user"))
    else:
        _last_success[context.get("user")] = time.time()


@events.test_stop.add_listener
def write_last_successes(**kwargs):
    """Each user's last good answer, and the verifications the checker has not seen yet."""
    for user, at in _last_success.items():
        record("last-success", user=user, at=at)
    for table, tapped in VERIFIED:
        record("unseen", table=table, seconds=time.time() - tapped)


def think(low, high):
    time.sleep(random.uniform(low, high) * PACE)


class HallUser(HttpUser):
    abstract = True
    wait_time = constant(0)  # each user sleeps as its person would, inside its task
    _ids = itertools.count(1)

    def on_start(self):
        self.user_id = f"{type(self).__name__}-{next(self._ids)}"
        self.page_url = "/"
        self.etags = {}  # (URL, htmx or not): the ETag of its last answer, as the browser's cache keeps it
        self.static = set()

    def context(self):
        return {"user": getattr(self, "user_id", None)}

    def get(self, path, name, *, htmx=None, conditional=False, **kwargs):
        """GET as the browser does: `htmx` = the id of the polling element (adds htmx's headers);
        `conditional` = send If-None-Match with the last ETag of this URL."""
        headers = {KIND: name}
        if htmx is not None:
            headers.update({"HX-Request": "true", "HX-Current-URL": self.host + self.page_url})
            if htmx:
                headers.update({"HX-Target": htmx, "HX-Trigger": htmx})
        key = (path, str(kwargs.get("params")), htmx is not None)
        if conditional and key in self.etags:
            headers["If-None-Match"] = self.etags[key]
        with self.client.get(path, name=name, headers=headers, timeout=TIMEOUT, catch_response=True, **kwargs) as reply:
            if reply.status_code in (200, 304):
                reply.success()
            if reply.headers.get("ETag"):
                self.etags[key] = reply.headers["ETag"]
        if htmx is None and reply.status_code == 200:
            self.page_url = path
            self.load_static(reply.text)
        return reply

    def load_static(self, page):
        """The page's stylesheets and scripts not loaded before (the browser caches them)."""
        for url in re.findall(r'(?:href|src)="(/static/[^"]+)"', page):
            if url not in self.static:
                self.static.add(url)
                self.client.get(url, name="static files", headers={KIND: "static files"}, timeout=TIMEOUT)

    def post(self, path, name, data, *, htmx=False, csrf=None, expect=None, redirect=False):
        """POST a form as the browser does: htmx's headers and the CSRF token header for `htmx`;
        the answer counts as a failure unless it is a 200 holding `expect` (when given) or a
        redirect (only a redirect, with `redirect`: a plain form post that went through)."""
        headers = {KIND: name, "Referer": self.host + self.page_url}
        if htmx:
            headers.update({"HX-Request": "true", "HX-Current-URL": self.host + self.page_url, "X-CSRFToken": csrf})
        with self.client.post(
            path, data=data, name=name, headers=headers, timeout=TIMEOUT, allow_redirects=False, catch_response=True
        ) as reply:
            if reply.status_code == 302 or reply.status_code == 200 and not redirect and (expect or "") in reply.text:
                reply.success()
            elif reply.status_code == 200:
                reply.failure(f"{name}: {'the form came back' if redirect else f'the answer lacks {expect!r}'}")
        return reply

    def sign_in(self, name):
        """The staff sign-in page, as a person types the user name and password."""
        username, password = DATA["logins"][name]
        page = self.get("/accounts/login/", "staff: sign-in page").text
        data = dict(form_fields(page, None))
        data.update({"username": username, "password": password})
        think(3, 6)
        self.post("/accounts/login/", "staff: sign in", data, redirect=True)


class Referee(HallUser):
    """A tablet: signs in through its device link, enters its table's games in the sheet's order, submits."""

    fixed_count = len(DATA["tables"])

    def on_start(self):
        super().on_start()
        self.table = next(_tables)
        self.sheet = f"/referee/{SLUG}/round/{ROUND}/table/{self.table}/"
        link = f"/accounts/device/sign-in/{DATA['tokens'][str(self.table)]}/"
        page = self.get(link, "referee: sign-in link").text
        think(2, 5)
        self.post(link, "referee: sign in", form_fields(page, None), redirect=True)
        self.get(f"/referee/{SLUG}/", "referee: tables")  # where the sign-in leads; the referee taps the table
        think(2, 5)
        self.done = False

    @task
    def work(self):
        if self.done:
            self.get(f"/referee/{SLUG}/", "referee: tables")
            think(20, 40)
            return
        page = self.get(self.sheet, "referee: sheet page").text
        csrf = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
        reply = page
        for number in range(1, 5):
            if re.search(rf'id="g{number}-status"[^>]*>\s*<span class="status status--saved"', page):
                continue  # saved before (the page was opened again)
            reply = self.enter_game(page, number, csrf, version_in(reply))
            if reply is None:
                return  # not saved: the referee opens the sheet again
        self.submit(reply)

    def enter_game(self, page, number, csrf, version):
        """Preview after each choice (who went out, each rack), then save, retrying as sheet.js does.

        The form is the page's own; the version is the one the last reply swapped in."""
        save = f"{self.sheet}game/{number}/"
        fields = dict(form_fields(page, save))
        fields["version"] = version
        rng = random.Random(f"{self.table}-{number}")
        winner = "ABCD"[(self.table + number) % 4]
        typed = [("ending", winner)] + [
            (f"{letter}-tiles", str(rng.randint(0, 70))) for letter in "ABCD" if letter != winner
        ]
        for name, value in typed:
            think(4, 8)
            fields[name] = value
            self.post(f"{save}preview/", "referee: score preview", list(fields.items()), htmx=True, csrf=csrf)
        think(2, 4)
        for attempt in range(8):
            reply = self.post(save, "referee: save game", list(fields.items()), htmx=True, csrf=csrf, expect=SAVED)
            if reply.status_code == 200 and SAVED in reply.text:
                racks = {
                    letter: [
                        int(fields[f"{letter}-tiles"]),
                        int(fields[f"{letter}-jokers"]),
                        fields[f"{letter}-opening"],
                    ]
                    for letter in "ABCD"
                    if letter != winner
                }
                record("acks", table=self.table, game=number, winner=winner, racks=racks, at=time.time())
                return reply.text
            if 200 <= reply.status_code < 500:
                return None  # refused: said on the tablet, not sent again
            time.sleep(min(2**attempt, 30))  # not saved — will retry (no answer, or a server error)
        return None

    def submit(self, page):
        """'Submit sheet', then 'Yes, submit': a plain form post (its form came with the last save's
        reply), redirected to the sheet page."""
        for _attempt in range(8):
            fields = form_fields(page, f"{self.sheet}submit/")
            if not fields:
                return
            think(3, 6)
            self.post(f"{self.sheet}submit/", "referee: submit sheet", fields, redirect=True)
            page = self.get(self.sheet, "referee: sheet page").text
            if "state--submitted" in page or "state--verified" in page:
                self.done = True
                return


class HeadReferee(HallUser):
    """Looks at the tables every few seconds and verifies each submitted sheet."""

    fixed_count = 1

    def on_start(self):
        super().on_start()
        self.sign_in("head_referee")

    @task
    def verify(self):
        tables = self.get(f"/referee/{SLUG}/", "head: tables").text
        for path in re.findall(r'state-box--submitted" href="([^"]+)"', tables):
            think(2, 4)  # reads the sheet
            page = self.get(path, "head: sheet page").text
            fields = form_fields(page, f"{path}verify/")
            if not fields:
                continue
            tapped = time.time()
            reply = self.post(f"{path}verify/", "head: verify sheet", fields, redirect=True)
            if reply.status_code != 302:
                continue
            verified = (int(path.rstrip("/").rsplit("/", 1)[1]), tapped)
            VERIFIED.append(verified)  # the checker starts looking at once
            page = self.get(path, "head: sheet page")
            if page.status_code == 200 and "state--verified" not in page.text and verified in VERIFIED:
                VERIFIED.remove(verified)  # refused (e.g. changed meanwhile): it comes back as submitted
        think(4, 6)


class Organiser(HallUser):
    """The dashboard (and its 10 s poll), now and then the round page and the seating PDF."""

    fixed_count = 1

    def on_start(self):
        super().on_start()
        self.sign_in("organiser")

    @task
    def work(self):
        self.get(f"/staff/{SLUG}/", "organiser: dashboard")
        for _ in range(6):
            think(10, 10)
            self.get(f"/staff/{SLUG}/status/", "organiser: dashboard poll", htmx="round-status")
        self.get(f"/staff/{SLUG}/rounds/{ROUND}/", "organiser: round page")
        think(5, 10)
        self.get(f"/print/{SLUG}/round/{ROUND}/seating.pdf", "organiser: seating PDF")
        think(5, 10)


class Phone(HallUser):
    """A player: finds their table by name, their page, then the leaderboard, polled every 30 s."""

    weight = 1

    def on_start(self):
        super().on_start()
        self.player, self.name = random.choice(list(DATA["players"].items()))
        self.open_pages()

    def open_pages(self):
        self.get(f"/t/{SLUG}/", "phone: find-my-table page")
        for typed in (self.name[:-1], self.name):  # the search asks as the name is typed
            think(1, 3)
            self.get(f"/t/{SLUG}/", "phone: find by name", htmx="find-q", params={"q": typed})
        think(3, 8)
        self.get(f"/t/{SLUG}/player/{self.player}/", "phone: player page")
        think(5, 15)
        self.get(f"/t/{SLUG}/standings/", "phone: leaderboard page")

    @task
    def poll(self):
        think(DATA["poll_seconds"], DATA["poll_seconds"])
        if random.random() < 0.1:
            self.open_pages()  # looks again where they sit, and at their own page
        else:
            self.get(f"/t/{SLUG}/standings/", "phone: leaderboard poll", htmx="leaderboard", conditional=True)


class Projector(HallUser):
    """The projector's leaderboard, paging by itself."""

    fixed_count = 1

    def on_start(self):
        super().on_start()
        self.page = self.get(f"/t/{SLUG}/projector/", "projector: page").text

    @task
    def next_page(self):
        match = re.search(r'hx-get="([^"]+)" hx-trigger="every (\d+)s"', self.page)
        path, seconds = (
            (match.group(1).replace("&amp;", "&"), int(match.group(2))) if match else (f"/t/{SLUG}/projector/", 10)
        )
        think(seconds, seconds)
        reply = self.get(path, "projector: poll", htmx="board", conditional=True)
        if reply.status_code == 200:
            self.page = reply.text


class Checker(HallUser):
    """After each verification, polls standings.json until one of the table's players has changed."""

    fixed_count = 1
    INTERVAL = 0.1

    def on_start(self):
        super().on_start()
        self.page_url = f"/t/{SLUG}/standings/"
        self.baseline = {row["player_id"]: row for row in DATA["baseline"]}

    @task
    def check(self):
        if not VERIFIED:
            time.sleep(self.INTERVAL)
            return
        reply = self.get(f"/t/{SLUG}/standings.json", "checker: standings.json", conditional=True)
        if reply.status_code == 200:
            rows = {row["player_id"]: row for row in reply.json()}
            seen = time.time()
            for table, tapped in list(VERIFIED):
                players = DATA["tables"][str(table)].values()
                if any(rows.get(p) != self.baseline.get(p) for p in players):
                    record("freshness", table=table, seconds=seen - tapped)
                    VERIFIED.remove((table, tapped))
        time.sleep(self.INTERVAL)
