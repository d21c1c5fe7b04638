"""The real-server harness: gunicorn starts, survives kill -9 and a restart."""

import json
import urllib.request

import pytest

from tests.factories import tournament_data
from tests.support.server import Server

pytestmark = pytest.mark.server


def test_gunicorn_serves_and_restarts_after_kill_9(tmp_path):
    with Server(tmp_path) as server:
        path = tmp_path / "t.json"
        path.write_text(json.dumps(tournament_data(8)), encoding="utf-8")
        server.manage("import_tournament", str(path))
        server.start()
        rows = json.load(urllib.request.urlopen(f"{server.url}/t/test/standings.json", timeout=5))
        assert len(rows) == 8
        server.kill()
        server.start()
        assert urllib.request.urlopen(f"{server.url}/t/test/standings.json", timeout=5).status == 200
